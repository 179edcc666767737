// Herald's OAuth 2.1 authorization server for chat connectors (ChatGPT, Claude, any MCP client), on
// oidc-provider: authorization code with PKCE (S256; required for public clients), dynamic client
// registration (RFC 7591) next to operator-configured clients, RFC 8707 resource indicators, refresh
// tokens, revocation (RFC 7009). The sign-in pages live in pages.ts / routes.ts; storage in adapter.ts.
//
// An access token is a JWT (HS256 under a key derived from HERALD_JWT_SECRET, distinct from the session
// key) whose subject is `<user id>:<workspace id>`: one user, one workspace, one client (client_id), one
// audience (the resource it was issued for). It names its grant; a revoked grant is listed in
// oauth_revoked_grants, which every instance reads (cached for at most a second).
import { createECDH, hkdfSync } from 'node:crypto';
import { jwtVerify, errors as joseErrors } from 'jose';
import { LRUCache } from 'lru-cache';
import type { default as Provider, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { eq, lt } from '../db/orm.ts';
import { oauthRevokedGrants } from '../db/schema-oauth.ts';
import type { Config } from '../config.ts';
import { DrizzleAdapter, sweepExpired } from './adapter.ts';

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

/** The longest a revocation may go unnoticed by another instance. */
export const REVOCATION_CACHE_MAX_MS = 1000;

export interface OAuthAccess {
  workspaceId: string;
  userId: string;
  clientId: string;
  grantId: string;
  /** The audience the token was issued for. */
  resource: string;
  /** The user's session version when the grant was made: a later logout-all or password change ends it. */
  sessionVersion: number;
}

export interface OAuthServiceDeps {
  db: Db;
  config: Config;
  jwtSecret: Uint8Array;
  clock: () => Date;
  logger: Logger;
}

export const deriveKey = (secret: Uint8Array, info: string, length = 32) => Buffer.from(hkdfSync('sha256', secret, 'herald-oauth', info, length));

/** A P-256 signing key derived from the instance secret, so every instance signs ID tokens alike. */
function idTokenJwk(secret: Uint8Array) {
  const d = deriveKey(secret, 'id-token-es256');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const pub = ecdh.getPublicKey();
  return { kty: 'EC', crv: 'P-256', d: d.toString('base64url'), x: pub.subarray(1, 33).toString('base64url'), y: pub.subarray(33, 65).toString('base64url'), use: 'sig', alg: 'ES256', kid: 'herald-es256-1' };
}

/**
 * The provider's account id of a grant: the user, the workspace chosen, and the user's session version then, so a
 * logout-all or password change (which bump it) ends connectors too.
 */
export const accountIdOf = (userId: string, workspaceId: string, sessionVersion: number) => `${userId}:${workspaceId}:${sessionVersion}`;

type OidcModule = typeof import('oidc-provider');

export class OAuthService {
  #provider: Promise<Provider> | undefined;
  readonly #deps: OAuthServiceDeps;
  readonly issuer: string;
  /** Resource identifiers Herald issues tokens for: the whole API, and the MCP endpoint for chat connectors. */
  readonly resources: { api: string; mcp: string };
  readonly #db: Db;
  readonly #clock: () => Date;
  readonly #logger: Logger;
  readonly #atKey: Buffer;
  readonly #refreshTtl: number;
  readonly #revoked: LRUCache<string, { revoked: boolean }>;
  #lastSweep = 0;

  constructor(deps: OAuthServiceDeps) {
    const { config } = deps;
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
    this.issuer = config.publicUrl;
    this.resources = { api: config.publicUrl, mcp: `${config.publicUrl}/web/mcp` };
    this.#atKey = deriveKey(deps.jwtSecret, 'access-token-hs256');
    this.#refreshTtl = config.oauth.refreshTokenTtlSeconds;
    this.#revoked = new LRUCache({ max: 10_000, ttl: REVOCATION_CACHE_MAX_MS, perf: { now: () => this.#clock().getTime() }, ttlResolution: 0 });
    this.#deps = deps;
  }

  /**
   * The oidc-provider instance, made on first use: the package and Koa under it are ~200 modules (~0.4 s of CPU
   * and ~40 MB at start-up) that an instance without chat connectors never needs (docs/performance.md).
   */
  provider(): Promise<Provider> {
    return (this.#provider ??= import('oidc-provider').then((oidc) => this.#create(oidc)));
  }

  #create(oidc: OidcModule): Provider {
    const provider = new oidc.default(this.issuer, this.#configuration(this.#deps, oidc));
    // Behind the reverse proxy Herald tells the provider the public scheme (routes.ts sets the headers).
    provider.proxy = true;
    provider.on('grant.revoked', (_ctx: unknown, grantId: string) => {
      void this.#listRevoked(grantId).catch((err: unknown) => this.#logger.error({ err }, 'recording a revoked OAuth grant failed'));
    });
    // RFC 7009 on an access token: the provider refuses to revoke a JWT (unsupported_token_type, after it
    // authenticated the client). Herald revokes the token's grant instead when the token is that client's,
    // and answers 200 as RFC 7009 asks for any token the server will not act on.
    provider.use(async (koa, next) => {
      await next();
      const oidc = koa.oidc;
      if (oidc?.route !== 'revocation' || koa.status !== 400 || (koa.body as { error?: string } | undefined)?.error !== 'unsupported_token_type' || !oidc.client) return;
      const token = oidc.params?.token;
      const claims = typeof token === 'string' ? await this.#claims(token) : null;
      if (claims && claims.client_id === oidc.client.clientId && typeof claims.grant_id === 'string') await this.revokeGrant(claims.grant_id);
      koa.status = 200;
      koa.body = '';
    });
    for (const event of ['server_error', 'grant.error', 'authorization.error'] as const) {
      (provider as unknown as { on(e: string, f: (ctx: unknown, err: Error & { status?: number }) => void): void }).on(event, (_ctx, err) => {
        if ((err.status ?? 500) >= 500) this.#logger.error({ err }, `oauth ${event}`);
      });
    }
    return provider;
  }

  /** Is `resource` one of Herald's resource identifiers (the API root, or a path under it)? */
  knownResource(resource: string): boolean {
    const r = resource.replace(/\/+$/, '');
    return r === this.resources.api || r.startsWith(`${this.resources.api}/`);
  }

  #configuration(deps: OAuthServiceDeps, { errors, interactionPolicy }: OidcModule): Configuration {
    const { config } = deps;
    const o = config.oauth;
    const atKey = this.#atKey;
    const policy = interactionPolicy.base();
    // Every authorization asks who signs in and for which workspace: a browser session left over from
    // another connector never chooses the workspace silently.
    policy.get('login')!.checks.add(
      new interactionPolicy.Check('herald_workspace', 'the workspace must be chosen for this client', (ctx: KoaContextWithOIDC) =>
        ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );
    return {
      adapter: (name: string) => new DrizzleAdapter(name, { db: deps.db, now: deps.clock, wrote: () => this.#maybeSweep() }),
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
      clientBasedCORS: () => true,
      cookies: { keys: [deriveKey(deps.jwtSecret, 'cookies').toString('base64url')] },
      jwks: { keys: [idTokenJwk(deps.jwtSecret)] },
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
        registration: { enabled: o.registration === 'open', initialAccessToken: false },
        resourceIndicators: {
          enabled: true,
          // ChatGPT's GPT Actions send no resource: their tokens are for the whole API.
          defaultResource: (_ctx, _client, oneOf) => oneOf ?? this.resources.api,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (!this.knownResource(indicator)) throw new errors.InvalidTarget('resource is not served by this Herald');
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
      interactions: { policy, url: (_ctx, interaction) => `${OAUTH_PATHS.login}?uid=${encodeURIComponent(interaction.uid)}` },
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

  /**
   * The caller of a request for `resource` (an absolute URL of Herald) behind an access token, or null when
   * the token is not Herald's, has expired, was issued for another audience or its grant was revoked. A
   * token for the API root covers every route; one for a path (the MCP endpoint) covers that path only.
   */
  async verifyAccessToken(token: string, resource: string): Promise<OAuthAccess | null> {
    const payload = await this.#claims(token);
    if (!payload) return null;
    const aud = typeof payload.aud === 'string' ? payload.aud : undefined;
    const { workspace_id: workspaceId, user_id: userId, client_id: clientId, grant_id: grantId, ver: sessionVersion } = payload;
    if (!aud || typeof workspaceId !== 'string' || typeof userId !== 'string' || typeof clientId !== 'string' || typeof grantId !== 'string') return null;
    if (typeof sessionVersion !== 'number' || !Number.isInteger(sessionVersion)) return null;
    const target = resource.replace(/[?#].*$/, '').replace(/\/+$/, '');
    if (target !== aud && !target.startsWith(`${aud}/`)) return null;
    if (await this.isRevoked(grantId)) return null;
    return { workspaceId, userId, clientId, grantId, resource: aud, sessionVersion };
  }

  async #claims(token: string): Promise<Record<string, unknown> | null> {
    try {
      const { payload } = await jwtVerify(token, this.#atKey, { issuer: this.issuer, algorithms: ['HS256'], typ: 'at+jwt', currentDate: this.#clock() });
      return payload;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
  }

  /** Was the grant revoked (on any instance)? Read from the database at most once a second per grant. */
  async isRevoked(grantId: string): Promise<boolean> {
    const cached = this.#revoked.get(grantId);
    if (cached) return cached.revoked;
    const [row] = await this.#db.select({ id: oauthRevokedGrants.grantId }).from(oauthRevokedGrants).where(eq(oauthRevokedGrants.grantId, grantId));
    this.#revoked.set(grantId, { revoked: Boolean(row) });
    return Boolean(row);
  }

  /** Revokes a grant: its access tokens stop working everywhere within a second, its refresh tokens at once. */
  async revokeGrant(grantId: string): Promise<void> {
    await this.#listRevoked(grantId);
    const p = await this.provider();
    await Promise.all([p.AccessToken, p.RefreshToken, p.AuthorizationCode].map((m) => m.adapter.revokeByGrantId(grantId)));
    await p.Grant.adapter.destroy(grantId);
  }

  async #listRevoked(grantId: string): Promise<void> {
    this.#revoked.set(grantId, { revoked: true });
    const now = this.#clock();
    // Access tokens live at most a day; the refresh side is deleted, so the row may go when the last token expired.
    const expiresAt = new Date(now.getTime() + Math.max(this.#refreshTtl, 24 * 3600) * 1000);
    await this.#db.insert(oauthRevokedGrants).values({ grantId, revokedAt: now, expiresAt }).onConflictDoNothing();
  }

  /** Expired codes, interactions, sessions, tokens and revocations are deleted, at most once a minute. */
  #maybeSweep(): void {
    const now = this.#clock();
    if (now.getTime() - this.#lastSweep < 60_000) return;
    this.#lastSweep = now.getTime();
    void Promise.all([this.#db.delete(oauthRevokedGrants).where(lt(oauthRevokedGrants.expiresAt, now)), sweepExpired(this.#db, now)]).catch((err: unknown) =>
      this.#logger.warn({ err }, 'sweeping expired OAuth rows failed'),
    );
  }

}
