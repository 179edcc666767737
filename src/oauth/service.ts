// Herald's OAuth 2.1 authorization server for chat connectors (ChatGPT, Claude, any MCP client), on
// oidc-provider: authorization code with PKCE (S256; required for public clients), dynamic client
// registration (RFC 7591) next to operator-configured clients, RFC 8707 resource indicators, refresh
// tokens, revocation (RFC 7009). The sign-in pages live in pages.ts / routes.ts; storage in adapter.ts.
//
// An access token is a JWT (HS256 under a key derived from HERALD_JWT_SECRET, distinct from the session
// key) whose subject is `<user id>:<workspace id>`: one user, one workspace, one client (client_id), one
// audience (the resource it was issued for). It names its grant; a revoked grant is listed in
// oauth_revoked_grants, which every instance reads (cached for at most a second).
import { jwtVerify, errors as joseErrors } from 'jose';
import { LRUCache } from 'lru-cache';
import type { default as Provider } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { and, eq, lt, sql } from '../db/orm.ts';
import { oauthEntities, oauthRevokedGrants } from '../db/schema-oauth.ts';
import type { Config } from '../config.ts';
import { sweepExpired } from './adapter.ts';
import { RegistrationLimits, keepClient, sweepOrphanRegistrationTokens } from './registration.ts';
import { deriveKey, providerConfiguration, type OidcModule } from './provider-config.ts';

export { HERALD_SCOPE, OAUTH_PATHS, deriveKey } from './provider-config.ts';

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

/**
 * The provider's account id of a grant: the user, the workspace chosen, and the user's session version then, so a
 * logout-all or password change (which bump it) ends connectors too.
 */
export const accountIdOf = (userId: string, workspaceId: string, sessionVersion: number) =>
  `${userId}:${workspaceId}:${sessionVersion}`;

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
  /** The caps on dynamic client registration (per address, and clients not yet used). */
  readonly registrations: RegistrationLimits;
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
    this.#revoked = new LRUCache({
      max: 10_000,
      ttl: REVOCATION_CACHE_MAX_MS,
      perf: { now: () => this.#clock().getTime() },
      ttlResolution: 0,
    });
    this.#deps = deps;
    const o = config.oauth;
    this.registrations = new RegistrationLimits({
      db: deps.db,
      clock: deps.clock,
      key: deriveKey(deps.jwtSecret, 'registration-address'),
      perAddressPerHour: o.registrationsPerAddressPerHour,
      pendingMax: o.pendingClientsMax,
    });
  }

  /**
   * The oidc-provider instance, made on first use: the package and Koa under it are ~200 modules (~0.4 s of CPU
   * and ~40 MB at start-up) that an instance without chat connectors never needs (docs/performance.md).
   */
  provider(): Promise<Provider> {
    return (this.#provider ??= import('oidc-provider').then((oidc) => this.#create(oidc)));
  }

  #create(oidc: OidcModule): Provider {
    const provider = new oidc.default(
      this.issuer,
      providerConfiguration(
        {
          ...this.#deps,
          atKey: this.#atKey,
          resources: this.resources,
          knownResource: (r) => this.knownResource(r),
          wrote: () => this.#maybeSweep(),
        },
        oidc,
      ),
    );
    // Behind the reverse proxy Herald tells the provider the public scheme (routes.ts sets the headers).
    provider.proxy = true;
    provider.on('grant.revoked', (_ctx: unknown, grantId: string) => {
      void this.#listRevoked(grantId).catch((err: unknown) =>
        this.#logger.error({ err }, 'recording a revoked OAuth grant failed'),
      );
    });
    // RFC 7009 on an access token: the provider refuses to revoke a JWT (unsupported_token_type, after it
    // authenticated the client). Herald revokes the token's grant instead when the token is that client's,
    // and answers 200 as RFC 7009 asks for any token the server will not act on.
    provider.use(async (koa, next) => {
      await next();
      const oidc = koa.oidc;
      if (
        oidc?.route !== 'revocation' ||
        koa.status !== 400 ||
        (koa.body as { error?: string } | undefined)?.error !== 'unsupported_token_type' ||
        !oidc.client
      )
        return;
      const token = oidc.params?.token;
      const claims = typeof token === 'string' ? await this.#claims(token) : null;
      if (claims && claims.client_id === oidc.client.clientId && typeof claims.grant_id === 'string')
        await this.revokeGrant(claims.grant_id);
      koa.status = 200;
      koa.body = '';
    });
    // A client that exchanged a code has completed an authorization: it is no longer removed after a day.
    // A registration is counted against its address before it is answered.
    provider.use(async (koa, next) => {
      await next();
      const oidc = koa.oidc;
      if (
        oidc?.route === 'token' &&
        koa.status === 200 &&
        oidc.params?.grant_type === 'authorization_code' &&
        oidc.client
      )
        await keepClient(this.#db, oidc.client.clientId);
      const address =
        oidc?.route === 'registration' && koa.status === 201 ? this.registrations.addresses.get(koa.req) : undefined;
      if (address) await this.registrations.record(address);
    });
    for (const event of ['server_error', 'grant.error', 'authorization.error'] as const) {
      (provider as unknown as { on(e: string, f: (ctx: unknown, err: Error & { status?: number }) => void): void }).on(
        event,
        (_ctx, err) => {
          if ((err.status ?? 500) >= 500) this.#logger.error({ err }, `oauth ${event}`);
        },
      );
    }
    return provider;
  }

  /** Is `resource` one of Herald's resource identifiers (the API root, or a path under it)? */
  knownResource(resource: string): boolean {
    const r = resource.replace(/\/+$/, '');
    return r === this.resources.api || r.startsWith(`${this.resources.api}/`);
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
    const {
      workspace_id: workspaceId,
      user_id: userId,
      client_id: clientId,
      grant_id: grantId,
      ver: sessionVersion,
    } = payload;
    if (
      !aud ||
      typeof workspaceId !== 'string' ||
      typeof userId !== 'string' ||
      typeof clientId !== 'string' ||
      typeof grantId !== 'string'
    )
      return null;
    if (typeof sessionVersion !== 'number' || !Number.isInteger(sessionVersion)) return null;
    const target = resource.replace(/[?#].*$/, '').replace(/\/+$/, '');
    if (target !== aud && !target.startsWith(`${aud}/`)) return null;
    if (await this.isRevoked(grantId)) return null;
    return { workspaceId, userId, clientId, grantId, resource: aud, sessionVersion };
  }

  async #claims(token: string): Promise<Record<string, unknown> | null> {
    try {
      const { payload } = await jwtVerify(token, this.#atKey, {
        issuer: this.issuer,
        algorithms: ['HS256'],
        typ: 'at+jwt',
        currentDate: this.#clock(),
      });
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
    const [row] = await this.#db
      .select({ id: oauthRevokedGrants.grantId })
      .from(oauthRevokedGrants)
      .where(eq(oauthRevokedGrants.grantId, grantId));
    this.#revoked.set(grantId, { revoked: Boolean(row) });
    return Boolean(row);
  }

  /** Revokes a grant: its access tokens stop working everywhere within a second, its refresh tokens at once. */
  async revokeGrant(grantId: string): Promise<void> {
    await this.#listRevoked(grantId);
    const p = await this.provider();
    await Promise.all(
      [p.AccessToken, p.RefreshToken, p.AuthorizationCode].map((m) => m.adapter.revokeByGrantId(grantId)),
    );
    await p.Grant.adapter.destroy(grantId);
  }

  async #listRevoked(grantId: string): Promise<void> {
    this.#revoked.set(grantId, { revoked: true });
    const now = this.#clock();
    // Access tokens live at most a day; the refresh side is deleted, so the row may go when the last token expired.
    const expiresAt = new Date(now.getTime() + Math.max(this.#refreshTtl, 24 * 3600) * 1000);
    await this.#db.insert(oauthRevokedGrants).values({ grantId, revokedAt: now, expiresAt }).onConflictDoNothing();
  }

  /** After writes, at most once a minute (the process also sweeps every hour, main.ts). */
  #maybeSweep(): void {
    const now = this.#clock();
    if (now.getTime() - this.#lastSweep < 60_000) return;
    this.#lastSweep = now.getTime();
    this.sweep().catch((err: unknown) => this.#logger.warn({ err }, 'sweeping expired OAuth rows failed'));
  }

  /**
   * Deletes what has expired: codes, interactions, sessions, tokens, revocations, registration counts, and
   * clients that registered but completed no authorization within a day (with their registration access tokens).
   */
  async sweep(): Promise<void> {
    const now = this.#clock();
    await Promise.all([
      this.#db.delete(oauthRevokedGrants).where(lt(oauthRevokedGrants.expiresAt, now)),
      sweepExpired(this.#db, now),
    ]);
    await sweepOrphanRegistrationTokens(this.#db);
  }

  /**
   * Revokes every grant a user gave a connector for a workspace (they were removed from it, or left): the
   * refresh tokens are deleted and the access tokens refused, as with revokeGrant.
   */
  async revokeMemberGrants(workspaceId: string, userId: string): Promise<number> {
    const rows = await this.#db
      .select({ id: oauthEntities.id })
      .from(oauthEntities)
      .where(
        and(
          eq(oauthEntities.model, 'Grant'),
          sql`${oauthEntities.payload}->>'accountId' like ${`${userId}:${workspaceId}:%`}`,
        ),
      );
    for (const { id } of rows) await this.revokeGrant(id);
    return rows.length;
  }

  /**
   * The audience of a valid, unrevoked access token of this Herald, whatever it was issued for: lets the API
   * tell a caller its token is for another resource (the MCP endpoint) rather than invalid.
   */
  async issuedFor(token: string): Promise<string | null> {
    const payload = await this.#claims(token);
    const aud = typeof payload?.aud === 'string' ? payload.aud : null;
    if (!aud || typeof payload?.grant_id !== 'string' || (await this.isRevoked(payload.grant_id))) return null;
    return aud;
  }
}
