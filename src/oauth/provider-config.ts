// oidc-provider's configuration for Herald (service.ts makes the provider): authorization code with PKCE,
// dynamic registration within registration.ts's policy, RFC 8707 resources with JWT access tokens, the
// sign-in interaction, and only the features Herald serves (no PAR, DPoP, userinfo, logout or JWT client auth).
import { createECDH, hkdfSync } from 'node:crypto';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import type { Config } from '../config.ts';
import { DrizzleAdapter } from './adapter.ts';
import {
  CLIENT_AUTH_METHODS,
  PENDING_CLIENT_TTL_SECONDS,
  POLICY_PROPERTY,
  registrationPolicy,
} from './registration.ts';

export type OidcModule = typeof import('oidc-provider');

/** The scope of Herald's API: everything the signed-in member may do in the chosen workspace. */
export const HERALD_SCOPE = 'herald';

export const OAUTH_PATHS = {
  authorization: '/auth/oauth/authorize',
  token: '/auth/oauth/token',
  registration: '/auth/oauth/register',
  revocation: '/auth/oauth/revoke',
  jwks: '/auth/oauth/jwks',
  login: '/auth/oauth/login',
  selectWorkspace: '/auth/oauth/select-workspace',
} as const;

export const deriveKey = (secret: Uint8Array, info: string, length = 32) =>
  Buffer.from(hkdfSync('sha256', secret, 'herald-oauth', info, length));

/** A P-256 signing key derived from the instance secret, so every instance signs ID tokens alike. */
function idTokenJwk(secret: Uint8Array) {
  const d = deriveKey(secret, 'id-token-es256');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const pub = ecdh.getPublicKey();
  return {
    kty: 'EC',
    crv: 'P-256',
    d: d.toString('base64url'),
    x: pub.subarray(1, 33).toString('base64url'),
    y: pub.subarray(33, 65).toString('base64url'),
    use: 'sig',
    alg: 'ES256',
    kid: 'herald-es256-1',
  };
}

/** What the provider's configuration needs of the service. */
export interface ProviderSettings {
  config: Config;
  db: Db;
  clock: () => Date;
  jwtSecret: Uint8Array;
  /** Signs access tokens (HS256). */
  atKey: Buffer;
  resources: { api: string; mcp: string };
  knownResource(resource: string): boolean;
  /** Called after every write to the store. */
  wrote(): void;
}

export function providerConfiguration(s: ProviderSettings, { errors, interactionPolicy }: OidcModule): Configuration {
  const o = s.config.oauth;
  const atKey = s.atKey;
  const policy = interactionPolicy.base();
  // Every authorization asks who signs in and for which workspace: a browser session left over from
  // another connector never chooses the workspace silently.
  policy
    .get('login')!
    .checks.add(
      new interactionPolicy.Check(
        'herald_workspace',
        'the workspace must be chosen for this client',
        (ctx: KoaContextWithOIDC) =>
          ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );
  return {
    adapter: (name: string) =>
      new DrizzleAdapter(name, {
        db: s.db,
        now: s.clock,
        wrote: s.wrote,
        clientTtlSeconds: PENDING_CLIENT_TTL_SECONDS,
      }),
    clients: o.clients.map((c) => ({
      client_id: c.client_id,
      client_secret: c.client_secret,
      client_name: c.client_name,
      redirect_uris: c.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: c.token_endpoint_auth_method,
    })),
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    // Only what Herald serves: no client keys (private_key_jwt, client_secret_jwt would fetch or trust them).
    clientAuthMethods: [...CLIENT_AUTH_METHODS],
    extraClientMetadata: { properties: [POLICY_PROPERTY], validator: registrationPolicy(errors) },
    clientBasedCORS: () => true,
    cookies: { keys: [deriveKey(s.jwtSecret, 'cookies').toString('base64url')] },
    jwks: { keys: [idTokenJwk(s.jwtSecret)] },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    responseTypes: ['code'],
    // `herald` is also a resource scope; listing it here lets clients register with it (the MCP SDK does).
    scopes: ['openid', 'offline_access', HERALD_SCOPE],
    claims: { openid: ['sub'] },
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    routes: {
      authorization: OAUTH_PATHS.authorization,
      token: OAUTH_PATHS.token,
      registration: OAUTH_PATHS.registration,
      revocation: OAUTH_PATHS.revocation,
      jwks: OAUTH_PATHS.jwks,
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      // A client revokes only the tokens issued to it; anyone else's token is answered 200 and left alone
      // (RFC 7009 §2.2). Set here, the provider no longer prints a notice asking for this policy.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      // Served by no route of Herald, so advertised by none: pushed authorization requests and DPoP.
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      registration: { enabled: o.registration === 'open', initialAccessToken: false },
      resourceIndicators: {
        enabled: true,
        // ChatGPT's GPT Actions send no resource: their tokens are for the whole API.
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? s.resources.api,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (!s.knownResource(indicator)) throw new errors.InvalidTarget('resource is not served by this Herald');
          return {
            scope: HERALD_SCOPE,
            audience: indicator.replace(/\/+$/, ''),
            accessTokenTTL: o.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'HS256', key: atKey } },
          };
        },
      },
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `${OAUTH_PATHS.login}?uid=${encodeURIComponent(interaction.uid)}`,
    },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    // Connectors need to keep working: a refresh token for every client allowed the grant type.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: () => false,
    extraTokenClaims: (_ctx, token) => {
      const t = token as { accountId?: string; grantId?: string };
      const [userId, workspaceId, version] = (t.accountId ?? '').split(':');
      return { user_id: userId, workspace_id: workspaceId, ver: Number(version), grant_id: t.grantId };
    },
    ttl: {
      AccessToken: o.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      RefreshToken: o.refreshTokenTtlSeconds,
      Grant: o.refreshTokenTtlSeconds,
      Interaction: 900,
      Session: 900,
      IdToken: 3600,
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
      const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head><body><h1>Sign-in could not continue</h1><p>${esc(out.error)}: ${esc(out.error_description)}</p></body></html>`;
    },
  } as Configuration;
}
