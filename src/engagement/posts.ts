// The posts read model: recent posts per network with their numbers (from the database, refreshed when stale or
// asked), one post refreshed from its network, its numbers over time, and deleting it where the network allows.
import { AppError } from '../errors.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { PlatformError } from '../platforms/types.ts';
import type { EngagementReads } from './reads.ts';
import {
  iso,
  notConnected,
  wireError,
  type DestinationFilter,
  type PostRecord,
  type PostsSlice,
  type ReadPlan,
} from './types.ts';

export class EngagementPosts {
  readonly #r: EngagementReads;

  constructor(reads: EngagementReads) {
    this.#r = reads;
  }

  /**
   * GET /unified/posts: one slice per network asked for, from the database in three statements whatever the number
   * of networks (connections, posts, their ledger links); a network is asked only when its list is past its
   * freshness window or the caller asks for a refresh.
   */
  async list(
    workspaceId: string,
    platforms: Platform[],
    q: { limit: number; stats: boolean; refreshPosts: boolean; refreshStats: boolean; filter: DestinationFilter },
  ): Promise<Record<string, PostsSlice>> {
    const out: Record<string, PostsSlice> = {};
    const connections = await this.#r.d.connections.list(workspaceId);
    const plans = new Map<Platform, ReadPlan>();
    for (const platform of platforms) {
      const row = await this.#r.connection(workspaceId, platform, connections);
      if (!row) {
        out[platform] = {
          posts: [],
          source: null,
          last_updated: null,
          message: notConnected(this.#r.name(platform)),
          error: 'NOT_CONNECTED',
        };
        continue;
      }
      const engagement = this.#r.d.registry.get(platform).engagement;
      if (!engagement) {
        out[platform] = {
          posts: [],
          source: null,
          last_updated: null,
          message: `Reading ${this.#r.name(platform)} posts is not available.`,
          error: 'NOT_SUPPORTED',
        };
        continue;
      }
      plans.set(platform, this.#r.plan(platform, row, engagement, q.filter));
    }
    const wanted = (only?: Platform[]) =>
      [...plans]
        .filter(([p]) => !only || only.includes(p))
        .map(([platform, plan]) => ({ platform, sources: plan.sources }));
    const stored = await this.#r.d.store.recentPostsOf(workspaceId, wanted(), q.limit);
    const refresh = [...plans]
      .filter(
        ([p, plan]) =>
          plan.targets.length &&
          (q.refreshPosts ||
            q.refreshStats ||
            this.#r.stale(
              this.#r.lastListed(workspaceId, p, plan.sources, stored.get(p) ?? []),
              this.#r.d.config.postsFreshSeconds,
            )),
      )
      .map(([p]) => p);
    const failures = new Map<Platform, PlatformError | null>();
    if (refresh.length) {
      await Promise.all(
        refresh.map(async (p) => failures.set(p, await this.#r.refreshPosts(workspaceId, p, plans.get(p)!, q.limit))),
      );
      for (const [p, rows] of await this.#r.d.store.recentPostsOf(workspaceId, wanted(refresh), q.limit))
        stored.set(p, rows);
    }
    const all = [...stored.values()].flat();
    const records = await this.#r.records(all, q.stats);
    const recordOf = new Map(records.map((r, n) => [all[n]!.id, r]));
    for (const [platform, plan] of plans) {
      const rows = stored.get(platform) ?? [];
      const failure = failures.get(platform) ?? null;
      const updated = rows.reduce<Date | null>((a, r) => (!a || r.refreshedAt > a ? r.refreshedAt : a), null);
      const slice: PostsSlice = {
        posts: rows.map((r) => recordOf.get(r.id)!),
        source: failures.has(platform) && !failure ? 'api' : 'database',
        last_updated: iso(updated),
      };
      const message = [
        failure ? `${this.#r.name(platform)} could not be refreshed: ${failure.message}` : undefined,
        this.#r.unknownMessage(platform, plan.unknown),
      ]
        .filter(Boolean)
        .join(' ');
      if (message) slice.message = message;
      if (failure) slice.error = wireError(failure);
      out[platform] = slice;
    }
    return Object.fromEntries(platforms.map((p) => [p, out[p]!]));
  }

  /** GET /unified/posts/{id}: always asks the network for this one post. */
  async refreshPost(
    workspaceId: string,
    platform: Platform,
    postId: string,
    pageId: string | undefined,
  ): Promise<PostRecord> {
    const k = await this.#r.known(workspaceId, platform, postId, pageId);
    const saved = await this.#r.readPost(workspaceId, platform, postId, k);
    return (await this.#r.records([saved], true))[0]!;
  }

  /**
   * GET /unified/posts/{id}/metrics: the numbers of every refresh, oldest first. A post Herald published that was
   * never read since (just published) is read once first, so its series starts.
   */
  async metrics(workspaceId: string, platform: Platform, postId: string) {
    const stored =
      (await this.#r.d.store.post(workspaceId, platform, postId)) ??
      (await this.#r.readPost(
        workspaceId,
        platform,
        postId,
        await this.#r.known(workspaceId, platform, postId, undefined),
      ));
    const series = await this.#r.d.store.snapshots(workspaceId, stored.id);
    return series.map((s) => ({
      at: s.takenAt.toISOString(),
      like_count: s.likes,
      comment_count: s.comments,
      share_count: s.shares,
      impression_count: s.impressions,
      reach: s.reach,
    }));
  }

  /** DELETE /unified/posts/{id}: deletes it on the network where the API allows; 409 with the reason otherwise. */
  async deletePost(workspaceId: string, platform: Platform, postId: string, pageId: string | undefined): Promise<void> {
    const k = await this.#r.known(workspaceId, platform, postId, pageId);
    if (!k.engagement.deletePost) {
      throw new AppError('conflict', {
        error: 'DELETE_NOT_SUPPORTED',
        message: k.engagement.deleteUnavailable ?? `${this.#r.name(platform)} posts cannot be deleted through its API.`,
      });
    }
    await this.#r.call(platform, k.row, (t) => k.engagement.deletePost!(t, { destination: k.destination, postId }));
    await this.#r.d.store.markDeleted(workspaceId, platform, postId, this.#r.d.clock());
  }
}
