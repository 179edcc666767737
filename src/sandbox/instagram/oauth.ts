// Instagram API with Instagram Login: www.instagram.com/oauth/authorize, api.instagram.com/oauth/access_token
// (1-hour token), then graph.instagram.com long-lived exchange and refresh.
import { SANDBOX_APPS } from '../apps.ts';
import { registerAuthorize } from '../core/authorize.ts';
import { randomAlnum, randomUrlSafe } from '../core/ids.ts';
import { registerLongLivedTokens } from '../core/meta-login.ts';
import { avatarUrl, tokenParams } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { ErrorAnswer, Simulator } from '../core/route.ts';
import { lifetimeSec } from '../core/store.ts';
import { mintToken, redeemCode } from '../core/tokens.ts';
import { buildInstagramAccount } from './account.ts';

export const INSTAGRAM_SCOPES = [
  'instagram_business_basic',
  'instagram_business_content_publish',
  'instagram_business_manage_comments',
  'instagram_business_manage_insights',
  'instagram_business_manage_messages',
] as const;

const app = SANDBOX_APPS.instagram;
const newToken = () => `IGAA${randomAlnum(180)}`;

/** api.instagram.com's own error shape (graph.instagram.com uses the Graph envelope). */
export function igOAuthError(message: string, status = 400): ErrorAnswer {
  return { status, body: { error_type: 'OAuthException', code: status, error_message: message } };
}

export function registerInstagramOAuth(sim: Simulator): void {
  registerAuthorize(sim, {
    platform: 'instagram',
    path: '/oauth/authorize',
    network: 'Instagram',
    clientIdParam: 'client_id',
    scopeDelimiter: /[ ,]+/,
    knownScopes: INSTAGRAM_SCOPES,
    scopeRequired: true,
    pkceMethods: [],
    codeTtlSec: 3600,
    newCode: () => `AQ${randomUrlSafe(200)}`,
    invalidScope: 'page',
    redirectFragment: '#_',
    denyParams: {
      error: 'access_denied',
      error_reason: 'user_denied',
      error_description: 'The user denied your request.',
    },
    buildAccount: (userKey) => buildInstagramAccount(userKey, (id) => avatarUrl(sim.ctx, 'instagram', id)),
  });

  addRoute(sim, {
    method: 'POST',
    url: '/oauth/access_token',
    ops: ['token'],
    surface: 'oauth',
    faultAnswer: (kind) =>
      kind === 'rate_limit'
        ? igOAuthError('Too many requests. Please try again later.', 429)
        : igOAuthError('Internal server error', 500),
    handler: (req, reply, call) => {
      const form = tokenParams(req, false);
      if (!form.client_id) return sendAnswer(reply, igOAuthError('Missing required field client_id'));
      if (form.client_id !== app.clientId) return sendAnswer(reply, igOAuthError('Invalid platform app'));
      if (form.client_secret !== app.clientSecret)
        return sendAnswer(reply, igOAuthError('Error validating client secret.'));
      if (form.grant_type !== 'authorization_code') return sendAnswer(reply, igOAuthError('Invalid grant_type'));
      if (!form.redirect_uri) return sendAnswer(reply, igOAuthError('Missing required field redirect_uri'));
      const redeemed = redeemCode(call, {
        code: form.code,
        clientId: form.client_id,
        redirectUri: form.redirect_uri,
        verifier: undefined,
      });
      if (!redeemed.ok) {
        const message =
          redeemed.problem === 'expired'
            ? 'This authorization code has expired.'
            : redeemed.problem === 'redirect_mismatch'
              ? 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request'
              : 'Matching code was not found or was already used';
        return sendAnswer(reply, igOAuthError(message));
      }
      const { code } = redeemed;
      const token = mintToken(call.ctx, call.slice, {
        token: newToken(),
        kind: 'short',
        clientId: app.clientId,
        accountId: code.accountId,
        grantId: code.grantId,
        scopes: code.scopes,
        ttlSec: lifetimeSec(call.ctx.store, 'instagram', 'short', 3600),
      });
      return reply.send({
        access_token: token.token,
        user_id: Number(code.accountId),
        permissions: code.scopes.join(','),
      });
    },
  });

  registerLongLivedTokens(sim, {
    appId: app.clientId,
    appSecret: app.clientSecret,
    exchangeGrant: 'ig_exchange_token',
    refreshGrant: 'ig_refresh_token',
    newToken,
  });
}
