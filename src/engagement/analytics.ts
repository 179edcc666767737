// Analytics: per-network and total figures from the stored posts (a network read first when its list is behind).
import { readTargetId } from '../platforms/contract.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { EngagementPosts } from './posts.ts';
import type { EngagementReads } from './reads.ts';
import type { Sources } from './store.ts';
import {
  engagementRate,
  iso,
  notConnected,
  type AnalyticsFigures,
  type DestinationFilter,
  type PostsSlice,
} from './types.ts';

/**
 * How many recent posts per source analytics reads from a network that was never read (GET /unified/posts' default).
 */
const ANALYTICS_READ_LIMIT = 10;

export class EngagementAnalytics {
  readonly #r: EngagementReads;
  readonly #posts: EngagementPosts;

  constructor(reads: EngagementReads, posts: EngagementPosts) {
    this.#r = reads;
    this.#posts = posts;
  }

  /** GET /unified/analytics: per network and in total, from the stored posts. */
  async read(
    workspaceId: string,
    platforms: Platform[],
    filter: DestinationFilter,
  ): Promise<{
    platforms: Record<string, AnalyticsFigures>;
    totals: Omit<AnalyticsFigures, 'message' | 'error'>;
    lastUpdated: string | null;
  }> {
    const rows = await this.#r.d.connections.list(workspaceId);
    const connected = new Set(rows.map((r) => r.platform));
    // The figures come from the stored posts, which a network whose list was never read (or is past its freshness
    // window), or was read before Herald last published there, has not got yet: read those first, as GET /unified/posts
    // would, so analytics right after publishing counts the post. A read that fails keeps the stored figures and says
    // why.
    const readable = platforms.filter((p) => connected.has(p) && this.#r.d.registry.get(p).engagement);
    const times = await this.#r.d.store.publishedAndRead(workspaceId, readable);
    const behind = (p: Platform): boolean => {
      const t = times.get(p);
      const listed = this.#r.listedAt(workspaceId, p, null);
      return !!t && t.published.getTime() > Math.max(t.read?.getTime() ?? 0, listed ?? 0);
    };
    const read = (list: Platform[], refreshPosts: boolean) =>
      list.length
        ? this.#posts.list(workspaceId, list, {
            limit: ANALYTICS_READ_LIMIT,
            stats: false,
            refreshPosts,
            refreshStats: false,
            filter,
          })
        : Promise.resolve({});
    const slices: Record<string, PostsSlice> = {
      ...(await read(
        readable.filter((p) => !behind(p)),
        false,
      )),
      ...(await read(readable.filter(behind), true)),
    };
    const sourcesOf = (platform: string): Sources | undefined => {
      const reads = this.#r.reads(platform as Platform);
      const asked = reads ? (filter[reads.param] ?? []).map((id) => readTargetId(reads, id)) : [];
      return asked.length ? asked : undefined;
    };
    const figures = await this.#r.d.store.totals(
      workspaceId,
      platforms.filter((p) => connected.has(p)),
      sourcesOf,
    );
    const out: Record<string, AnalyticsFigures> = {};
    const total = { post_count: 0, total_likes: 0, total_comments: 0, total_reach: 0 };
    let last: Date | null = null;
    for (const p of platforms) {
      const f = figures.get(p);
      if (!f) {
        out[p] = {
          post_count: 0,
          total_likes: 0,
          total_comments: 0,
          total_reach: 0,
          average_engagement_rate: 0,
          message: notConnected(this.#r.name(p)),
          error: 'NOT_CONNECTED',
        };
        continue;
      }
      const slice = slices[p];
      out[p] = {
        post_count: f.posts,
        total_likes: f.likes,
        total_comments: f.comments,
        total_reach: f.reach,
        average_engagement_rate: engagementRate(f.likes, f.comments, f.reach),
        message: slice?.error ? (slice.message ?? null) : null,
        error: slice?.error ?? null,
      };
      total.post_count += f.posts;
      total.total_likes += f.likes;
      total.total_comments += f.comments;
      total.total_reach += f.reach;
      if (f.lastUpdated && (!last || f.lastUpdated > last)) last = f.lastUpdated;
    }
    return {
      platforms: out,
      totals: {
        ...total,
        average_engagement_rate: engagementRate(total.total_likes, total.total_comments, total.total_reach),
      },
      lastUpdated: iso(last),
    };
  }
}
