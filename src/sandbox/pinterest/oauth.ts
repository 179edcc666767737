// Pinterest OAuth: www.pinterest.com/oauth/ and api.pinterest.com/v5/oauth/token (HTTP Basic client auth). Refresh
// tokens are continuous: every refresh returns a new refresh token with a new 60-day window and retires the old one.
import type { FastifyReply } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import { registerAuthorize } from '../core/authorize.ts';
import { randomAlnum, randomUrlSafe } from '../core/ids.ts';
import { avatarUrl, clientCredentials, tokenParams } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { lifetimeSec } from '../core/store.ts';
import { checkToken, expiresInSec, mintToken, redeemCode, revokeGrant, rotate } from '../core/tokens.ts';
import type { CodeProblem } from '../core/tokens.ts';
import type { GrantRecord } from '../core/types.ts';
import { buildPinterestAccount } from './account.ts';
import { AUTH_FAILED, pinError } from './errors.ts';

export const PINTEREST_SCOPES = [
  'ads:read',
  'ads:write',
  'billing:read',
  'billing:write',
  'biz_access:read',
  'biz_access:write',
  'boards:read',
  'boards:read_secret',
  'boards:write',
  'boards:write_secret',
  'catalogs:read',
  'catalogs:write',
  'pins:read',
  'pins:read_secret',
  'pins:write',
  'pins:write_secret',
  'user_accounts:read',
] as const;

const app = SANDBOX_APPS.pinterest;
const ACCESS_TTL = 2_592_000;
const REFRESH_TTL = 5_184_000;

const CODE_ERRORS: Record<CodeProblem, string> = {
  missing: "Missing request body parameter: 'code'",
  unknown: 'Invalid authorization code.',
  used: 'Authorization code has already been used.',
  revoked: 'Authorization code has been revoked.',
  expired: 'Authorization code has expired.',
  client_mismatch: 'Authorization code was issued to another app.',
  redirect_mismatch: 'redirect_uri does not match the one used to obtain the authorization code.',
  verifier_missing: 'Invalid authorization code.',
  verifier_mismatch: 'Invalid authorization code.',
};

function issue(call: Call, grant: GrantRecord, responseType: string) {
  const { ctx, slice } = call;
  const base = { clientId: app.clientId, accountId: grant.accountId, grantId: grant.id, scopes: grant.scopes };
  const access = mintToken(ctx, slice, {
    ...base,
    token: `pina_${randomAlnum(120)}`,
    kind: 'access',
    ttlSec: lifetimeSec(ctx.store, 'pinterest', 'access', ACCESS_TTL),
  });
  const refresh = mintToken(ctx, slice, {
    ...base,
    token: `pinr_${randomAlnum(120)}`,
    kind: 'refresh',
    ttlSec: lifetimeSec(ctx.store, 'pinterest', 'refresh', REFRESH_TTL),
  });
  return {
    refresh,
    body: {
      access_token: access.token,
      refresh_token: refresh.token,
      response_type: responseType,
      token_type: 'bearer',
      expires_in: expiresInSec(ctx, access),
      refresh_token_expires_in: expiresInSec(ctx, refresh),
      refresh_token_expires_at: Math.floor((refresh.expiresAt ?? 0) / 1000),
      scope: grant.scopes.join(' '),
    },
  };
}

function authenticated(reply: FastifyReply, id: string | undefined, secret: string | undefined): boolean {
  if (id === app.clientId && secret === app.clientSecret) return true;
  sendAnswer(reply, AUTH_FAILED());
  return false;
}

export function registerPinterestOAuth(sim: Simulator): void {
  registerAuthorize(sim, {
    platform: 'pinterest',
    path: '/oauth/',
    network: 'Pinterest',
    clientIdParam: 'client_id',
    scopeDelimiter: /,/,
    knownScopes: PINTEREST_SCOPES,
    scopeRequired: true,
    pkceMethods: [],
    codeTtlSec: 600,
    newCode: () => randomUrlSafe(40),
    invalidScope: 'invalid_scope',
    denyParams: { error: 'access_denied', error_description: 'The user denied the request.' },
    buildAccount: (userKey) =>
      buildPinterestAccount(userKey, (id) => avatarUrl(sim.ctx, 'pinterest', id), sim.ctx.now().toISOString()),
  });

  addRoute(sim, {
    method: 'POST',
    url: '/v5/oauth/token',
    ops: ['refresh', 'token'],
    opsFor: (req) => (tokenParams(req, false).grant_type === 'refresh_token' ? ['refresh', 'token'] : ['token']),
    surface: 'oauth',
    handler: (req, reply, call) => {
      const form = tokenParams(req, false);
      const { clientId, clientSecret } = clientCredentials(req, form, { basic: 'required' });
      if (!authenticated(reply, clientId, clientSecret)) return reply;
      if (form.grant_type === 'authorization_code') {
        if (!form.redirect_uri)
          return sendAnswer(reply, pinError(400, 1, "Missing request body parameter: 'redirect_uri'"));
        const redeemed = redeemCode(call, {
          code: form.code,
          clientId: app.clientId,
          redirectUri: form.redirect_uri,
          verifier: undefined,
        });
        if (!redeemed.ok) return sendAnswer(reply, pinError(400, 1, CODE_ERRORS[redeemed.problem]));
        const grant = call.slice.grants.get(redeemed.code.grantId);
        if (!grant) return sendAnswer(reply, pinError(400, 1, CODE_ERRORS.unknown));
        grant.refreshIssued = true;
        return reply.send(issue(call, grant, 'authorization_code').body);
      }
      if (form.grant_type === 'refresh_token') {
        const checked = checkToken(call, form.refresh_token, ['refresh']);
        const grant = checked.ok ? call.slice.grants.get(checked.token.grantId) : undefined;
        if (!checked.ok || !grant || checked.token.rotatedAt !== null) {
          return sendAnswer(reply, pinError(400, 1, 'Invalid refresh token.'));
        }
        const issued = issue(call, grant, 'refresh_token');
        rotate(call.ctx, checked.token, issued.refresh);
        return reply.send(issued.body);
      }
      return sendAnswer(reply, pinError(400, 1, `Invalid grant_type: ${form.grant_type ?? ''}`));
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/v5/oauth/token/revoke',
    ops: ['revoke'],
    surface: 'oauth',
    handler: (req, reply, call) => {
      const form = tokenParams(req, false);
      const { clientId, clientSecret } = clientCredentials(req, form, { basic: 'required' });
      if (!authenticated(reply, clientId, clientSecret)) return reply;
      const token = form.token ? call.slice.tokens.get(form.token) : undefined;
      if (!token) return sendAnswer(reply, pinError(400, 1, 'Invalid token.'));
      revokeGrant(call.ctx, call.slice, token.grantId);
      return reply.send({});
    },
  });
}
