// What a workspace sees of its posts after publishing: the posts read model (recent posts with their numbers, per
// network), one post refreshed, its numbers over time, deletion, the comments inbox with replies, and analytics.
// Reads come from the database; a refresh asks the network through the connection's tokens and stores the answer.
// A network is only ever asked about objects this workspace has seen (its stored posts and synced comments), so a
// guessed id never reaches another workspace's data.
//
// Each concern is its own piece over one shared core (reads.ts): callers hold the piece they use.
import { EngagementAnalytics } from './analytics.ts';
import { EngagementInbox } from './inbox.ts';
import { EngagementPosts } from './posts.ts';
import { EngagementReads } from './reads.ts';
import { EngagementReplies } from './replies.ts';
import { WorkspaceSync } from './sync.ts';
import type { EngagementDeps } from './types.ts';

export class EngagementService {
  /** GET /unified/posts and the single-post routes. */
  readonly posts: EngagementPosts;
  /** GET /unified/comments and /unified/comments/by-post. */
  readonly inbox: EngagementInbox;
  /** GET /unified/comments/replies and POST /unified/comments/reply. */
  readonly replies: EngagementReplies;
  /** GET /unified/analytics. */
  readonly analytics: EngagementAnalytics;
  /** One workspace's background comment sync. */
  readonly sync: WorkspaceSync;

  constructor(deps: EngagementDeps) {
    const reads = new EngagementReads(deps);
    this.posts = new EngagementPosts(reads);
    this.inbox = new EngagementInbox(reads);
    this.replies = new EngagementReplies(reads);
    this.analytics = new EngagementAnalytics(reads, this.posts);
    this.sync = new WorkspaceSync(reads);
  }
}
