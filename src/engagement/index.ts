// The engagement folder's public face: what the rest of Herald may use of it.
export { EngagementService } from './service.ts';
export type { EngagementAnalytics } from './analytics.ts';
export type { EngagementInbox } from './inbox.ts';
export type { EngagementPosts } from './posts.ts';
export type { EngagementReplies } from './replies.ts';
export { EngagementStore } from './store.ts';
export { COMMENT_SYNC_QUEUE, CommentSync, type WorkspaceSync } from './sync.ts';
export type {
  AnalyticsFigures,
  CommentRecord,
  CommentsPostEntry,
  CommentsSlice,
  DestinationFilter,
  EngagementDeps,
  PostRecord,
  PostsSlice,
} from './types.ts';
