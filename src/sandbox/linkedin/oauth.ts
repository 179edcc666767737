// LinkedIn's OAuth 2.0 (3-legged) endpoints on www.linkedin.com/oauth/v2. No PKCE in the web flow; refresh tokens as
// for Community Management partners (programmatic refresh), with a fixed 365-day refresh lifetime that refresh does not
// extend.
import { SANDBOX_APPS } from '../apps.ts';
import { registerAuthorize } from '../core/authorize.ts';
import type { AuthorizeSpec } from '../core/authorize.ts';
import { jwks, signIdToken } from '../core/id-token.ts';
import { randomUrlSafe } from '../core/ids.ts';
import { avatarUrl, clientCredentials, oauthError, tokenParams } from '../core/oauth.ts';
import { strictOn } from '../core/strict.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { lifetimeSec } from '../core/store.ts';
import { checkToken, expiresInSec, mintToken, redeemCode, revokeGrant } from '../core/tokens.ts';
import type { TokenRecord } from '../core/types.ts';
import { buildLinkedInAccount } from './account.ts';

export const LINKEDIN_SCOPES = [
  'openid',
  'profile',
  'email',
  'w_member_social',
  'r_member_social',
  'w_organization_social',
  'r_organization_social',
  'rw_organization_admin',
  'r_organization_admin',
  'r_basicprofile',
  'r_liteprofile',
  'r_emailaddress',
  'r_member_postAnalytics',
] as const;

const ACCESS_TTL = 5_184_000;
const REFRESH_TTL = 31_536_000;
const CODE_NOT_FOUND = 'Unable to retrieve access token: authorization code not found';
export const CODE_MISMATCH =
  'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists';
export const BAD_REFRESH = 'The provided authorization grant or refresh token is invalid, expired or revoked.';

function authorizeSpec(sim: Simulator): AuthorizeSpec {
  return {
    platform: 'linkedin',
    path: '/oauth/v2/authorization',
    network: 'LinkedIn',
    clientIdParam: 'client_id',
    scopeDelimiter: / +/,
    knownScopes: LINKEDIN_SCOPES,
    scopeRequired: true,
    pkceMethods: [],
    codeTtlSec: 1800,
    newCode: () => `AQ${randomUrlSafe(150)}`,
    invalidScope: 'unauthorized_scope_error',
    denyParams: { error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization' },
    buildAccount: (userKey) => buildLinkedInAccount(userKey, (id) => avatarUrl(sim.ctx, 'linkedin', id)),
  };
}

async function tokenResponse(call: Call, access: TokenRecord, refresh: TokenRecord | null, withIdToken: boolean) {
  const body: Record<string, unknown> = {
    access_token: access.token,
    expires_in: expiresInSec(call.ctx, access),
    ...(refresh ? { refresh_token: refresh.token, refresh_token_expires_in: expiresInSec(call.ctx, refresh) } : {}),
    scope: access.scopes.join(','),
    token_type: 'Bearer',
  };
  const account = call.slice.accounts.get(access.accountId);
  if (withIdToken && access.scopes.includes('openid') && account) {
    body.id_token = await signIdToken(
      call.ctx,
      {
        iss: call.ctx.base('linkedin'),
        aud: SANDBOX_APPS.linkedin.clientId,
        sub: account.id,
        name: account.name,
        given_name: String(account.fields.given_name ?? ''),
        family_name: String(account.fields.family_name ?? ''),
        picture: account.avatarUrl,
        ...(access.scopes.includes('email') ? { email: account.email, email_verified: true } : {}),
        locale: 'en_US',
      },
      3600,
    );
  }
  return body;
}

function mintAccess(call: Call, grant: { id: string; accountId: string; scopes: string[] }): TokenRecord {
  return mintToken(call.ctx, call.slice, {
    token: `AQV${randomUrlSafe(340)}`,
    kind: 'access',
    clientId: SANDBOX_APPS.linkedin.clientId,
    accountId: grant.accountId,
    grantId: grant.id,
    scopes: grant.scopes,
    ttlSec: lifetimeSec(call.ctx.store, 'linkedin', 'access', ACCESS_TTL),
  });
}

export function registerLinkedInOAuth(sim: Simulator): void {
  registerAuthorize(sim, authorizeSpec(sim));
  const app = SANDBOX_APPS.linkedin;

  addRoute(sim, {
    method: 'POST',
    url: '/oauth/v2/accessToken',
    ops: ['refresh', 'token'],
    opsFor: (req) => (tokenParams(req, true).grant_type === 'refresh_token' ? ['refresh', 'token'] : ['token']),
    surface: 'oauth',
    handler: async (req, reply, call) => {
      const form = tokenParams(req, true);
      const { clientId, clientSecret } = clientCredentials(req, form, { basic: 'never' });
      if (!form.grant_type)
        return sendAnswer(reply, oauthError(400, 'invalid_request', 'A required parameter "grant_type" is missing'));
      if (!clientId)
        return sendAnswer(reply, oauthError(400, 'invalid_request', 'A required parameter "client_id" is missing'));
      if (clientId !== app.clientId || clientSecret !== app.clientSecret) {
        return sendAnswer(reply, oauthError(401, 'invalid_client', 'Client authentication failed'));
      }
      if (form.grant_type === 'authorization_code') {
        if (!form.redirect_uri) {
          return sendAnswer(
            reply,
            oauthError(400, 'invalid_request', 'A required parameter "redirect_uri" is missing'),
          );
        }
        const redeemed = redeemCode(call, {
          code: form.code,
          clientId,
          redirectUri: form.redirect_uri,
          verifier: undefined,
        });
        if (!redeemed.ok) {
          if (redeemed.problem === 'missing') {
            return sendAnswer(reply, oauthError(400, 'invalid_request', 'A required parameter "code" is missing'));
          }
          const notFound = ['unknown', 'used', 'revoked'].includes(redeemed.problem);
          return sendAnswer(reply, oauthError(400, 'invalid_request', notFound ? CODE_NOT_FOUND : CODE_MISMATCH));
        }
        const grant = call.slice.grants.get(redeemed.code.grantId);
        if (!grant) return sendAnswer(reply, oauthError(400, 'invalid_request', CODE_NOT_FOUND));
        const access = mintAccess(call, grant);
        // Most apps are not enabled for programmatic refresh: the answer then has no refresh token at all.
        if (strictOn(call.ctx, 'linkedin_no_refresh')) return reply.send(await tokenResponse(call, access, null, true));
        const refresh = mintToken(call.ctx, call.slice, {
          token: `AQX${randomUrlSafe(280)}`,
          kind: 'refresh',
          clientId,
          accountId: grant.accountId,
          grantId: grant.id,
          scopes: grant.scopes,
          ttlSec: lifetimeSec(call.ctx.store, 'linkedin', 'refresh', REFRESH_TTL),
        });
        grant.refreshIssued = true;
        return reply.send(await tokenResponse(call, access, refresh, true));
      }
      if (form.grant_type === 'refresh_token') {
        if (strictOn(call.ctx, 'linkedin_no_refresh')) {
          return sendAnswer(
            reply,
            oauthError(400, 'unauthorized_client', 'The client is not authorized to use the refresh_token grant type'),
          );
        }
        const checked = checkToken(call, form.refresh_token, ['refresh']);
        if (!checked.ok) return sendAnswer(reply, oauthError(400, 'invalid_request', BAD_REFRESH));
        const grant = call.slice.grants.get(checked.token.grantId);
        if (!grant) return sendAnswer(reply, oauthError(400, 'invalid_request', BAD_REFRESH));
        return reply.send(await tokenResponse(call, mintAccess(call, grant), checked.token, false));
      }
      return sendAnswer(
        reply,
        oauthError(400, 'unsupported_grant_type', `Grant type "${form.grant_type}" is not supported`),
      );
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/oauth/v2/revoke',
    ops: ['revoke'],
    surface: 'oauth',
    handler: (req, reply, call) => {
      const form = tokenParams(req, false);
      const { clientId, clientSecret } = clientCredentials(req, form, { basic: 'never' });
      if (clientId !== app.clientId || clientSecret !== app.clientSecret) {
        return sendAnswer(reply, oauthError(401, 'invalid_client', 'Client authentication failed'));
      }
      if (!form.token)
        return sendAnswer(reply, oauthError(400, 'invalid_request', 'A required parameter "token" is missing'));
      const token = call.slice.tokens.get(form.token);
      if (token) revokeGrant(call.ctx, call.slice, token.grantId);
      return reply.code(200).send();
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/oauth/openid/jwks',
    ops: [],
    surface: 'api',
    handler: async (_req, reply, call) => reply.send(await jwks(call.ctx)),
  });
}
