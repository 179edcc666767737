// Threads OAuth: threads.net/oauth/authorize, graph.threads.net/oauth/access_token (1-hour token), then the
// th_exchange_token / th_refresh_token long-lived endpoints.
import { SANDBOX_APPS } from '../apps.ts';
import { registerAuthorize } from '../core/authorize.ts';
import { graphError } from '../core/graph.ts';
import { randomAlnum, randomUrlSafe } from '../core/ids.ts';
import { registerLongLivedTokens } from '../core/meta-login.ts';
import { avatarUrl, tokenParams } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { lifetimeSec } from '../core/store.ts';
import { mintToken, redeemCode } from '../core/tokens.ts';
import { buildThreadsAccount } from './account.ts';

export const THREADS_SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_manage_replies',
  'threads_read_replies',
  'threads_manage_insights',
  'threads_delete',
  'threads_location_tagging',
  'threads_profile_discovery',
  'threads_manage_mentions',
  'threads_keyword_search',
] as const;

const app = SANDBOX_APPS.threads;
const newToken = () => `THAA${randomAlnum(180)}`;
const REDIRECT_MISMATCH =
  'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request';

export function registerThreadsOAuth(sim: Simulator): void {
  registerAuthorize(sim, {
    platform: 'threads',
    path: '/oauth/authorize',
    network: 'Threads',
    clientIdParam: 'client_id',
    scopeDelimiter: /[ ,]+/,
    knownScopes: THREADS_SCOPES,
    scopeRequired: true,
    pkceMethods: [],
    codeTtlSec: 600,
    newCode: () => `AQ${randomUrlSafe(200)}`,
    invalidScope: 'page',
    denyParams: { error: 'access_denied', error_reason: 'user_denied', error_description: 'Permissions error' },
    buildAccount: (userKey) => buildThreadsAccount(userKey, (id) => avatarUrl(sim.ctx, 'threads', id)),
  });

  addRoute(sim, {
    // Documented as a form POST; the same parameters as a GET query string are accepted too, as clients rely on it.
    method: ['POST', 'GET'],
    url: '/oauth/access_token',
    ops: ['token'],
    surface: 'oauth',
    handler: (req, reply, call) => {
      const p = tokenParams(req, true);
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
      if (p.grant_type !== 'authorization_code') {
        return sendAnswer(
          reply,
          graphError(400, { message: `Unsupported grant_type: ${p.grant_type ?? ''}`, code: 100 }),
        );
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
        const answer =
          redeemed.problem === 'redirect_mismatch'
            ? { message: REDIRECT_MISMATCH, code: 100, subcode: 36008 }
            : redeemed.problem === 'expired'
              ? { message: 'This authorization code has expired.', code: 100, subcode: 36007 }
              : redeemed.problem === 'used' || redeemed.problem === 'revoked'
                ? { message: 'This authorization code has been used.', code: 100, subcode: 36009 }
                : { message: 'Invalid verification code format.', code: 100 };
        return sendAnswer(reply, graphError(400, answer));
      }
      const { code } = redeemed;
      const token = mintToken(call.ctx, call.slice, {
        token: newToken(),
        kind: 'short',
        clientId: app.clientId,
        accountId: code.accountId,
        grantId: code.grantId,
        scopes: code.scopes,
        ttlSec: lifetimeSec(call.ctx.store, 'threads', 'short', 3600),
      });
      return reply.send({ access_token: token.token, user_id: Number(code.accountId) });
    },
  });

  registerLongLivedTokens(sim, {
    appId: app.clientId,
    appSecret: app.clientSecret,
    exchangeGrant: 'th_exchange_token',
    refreshGrant: 'th_refresh_token',
    newToken,
  });
}
