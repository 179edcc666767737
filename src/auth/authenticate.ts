// Turns request headers into a Principal: who is calling, for which workspace, with which scope.
import type { LRUCache } from 'lru-cache';
import { AppError, unauthorized, validationField } from '../errors.ts';
import type { ApiKeyService } from './api-keys.ts';
import { authCache } from './auth-cache.ts';
import { looksLikeJwt, type SessionClaims } from './jwt.ts';
import type { UserRow } from './accounts.ts';
import type { SessionService } from './sessions.ts';
import type { PlanCatalog } from './plans.ts';
import { fullScope, type Scope } from './scopes.ts';
import type { Role, WorkspaceService } from './workspaces.ts';

export interface Principal {
  kind: 'api_key' | 'jwt';
  /** The user behind a JWT; null for API keys. */
  user: UserRow | null;
  workspaceId: string;
  planId: string;
  role: Role | null;
  scope: Scope;
  keyId: string | null;
  /** Set when the caller presented an OAuth access token (a chat connector): the grant it belongs to. */
  oauthGrantId?: string | null;
  /** The audience of that access token (the API root, or the MCP endpoint). */
  oauthResource?: string | null;
}

/** What the auth layer needs of the OAuth authorization server (src/oauth/service.ts). */
export interface OAuthVerifier {
  verifyAccessToken(
    token: string,
    resource: string,
  ): Promise<{
    workspaceId: string;
    userId: string;
    clientId: string;
    grantId: string;
    resource: string;
    sessionVersion: number;
  } | null>;
  /** The audience of a valid, unrevoked access token, whatever resource it was issued for. */
  issuedFor?(token: string): Promise<string | null>;
  readonly resources: { api: string };
}

export interface UserPrincipal {
  kind: 'jwt';
  user: UserRow;
  /** The presented session, for logout. */
  session: SessionClaims;
}

export interface Credentials {
  token: string | undefined;
  workspaceHeader: string | undefined;
  /**
   * The absolute URL being called: an OAuth access token must have been issued for it (its audience). Default: the API
   * root.
   */
  resource?: string | undefined;
  /**
   * The token came from the browser session cookie, not a header: it counts only as a session JWT (never as an API
   * key or an OAuth access token), and the caller must check the request's CSRF proof.
   */
  fromCookie?: boolean;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The credential headers; without any, the browser session cookie (`sessionCookie`) when there is one. */
export function credentialsFrom(
  headers: Record<string, string | string[] | undefined>,
  sessionCookie?: string,
): Credentials {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
  let token = first(headers['x-api-key']);
  const auth = first(headers.authorization);
  if (!token && auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    token = m?.[1]?.trim();
  }
  const workspaceHeader = first(headers['x-workspace-id']);
  // A header credential wins: a request that names one is not authenticated by the cookie (and needs no CSRF proof).
  if (!token && !auth && sessionCookie) return { token: sessionCookie, workspaceHeader, fromCookie: true };
  return { token, workspaceHeader };
}

/** The OAuth access-token check and the user behind a token. */
export interface OAuthTokens {
  verifier: OAuthVerifier;
  user: (id: string) => Promise<UserRow | undefined>;
}

export class Authenticator {
  /** A session may use every network of the registry. */
  readonly #fullScope: Scope;
  readonly #keys: ApiKeyService;
  readonly #sessions: SessionService;
  readonly #workspaces: WorkspaceService;
  readonly #plans: PlanCatalog;
  readonly #oauth: OAuthTokens | undefined;
  // Memberships are cached like keys and sessions (auth-cache.ts): a removed membership takes effect within a
  // second on every instance.
  readonly #members: LRUCache<string, { m: Awaited<ReturnType<WorkspaceService['membership']>> }> | undefined;

  constructor(
    keys: ApiKeyService,
    sessions: SessionService,
    workspaces: WorkspaceService,
    plans: PlanCatalog,
    cache: { seconds: number; now: () => Date } = { seconds: 0, now: () => new Date() },
    slugs?: readonly string[],
    /** Accept OAuth access tokens (chat connectors) as workspace credentials. */
    oauth?: OAuthTokens,
  ) {
    this.#oauth = oauth;
    this.#fullScope = fullScope(slugs);
    this.#keys = keys;
    this.#sessions = sessions;
    this.#workspaces = workspaces;
    this.#plans = plans;
    this.#members = authCache(cache.seconds * 1000, cache.now);
  }

  /** Drops cached session lookups (after a plan or membership change in this process). */
  invalidate(): void {
    this.#members?.clear();
  }

  async #membership(workspaceId: string, userId: string) {
    const k = `${userId}:${workspaceId}`;
    let entry = this.#members?.get(k);
    if (!entry) {
      entry = { m: await this.#workspaces.membership(workspaceId, userId) };
      this.#members?.set(k, entry);
    }
    return entry.m;
  }

  /** A JWT-only caller, not bound to a workspace (account and workspace-management routes). */
  async user(creds: Credentials): Promise<UserPrincipal> {
    if (!creds.token) throw unauthorized();
    if (creds.fromCookie && !looksLikeJwt(creds.token)) throw unauthorized('Invalid or expired token.');
    if (!looksLikeJwt(creds.token)) {
      throw new AppError('forbidden', 'This route needs a user session (JWT); API keys cannot call it.');
    }
    return { kind: 'jwt', ...(await this.#session(creds.token)) };
  }

  /** A caller acting on one workspace: an API key, or a JWT plus X-Workspace-Id. */
  async workspace(creds: Credentials): Promise<Principal> {
    if (!creds.token) throw unauthorized();
    if (creds.workspaceHeader !== undefined && !UUID.test(creds.workspaceHeader)) {
      throw validationField(['header', 'x-workspace-id'], 'X-Workspace-Id must be a UUID', 'uuid_parsing');
    }
    // The cookie holds a session or nothing: an API key or a connector's token never lives in the browser.
    if (creds.fromCookie && !looksLikeJwt(creds.token)) throw unauthorized('Invalid or expired token.');
    if (!looksLikeJwt(creds.token)) {
      const key = await this.#keys.authenticate(creds.token);
      if (creds.workspaceHeader && creds.workspaceHeader.toLowerCase() !== key.workspaceId) {
        throw new AppError('forbidden', 'workspace does not match API key');
      }
      // A key of a workspace whose plan lost API access stops working.
      this.#plans.assertFeature(key.planId, 'api_keys_enabled');
      return {
        kind: 'api_key',
        user: null,
        workspaceId: key.workspaceId,
        planId: key.planId,
        role: null,
        scope: key.scope,
        keyId: key.id,
      };
    }
    const claims = await this.#sessions.verify(creds.token);
    // Not a session of this Herald: an OAuth access token, or nothing valid.
    if (!claims && this.#oauth && !creds.fromCookie) return this.#oauthPrincipal(creds.token, creds);
    const { user } = await this.#session(creds.token);
    if (!creds.workspaceHeader) {
      throw new AppError(
        'bad_request',
        'X-Workspace-Id header is required when authenticating with a user session (JWT).',
      );
    }
    const m = await this.#membership(creds.workspaceHeader.toLowerCase(), user.id);
    // Not found and not a member answer alike, so workspace ids cannot be probed.
    if (!m) throw new AppError('forbidden', 'You are not a member of this workspace.');
    return {
      kind: 'jwt',
      user,
      workspaceId: m.ws.id,
      planId: m.ws.planId,
      role: m.role,
      scope: this.#fullScope,
      keyId: null,
    };
  }

  /** A chat connector's access token: bound to one workspace, one client and one audience. */
  async #oauthPrincipal(token: string, creds: Credentials): Promise<Principal> {
    const { verifier, user: loadUser } = this.#oauth!;
    const access = await verifier.verifyAccessToken(token, creds.resource ?? verifier.resources.api);
    if (!access) {
      // A valid token for another resource (the MCP endpoint) is told apart from a bad one.
      const aud = await verifier.issuedFor?.(token);
      throw unauthorized(aud ? `This token was issued for ${aud}, not for this API.` : 'Invalid or expired token.');
    }
    if (creds.workspaceHeader && creds.workspaceHeader.toLowerCase() !== access.workspaceId) {
      throw new AppError('forbidden', 'workspace does not match the OAuth access token');
    }
    const user = await loadUser(access.userId);
    const current = user?.isActive && user.sessionVersion === access.sessionVersion;
    const m = current ? await this.#membership(access.workspaceId, access.userId) : undefined;
    // A user removed from the workspace, deactivated, or whose sessions were all ended (logout-all, a new
    // password) loses the connector with it.
    if (!user || !m) throw unauthorized('Invalid or expired token.');
    return {
      kind: 'jwt',
      user,
      workspaceId: m.ws.id,
      planId: m.ws.planId,
      role: m.role,
      scope: this.#fullScope,
      keyId: null,
      oauthGrantId: access.grantId,
      oauthResource: access.resource,
    };
  }

  async #session(token: string): Promise<{ user: UserRow; session: SessionClaims }> {
    const claims = await this.#sessions.verify(token);
    const user = claims && (await this.#sessions.user(claims));
    if (!claims || !user) throw unauthorized('Invalid or expired token.');
    return { user, session: claims };
  }
}
