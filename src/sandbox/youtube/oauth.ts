// Google OAuth 2.0 web-server flow: accounts.google.com/o/oauth2/v2/auth, oauth2.googleapis.com/{token,revoke}.
// PKCE (S256 or plain) when a challenge is sent. A refresh token comes only with access_type=offline, and only on the
// first consent of that account to the client unless prompt=consent; refreshing never rotates it.
import type { FastifyReply } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import { registerAuthorize } from '../core/authorize.ts';
import { signIdToken } from '../core/id-token.ts';
import { randomAlnum, randomUrlSafe } from '../core/ids.ts';
import { avatarUrl, clientCredentials, oauthError, tokenParams } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { lifetimeSec } from '../core/store.ts';
import { checkToken, expiresInSec, mintToken, redeemCode, revokeGrant } from '../core/tokens.ts';
import type { CodeRecord, GrantRecord, TokenRecord } from '../core/types.ts';
import { buildYouTubeAccount } from './account.ts';

const G = 'https://www.googleapis.com/auth/';
export const GOOGLE_SCOPES = [
  'openid',
  'email',
  'profile',
  `${G}userinfo.email`,
  `${G}userinfo.profile`,
  `${G}youtube`,
  `${G}youtube.readonly`,
  `${G}youtube.upload`,
  `${G}youtube.force-ssl`,
  `${G}youtubepartner`,
  `${G}yt-analytics.readonly`,
] as const;

const app = SANDBOX_APPS.youtube;
const ACCESS_TTL = 3599;
const BAD_REFRESH = 'Token has been expired or revoked.';

function wantsRefresh(call: Call, code: CodeRecord, grant: GrantRecord): boolean {
  if (code.extras.access_type !== 'offline') return false;
  if ((code.extras.prompt ?? '').split(' ').includes('consent')) return true;
  for (const g of call.slice.grants.values()) {
    if (
      g.id !== grant.id &&
      g.accountId === grant.accountId &&
      g.clientId === grant.clientId &&
      g.refreshIssued &&
      g.revokedAt === null
    ) {
      return false;
    }
  }
  return true;
}

async function accessBody(call: Call, grant: GrantRecord, refresh: TokenRecord | null) {
  const access = mintToken(call.ctx, call.slice, {
    token: `ya29.${randomUrlSafe(200)}`,
    kind: 'access',
    clientId: app.clientId,
    accountId: grant.accountId,
    grantId: grant.id,
    scopes: grant.scopes,
    ttlSec: lifetimeSec(call.ctx.store, 'youtube', 'access', ACCESS_TTL),
  });
  const body: Record<string, unknown> = {
    access_token: access.token,
    expires_in: expiresInSec(call.ctx, access),
    scope: grant.scopes.join(' '),
    token_type: 'Bearer',
  };
  if (refresh) body.refresh_token = refresh.token;
  const account = call.slice.accounts.get(grant.accountId);
  if (grant.scopes.includes('openid') && account) {
    body.id_token = await signIdToken(
      call.ctx,
      {
        iss: call.ctx.base('youtube'),
        aud: app.clientId,
        azp: app.clientId,
        sub: account.id,
        at_hash: randomUrlSafe(22),
        ...(grant.scopes.some((s) => s === 'email' || s.endsWith('userinfo.email'))
          ? { email: account.email, email_verified: true }
          : {}),
      },
      3600,
    );
  }
  return body;
}

function fail(reply: FastifyReply, status: number, error: string, description: string) {
  return sendAnswer(reply, oauthError(status, error, description));
}

export function registerGoogleOAuth(sim: Simulator): void {
  registerAuthorize(sim, {
    platform: 'youtube',
    path: '/o/oauth2/v2/auth',
    network: 'Google',
    clientIdParam: 'client_id',
    scopeDelimiter: / +/,
    knownScopes: GOOGLE_SCOPES,
    scopeRequired: true,
    pkceMethods: ['S256', 'plain'],
    codeTtlSec: 600,
    newCode: () => `4/0A${randomUrlSafe(70)}`,
    invalidScope: 'page',
    keepParams: ['access_type', 'prompt', 'include_granted_scopes'],
    denyParams: { error: 'access_denied' },
    pageError: (problem, detail) => {
      if (problem === 'client')
        return {
          status: 401,
          title: 'Error 401: invalid_client',
          message: `The OAuth client was not found. ${detail}`,
        };
      if (problem === 'redirect') return { status: 400, title: 'Error 400: redirect_uri_mismatch', message: detail };
      if (problem === 'scope') {
        const title = detail.startsWith('Missing') ? 'Error 400: invalid_request' : 'Error 400: invalid_scope';
        return { status: 400, title, message: detail };
      }
      return { status: 400, title: 'Error 400: invalid_request', message: detail };
    },
    buildAccount: (userKey) =>
      buildYouTubeAccount(userKey, (id) => avatarUrl(sim.ctx, 'youtube', id), sim.ctx.now().toISOString()),
  });

  addRoute(sim, {
    method: 'POST',
    url: '/token',
    ops: ['refresh', 'token'],
    opsFor: (req) => (tokenParams(req, false).grant_type === 'refresh_token' ? ['refresh', 'token'] : ['token']),
    surface: 'oauth',
    handler: async (req, reply, call) => {
      const form = tokenParams(req, false);
      const { clientId, clientSecret } = clientCredentials(req, form, { basic: 'allowed' });
      if (clientId !== app.clientId) return fail(reply, 401, 'invalid_client', 'The OAuth client was not found.');
      if (clientSecret !== app.clientSecret) return fail(reply, 401, 'invalid_client', 'Unauthorized');
      if (form.grant_type === 'authorization_code') {
        if (!form.code) return fail(reply, 400, 'invalid_request', 'Missing required parameter: code');
        if (!form.redirect_uri) return fail(reply, 400, 'invalid_request', 'Missing parameter: redirect_uri');
        const redeemed = redeemCode(call, {
          code: form.code,
          clientId,
          redirectUri: form.redirect_uri,
          verifier: form.code_verifier,
        });
        if (!redeemed.ok) {
          if (redeemed.problem === 'redirect_mismatch') return fail(reply, 400, 'redirect_uri_mismatch', 'Bad Request');
          if (redeemed.problem === 'verifier_missing')
            return fail(reply, 400, 'invalid_grant', 'Missing code verifier.');
          if (redeemed.problem === 'verifier_mismatch')
            return fail(reply, 400, 'invalid_grant', 'Invalid code verifier.');
          return fail(
            reply,
            400,
            'invalid_grant',
            redeemed.problem === 'unknown' ? 'Malformed auth code.' : 'Bad Request',
          );
        }
        const grant = call.slice.grants.get(redeemed.code.grantId);
        if (!grant) return fail(reply, 400, 'invalid_grant', 'Bad Request');
        let refresh: TokenRecord | null = null;
        if (wantsRefresh(call, redeemed.code, grant)) {
          refresh = mintToken(call.ctx, call.slice, {
            token: `1//0${randomAlnum(100)}`,
            kind: 'refresh',
            clientId,
            accountId: grant.accountId,
            grantId: grant.id,
            scopes: grant.scopes,
            ttlSec: call.ctx.store.config.lifetimes.youtube?.refresh ?? null,
          });
          grant.refreshIssued = true;
        }
        return reply.send(await accessBody(call, grant, refresh));
      }
      if (form.grant_type === 'refresh_token') {
        if (!form.refresh_token)
          return fail(reply, 400, 'invalid_request', 'Missing required parameter: refresh_token');
        const checked = checkToken(call, form.refresh_token, ['refresh']);
        const grant = checked.ok ? call.slice.grants.get(checked.token.grantId) : undefined;
        if (!checked.ok || !grant) return fail(reply, 400, 'invalid_grant', BAD_REFRESH);
        return reply.send(await accessBody(call, grant, null));
      }
      return fail(reply, 400, 'unsupported_grant_type', `Invalid grant_type: ${form.grant_type ?? ''}`);
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/revoke',
    ops: ['revoke'],
    surface: 'oauth',
    handler: (req, reply, call) => {
      const token = tokenParams(req, true).token;
      const record = token ? call.slice.tokens.get(token) : undefined;
      const dead =
        !record ||
        record.revokedAt !== null ||
        call.slice.grants.get(record.grantId)?.revokedAt != null ||
        (record.expiresAt !== null && record.expiresAt <= call.ctx.nowMs());
      if (!record || dead) return fail(reply, 400, 'invalid_token', 'Token expired or revoked');
      // Revoking either token of a grant revokes the whole grant, refresh token included.
      revokeGrant(call.ctx, call.slice, record.grantId);
      return reply.send({});
    },
  });
}
