// Facebook Login: the www.facebook.com dialog and graph.facebook.com/oauth/access_token (code exchange,
// fb_exchange_token, client_credentials). No refresh grant exists; long-lived user tokens last ~60 days.
import { SANDBOX_APPS } from '../apps.ts';
import { registerAuthorize } from '../core/authorize.ts';
import { graphError, graphTokenError } from '../core/graph.ts';
import { randomAlnum, randomUrlSafe } from '../core/ids.ts';
import { allParams } from '../core/http.ts';
import { avatarUrl } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { lifetimeSec } from '../core/store.ts';
import { checkToken, expiresInSec, mintToken, redeemCode } from '../core/tokens.ts';
import type { CodeProblem } from '../core/tokens.ts';
import type { TokenRecord } from '../core/types.ts';
import { buildFacebookAccount } from './account.ts';

export const FACEBOOK_SCOPES = [
  'public_profile',
  'email',
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_posts',
  'pages_manage_engagement',
  'pages_read_user_content',
  'pages_manage_metadata',
  'read_insights',
  'publish_video',
  'business_management',
  'instagram_basic',
  'instagram_content_publish',
  'instagram_manage_comments',
  'instagram_manage_insights',
  'ads_management',
  'ads_read',
] as const;

const SHORT_TTL = 3600;
const LONG_TTL = 5_183_944;
const app = SANDBOX_APPS.facebook;

const CODE_ERRORS: Record<Exclude<CodeProblem, 'verifier_missing' | 'verifier_mismatch'>, [string, number, number?]> = {
  missing: ['Missing authorization code', 1],
  unknown: ['Invalid verification code format.', 100],
  used: ['This authorization code has been used.', 100, 36009],
  revoked: ['This authorization code has been used.', 100, 36009],
  expired: ['This authorization code has expired.', 100, 36007],
  client_mismatch: [
    'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
    100,
    36008,
  ],
  redirect_mismatch: [
    'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
    100,
    36008,
  ],
};

export function newUserToken(
  call: Call,
  kind: 'short' | 'long',
  from: { grantId: string; accountId: string; scopes: string[] },
): TokenRecord {
  return mintToken(call.ctx, call.slice, {
    token: `EAA${randomAlnum(190)}`,
    kind,
    clientId: app.clientId,
    accountId: from.accountId,
    grantId: from.grantId,
    scopes: from.scopes,
    ttlSec: lifetimeSec(call.ctx.store, 'facebook', kind, kind === 'short' ? SHORT_TTL : LONG_TTL),
  });
}

function tokenBody(call: Call, token: TokenRecord) {
  return { access_token: token.token, token_type: 'bearer', expires_in: expiresInSec(call.ctx, token) };
}

export function registerFacebookOAuth(sim: Simulator): void {
  registerAuthorize(sim, {
    platform: 'facebook',
    path: '/:version/dialog/oauth',
    network: 'Facebook',
    clientIdParam: 'client_id',
    scopeDelimiter: /[ ,]+/,
    knownScopes: FACEBOOK_SCOPES,
    scopeRequired: false,
    pkceMethods: [],
    codeTtlSec: 600,
    newCode: () => `AQ${randomUrlSafe(300)}`,
    invalidScope: 'page',
    denyParams: {
      error: 'access_denied',
      error_code: '200',
      error_description: 'Permissions error',
      error_reason: 'user_denied',
    },
    pageError: (problem, detail) => {
      if (problem === 'client')
        return {
          status: 400,
          title: 'Invalid App ID',
          message: `${detail} The provided app ID does not look like a valid app ID.`,
        };
      if (problem === 'redirect') {
        return {
          status: 400,
          title: 'URL blocked',
          message: `This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings. ${detail}`,
        };
      }
      if (problem === 'scope')
        return {
          status: 400,
          title: 'Invalid Scopes',
          message: `${detail}. This message is only shown to developers.`,
        };
      return { status: 400, title: 'Sorry, something went wrong.', message: detail };
    },
    buildAccount: (userKey) => buildFacebookAccount(userKey, (id) => avatarUrl(sim.ctx, 'facebook', id)),
  });

  addRoute(sim, {
    method: ['GET', 'POST'],
    url: '/:version/oauth/access_token',
    ops: ['token'],
    surface: 'oauth',
    handler: (req, reply, call) => {
      const p = allParams(req);
      if (!p.client_id)
        return sendAnswer(reply, graphError(400, { message: 'Missing client_id parameter.', code: 101 }));
      if (p.client_id !== app.clientId) {
        return sendAnswer(
          reply,
          graphError(400, { message: 'Error validating application. Invalid application ID.', code: 101 }),
        );
      }
      if (p.client_secret !== app.clientSecret) {
        return sendAnswer(reply, graphError(400, { message: 'Error validating client secret.', code: 1 }));
      }
      if (p.grant_type === 'client_credentials') {
        return reply.send({ access_token: `${app.clientId}|${app.clientSecret}`, token_type: 'bearer' });
      }
      if (p.grant_type === 'fb_exchange_token') {
        const checked = checkToken(call, p.fb_exchange_token, ['short', 'long']);
        if (!checked.ok) {
          const info = {
            nowMs: call.ctx.nowMs(),
            expiredAt: checked.token?.expiresAt ?? null,
            appId: app.clientId,
            aboutMe: false,
          };
          return sendAnswer(reply, graphTokenError(checked.problem === 'missing' ? 'invalid' : checked.problem, info));
        }
        return reply.send(tokenBody(call, newUserToken(call, 'long', checked.token)));
      }
      if (p.grant_type && p.grant_type !== 'authorization_code') {
        return sendAnswer(reply, graphError(400, { message: `Unsupported grant_type: ${p.grant_type}`, code: 100 }));
      }
      if (!p.redirect_uri)
        return sendAnswer(reply, graphError(400, { message: 'Missing redirect_uri parameter.', code: 191 }));
      const redeemed = redeemCode(call, {
        code: p.code,
        clientId: p.client_id,
        redirectUri: p.redirect_uri,
        verifier: undefined,
      });
      if (!redeemed.ok) {
        const problem =
          redeemed.problem === 'verifier_missing' || redeemed.problem === 'verifier_mismatch'
            ? 'unknown'
            : redeemed.problem;
        const [message, code, subcode] = CODE_ERRORS[problem];
        return sendAnswer(
          reply,
          graphError(400, subcode === undefined ? { message, code } : { message, code, subcode }),
        );
      }
      const { code } = redeemed;
      const scopes = code.scopes.includes('public_profile') ? code.scopes : ['public_profile', ...code.scopes];
      return reply.send(
        tokenBody(call, newUserToken(call, 'short', { grantId: code.grantId, accountId: code.accountId, scopes })),
      );
    },
  });
}
