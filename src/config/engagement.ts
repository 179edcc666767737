// The posts read model, comments inbox and background sync settings (docs/engagement.md).
import { z } from 'zod';

export const engagementEnvSchema = z.object({
  HERALD_POSTS_FRESH_SECONDS: z.coerce.number().int().min(0).max(604_800).default(900),
  HERALD_COMMENTS_FRESH_SECONDS: z.coerce.number().int().min(0).max(604_800).default(300),
  HERALD_COMMENT_SYNC_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(604_800).default(900),
  HERALD_COMMENT_SYNC_POSTS: z.coerce.number().int().min(1).max(50).default(10),
  HERALD_ENGAGEMENT_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
});

export interface EngagementConfig {
  /** Stored posts younger than this are served without asking the network (0: every read asks). */
  postsFreshSeconds: number;
  /** Stored comments of a post younger than this are served without asking the network. */
  commentsFreshSeconds: number;
  /** The background comment sync's interval (0: off). */
  syncIntervalSeconds: number;
  /** How many recent posts per network the background sync reads comments of. */
  syncPosts: number;
  /** Calls in flight at once per network and workspace. */
  concurrency: number;
}

export function toEngagementConfig(e: z.infer<typeof engagementEnvSchema>): EngagementConfig {
  return {
    postsFreshSeconds: e.HERALD_POSTS_FRESH_SECONDS,
    commentsFreshSeconds: e.HERALD_COMMENTS_FRESH_SECONDS,
    syncIntervalSeconds: e.HERALD_COMMENT_SYNC_INTERVAL_SECONDS,
    syncPosts: e.HERALD_COMMENT_SYNC_POSTS,
    concurrency: e.HERALD_ENGAGEMENT_CONCURRENCY,
  };
}
