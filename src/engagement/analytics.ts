// Analytics: per-network and total figures from the stored posts.
import { readTargetId } from '../platforms/contract.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { EngagementReads } from './reads.ts';
import type { Sources } from './store.ts';
import { engagementRate, iso, notConnected, type AnalyticsFigures, type DestinationFilter } from './types.ts';

export class EngagementAnalytics {
  readonly #r: EngagementReads;

  constructor(reads: EngagementReads) {
    this.#r = reads;
  }

  /** GET /unified/analytics: per network and in total, from the stored posts. */
  async read(workspaceId: string, platforms: Platform[], filter: DestinationFilter): Promise<{ platforms: Record<string, AnalyticsFigures>; totals: Omit<AnalyticsFigures, 'message' | 'error'>; lastUpdated: string | null }> {
    const rows = await this.#r.d.connections.list(workspaceId);
    const connected = new Set(rows.map((r) => r.platform));
    const sourcesOf = (platform: string): Sources | undefined => {
      const reads = this.#r.reads(platform as Platform);
      const asked = reads ? (filter[reads.param] ?? []).map((id) => readTargetId(reads, id)) : [];
      return asked.length ? asked : undefined;
    };
    const figures = await this.#r.d.store.totals(workspaceId, platforms.filter((p) => connected.has(p)), sourcesOf);
    const out: Record<string, AnalyticsFigures> = {};
    const total = { post_count: 0, total_likes: 0, total_comments: 0, total_reach: 0 };
    let last: Date | null = null;
    for (const p of platforms) {
      const f = figures.get(p);
      if (!f) {
        out[p] = { post_count: 0, total_likes: 0, total_comments: 0, total_reach: 0, average_engagement_rate: 0, message: notConnected(this.#r.name(p)), error: 'NOT_CONNECTED' };
        continue;
      }
      out[p] = { post_count: f.posts, total_likes: f.likes, total_comments: f.comments, total_reach: f.reach, average_engagement_rate: engagementRate(f.likes, f.comments, f.reach), message: null, error: null };
      total.post_count += f.posts;
      total.total_likes += f.likes;
      total.total_comments += f.comments;
      total.total_reach += f.reach;
      if (f.lastUpdated && (!last || f.lastUpdated > last)) last = f.lastUpdated;
    }
    return { platforms: out, totals: { ...total, average_engagement_rate: engagementRate(total.total_likes, total.total_comments, total.total_reach) }, lastUpdated: iso(last) };
  }
}
