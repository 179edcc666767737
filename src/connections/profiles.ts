// GET /unified/user-profiles/: one slice per network, from the stored profile unless it is older than
// the cache lifetime or the caller forces a refresh. A failed refresh serves the cached slice with the error.
import { z } from 'zod';
import type { Logger } from 'pino';
import type { Platform } from '../platforms/slugs.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import { PlatformError } from '../platforms/types.ts';
import type { ConnectionRow, ConnectionStore } from './store.ts';
import type { TokenKeeper } from './tokens.ts';

/**
 * One network's slice of GET /unified/user-profiles: the network's own profile fields (they differ by
 * network, so the object stays open), the connection's state, and the error of a failed refresh.
 */
export const profileSliceSchema = z.looseObject({
  connection: z.object({
    platform_user_id: z.string(),
    display_name: z.string().nullable(),
    status: z.string(),
    needs_reconnect: z.boolean(),
    status_reason: z.string().nullable(),
    connected_at: z.string(),
    profile_fetched_at: z.string().nullable(),
    expires_at: z
      .string()
      .nullable()
      .describe(
        'When the connection stops working unless it is reconnected (the end of the refresh grant, or of the access token when the network gives no refresh token); null when the network gives no end',
      ),
  }),
  error: z.string().optional().describe('Why the refresh failed; the slice is the cached one.'),
  oauth_connection_count: z.number().int().optional(),
});
export type ProfileSlice = z.infer<typeof profileSliceSchema> | null;

export class ProfileService {
  readonly #store: ConnectionStore;
  readonly #tokens: TokenKeeper;
  readonly #registry: PlatformRegistry;
  readonly #now: () => Date;
  readonly #cacheMs: number;
  readonly #logger: Logger;

  constructor(
    store: ConnectionStore,
    tokens: TokenKeeper,
    registry: PlatformRegistry,
    now: () => Date,
    cacheSeconds: number,
    logger: Logger,
  ) {
    this.#store = store;
    this.#tokens = tokens;
    this.#registry = registry;
    this.#now = now;
    this.#cacheMs = cacheSeconds * 1000;
    this.#logger = logger;
  }

  async profiles(
    workspaceId: string,
    platforms: Platform[] | undefined,
    forceRefresh: boolean,
  ): Promise<Record<string, ProfileSlice>> {
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

  async #slice(platform: Platform, rows: ConnectionRow[], force: boolean): Promise<NonNullable<ProfileSlice>> {
    let primary = rows[0]!;
    let error: string | null = null;
    const stale =
      !primary.profileFetchedAt || this.#now().getTime() - primary.profileFetchedAt.getTime() > this.#cacheMs;
    if ((force || stale) && primary.status === 'connected') {
      try {
        const adapter = this.#registry.get(platform);
        // The row the call ran with: a refresh on the way changed its tokens' expiries.
        let used = primary;
        const identity = await this.#tokens.use(primary, (t, current) => {
          used = current;
          return adapter.fetchAccount(t);
        });
        await this.#store.saveProfile(primary.id, identity);
        primary = {
          ...used,
          profile: identity.slice,
          destinations: identity.destinations,
          profileFetchedAt: this.#now(),
        };
      } catch (err) {
        if (!(err instanceof PlatformError)) throw err;
        this.#logger.warn(
          { platform, connection: primary.id, kind: err.kind },
          'profile refresh failed; serving the cached profile',
        );
        error = err.message;
        const latest = await this.#store.byId(primary.id);
        if (latest) primary = latest;
      }
    }
    const slice: NonNullable<ProfileSlice> = {
      ...((primary.profile as Record<string, unknown> | null) ?? {}),
      connection: {
        platform_user_id: primary.accountId,
        display_name: primary.displayName,
        status: primary.status,
        needs_reconnect: primary.status === 'needs_reconnect',
        status_reason: primary.statusReason,
        connected_at: primary.createdAt.toISOString(),
        profile_fetched_at: primary.profileFetchedAt?.toISOString() ?? null,
        expires_at: this.#tokens.usableUntil(primary)?.toISOString() ?? null,
      },
      ...(error ? { error } : {}),
    };
    if (this.#registry.network(platform).profileConnectionCount) slice.oauth_connection_count = rows.length;
    return slice;
  }
}
