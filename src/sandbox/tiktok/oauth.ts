// TikTok Login Kit v2: www.tiktok.com/v2/auth/authorize/ and open.tiktokapis.com/v2/oauth/{token,revoke}/.
// PKCE (S256) is honoured when a challenge is sent. Refresh tokens rotate: each refresh returns a new one and the old
// one stops working. Lifetimes follow the newer docs (2 h / 180 d); override them with `_config.lifetimes.tiktok`.
import type { FastifyRequest } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import { registerAuthorize } from '../core/authorize.ts';
import { headerValue } from '../core/http.ts';
import { randomAlnum, randomUrlSafe } from '../core/ids.ts';
import { avatarUrl, tokenParams } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { lifetimeSec } from '../core/store.ts';
import { checkToken, expiresInSec, mintToken, redeemCode, revokeGrant, rotate } from '../core/tokens.ts';
import type { CodeProblem } from '../core/tokens.ts';
import type { GrantRecord } from '../core/types.ts';
import { buildTikTokAccount } from './account.ts';
import { oauthFail } from './errors.ts';

export const TIKTOK_SCOPES = [
  'user.info.basic',
  'user.info.profile',
  'user.info.stats',
  'video.publish',
  'video.upload',
  'video.list',
] as const;

const app = SANDBOX_APPS.tiktok;
const ACCESS_TTL = 7200;
const REFRESH_TTL = 15_552_000;

const CODE_ERRORS: Record<CodeProblem, string> = {
  missing: 'Missing required parameter: code.',
  unknown: 'Authorization code is invalid.',
  used: 'Authorization code has been used.',
  revoked: 'Authorization code has been revoked.',
  expired: 'Authorization code is expired.',
  client_mismatch: 'Authorization code was issued to another client.',
  redirect_mismatch: 'redirect_uri does not match the authorization request.',
  verifier_missing: 'code_verifier is required.',
  verifier_mismatch: 'Code verifier is invalid.',
};

function isForm(req: FastifyRequest): boolean {
  return (headerValue(req, 'content-type') ?? '').startsWith('application/x-www-form-urlencoded');
}

function issue(call: Call, grant: GrantRecord) {
  const { ctx, slice } = call;
  const base = { clientId: app.clientId, accountId: grant.accountId, grantId: grant.id, scopes: grant.scopes };
  const access = mintToken(ctx, slice, {
    ...base,
    token: `act.${randomAlnum(64)}!${randomAlnum(4)}.va`,
    kind: 'access',
    ttlSec: lifetimeSec(ctx.store, 'tiktok', 'access', ACCESS_TTL),
  });
  const refresh = mintToken(ctx, slice, {
    ...base,
    token: `rft.${randomAlnum(64)}!${randomAlnum(4)}.va`,
    kind: 'refresh',
    ttlSec: lifetimeSec(ctx.store, 'tiktok', 'refresh', REFRESH_TTL),
  });
  return {
    refresh,
    body: {
      access_token: access.token,
      expires_in: expiresInSec(ctx, access),
      open_id: grant.accountId,
      refresh_expires_in: expiresInSec(ctx, refresh),
      refresh_token: refresh.token,
      scope: grant.scopes.join(','),
      token_type: 'Bearer',
    },
  };
}

export function registerTikTokOAuth(sim: Simulator): void {
  registerAuthorize(sim, {
    platform: 'tiktok',
    path: '/v2/auth/authorize/',
    network: 'TikTok',
    clientIdParam: 'client_key',
    scopeDelimiter: /,/,
    knownScopes: TIKTOK_SCOPES,
    scopeRequired: true,
    pkceMethods: ['S256'],
    codeTtlSec: 600,
    newCode: () => randomUrlSafe(120),
    invalidScope: 'invalid_scope',
    successParams: (pending) => ({ scopes: pending.scopes.join(',') }),
    denyParams: {
      error: 'access_denied',
      error_description: 'The resource owner or authorization server denied the request.',
    },
    pageError: (problem, detail) => ({
      status: 400,
      title: problem === 'redirect' ? 'redirect_uri' : problem === 'client' ? 'client_key' : 'Something went wrong',
      message: detail,
    }),
    buildAccount: (userKey) => buildTikTokAccount(userKey, (id) => avatarUrl(sim.ctx, 'tiktok', id)),
  });

  addRoute(sim, {
    method: 'POST',
    url: '/v2/oauth/token/',
    ops: ['refresh', 'token'],
    opsFor: (req) => (tokenParams(req, false).grant_type === 'refresh_token' ? ['refresh', 'token'] : ['token']),
    surface: 'oauth',
    handler: (req, reply, call) => {
      const now = call.ctx.nowMs();
      if (!isForm(req)) {
        return sendAnswer(
          reply,
          oauthFail(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.', now),
        );
      }
      const form = tokenParams(req, false);
      if (form.client_key !== app.clientId || form.client_secret !== app.clientSecret) {
        return sendAnswer(reply, oauthFail(401, 'invalid_client', 'Client key or secret is invalid.', now));
      }
      if (form.grant_type === 'authorization_code') {
        if (!form.redirect_uri)
          return sendAnswer(reply, oauthFail(400, 'invalid_request', 'Missing required parameter: redirect_uri.', now));
        const redeemed = redeemCode(call, {
          code: form.code,
          clientId: form.client_key,
          redirectUri: form.redirect_uri,
          verifier: form.code_verifier,
        });
        if (!redeemed.ok) {
          const status = redeemed.problem === 'missing' ? 'invalid_request' : 'invalid_grant';
          return sendAnswer(reply, oauthFail(400, status, CODE_ERRORS[redeemed.problem], now));
        }
        const grant = call.slice.grants.get(redeemed.code.grantId);
        if (!grant) return sendAnswer(reply, oauthFail(400, 'invalid_grant', CODE_ERRORS.unknown, now));
        grant.refreshIssued = true;
        return reply.send(issue(call, grant).body);
      }
      if (form.grant_type === 'refresh_token') {
        const checked = checkToken(call, form.refresh_token, ['refresh']);
        const grant = checked.ok ? call.slice.grants.get(checked.token.grantId) : undefined;
        if (!checked.ok || !grant || checked.token.rotatedAt !== null) {
          return sendAnswer(reply, oauthFail(400, 'invalid_grant', 'Refresh token is invalid or expired.', now));
        }
        const issued = issue(call, grant);
        rotate(call.ctx, checked.token, issued.refresh);
        return reply.send(issued.body);
      }
      return sendAnswer(
        reply,
        oauthFail(400, 'unsupported_grant_type', `Unsupported grant_type: ${form.grant_type ?? ''}.`, now),
      );
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/v2/oauth/revoke/',
    ops: ['revoke'],
    surface: 'oauth',
    handler: (req, reply, call) => {
      const now = call.ctx.nowMs();
      const form = tokenParams(req, false);
      if (form.client_key !== app.clientId || form.client_secret !== app.clientSecret) {
        return sendAnswer(reply, oauthFail(401, 'invalid_client', 'Client key or secret is invalid.', now));
      }
      if (!form.token)
        return sendAnswer(reply, oauthFail(400, 'invalid_request', 'Missing required parameter: token.', now));
      const token = call.slice.tokens.get(form.token);
      if (!token) return sendAnswer(reply, oauthFail(400, 'invalid_request', 'The token is invalid.', now));
      revokeGrant(call.ctx, call.slice, token.grantId);
      return reply.send({});
    },
  });
}
