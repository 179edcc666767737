// GET /unified/user-profiles/: one slice per network, from the stored profile unless it is older than
// the cache lifetime or the caller forces a refresh. A failed refresh serves the cached slice with the error.
import type { Logger } from 'pino';
import type { Platform } from '../auth/scopes.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import { PlatformError } from '../platforms/types.ts';
import type { ConnectionRow, ConnectionStore } from './store.ts';
import type { TokenKeeper } from './tokens.ts';

export type ProfileSlice = Record<string, unknown> | null;

export class ProfileService {
  readonly #store: ConnectionStore;
  readonly #tokens: TokenKeeper;
  readonly #registry: PlatformRegistry;
  readonly #now: () => Date;
  readonly #cacheMs: number;
  readonly #logger: Logger;

  constructor(store: ConnectionStore, tokens: TokenKeeper, registry: PlatformRegistry, now: () => Date, cacheSeconds: number, logger: Logger) {
    this.#store = store;
    this.#tokens = tokens;
    this.#registry = registry;
    this.#now = now;
    this.#cacheMs = cacheSeconds * 1000;
    this.#logger = logger;
  }

  async profiles(workspaceId: string, platforms: Platform[] | undefined, forceRefresh: boolean): Promise<Record<string, ProfileSlice>> {
    const rows = await this.#store.list(workspaceId);
    const wanted = platforms ?? [...new Set(rows.map((r) => r.platform as Platform))];
    const out: Record<string, ProfileSlice> = {};
    await Promise.all(
      wanted.map(async (p) => {
        const mine = rows.filter((r) => r.platform === p);
        out[p] = mine.length ? await this.#slice(p, mine, forceRefresh) : null;
      }),
    );
    return Object.fromEntries(wanted.map((p) => [p, out[p] ?? null]));
  }

  async #slice(platform: Platform, rows: ConnectionRow[], force: boolean): Promise<Record<string, unknown>> {
    let primary = rows[0]!;
    let error: string | null = null;
    const stale = !primary.profileFetchedAt || this.#now().getTime() - primary.profileFetchedAt.getTime() > this.#cacheMs;
    if ((force || stale) && primary.status === 'connected') {
      try {
        const adapter = this.#registry.get(platform);
        const identity = await this.#tokens.use(primary, (t) => adapter.fetchAccount(t));
        await this.#store.saveProfile(primary.id, identity);
        primary = { ...primary, profile: identity.slice, destinations: identity.destinations, profileFetchedAt: this.#now() };
      } catch (err) {
        if (!(err instanceof PlatformError)) throw err;
        this.#logger.warn({ platform, connection: primary.id, kind: err.kind }, 'profile refresh failed; serving the cached profile');
        error = err.message;
        const latest = await this.#store.byId(primary.id);
        if (latest) primary = latest;
      }
    }
    const slice: Record<string, unknown> = {
      ...((primary.profile as Record<string, unknown> | null) ?? {}),
      connection: {
        platform_user_id: primary.accountId,
        display_name: primary.displayName,
        status: primary.status,
        needs_reconnect: primary.status === 'needs_reconnect',
        status_reason: primary.statusReason,
        connected_at: primary.createdAt.toISOString(),
        profile_fetched_at: primary.profileFetchedAt?.toISOString() ?? null,
      },
      ...(error ? { error } : {}),
    };
    if (this.#registry.network(platform).profileConnectionCount) slice.oauth_connection_count = rows.length;
    return slice;
  }
}
