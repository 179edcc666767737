// The engagement read model: the posts a workspace's connected accounts have on the networks (whether Herald
// published them or not) with their latest numbers, a snapshot of those numbers at every refresh, and the comments
// and replies synced from the networks. Everything is per workspace; a network id alone never finds a row.
import { pgCore } from './orm.ts';
import { postTargets } from './schema-publishing.ts';
import { users, workspaces } from './schema.ts';

const { bigint, boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } = pgCore;
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const count = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

export const networkPosts = pgTable(
  'network_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    /** The network's post id, in the format publishing returns. */
    platformPostId: text('platform_post_id').notNull(),
    /** The page / organization / board / channel it belongs to; null = the connected account itself. */
    sourcePageId: text('source_page_id'),
    /** The ledger target that published it, when Herald did. */
    postTargetId: uuid('post_target_id').references(() => postTargets.id, { onDelete: 'set null' }),
    commentary: text('commentary'),
    /** text | image | video | carousel */
    postType: text('post_type').notNull(),
    publishedAt: tz('published_at'),
    permalink: text('permalink'),
    images: jsonb('images').notNull().default([]),
    videos: jsonb('videos'),
    likes: count('likes'),
    comments: count('comments'),
    shares: count('shares'),
    impressions: count('impressions'),
    /** Unique reach where the network reports it; else null and analytics use impressions. */
    reach: bigint('reach', { mode: 'number' }),
    commentsDisabled: boolean('comments_disabled').notNull().default(false),
    deletedAt: tz('deleted_at'),
    /** When the network last answered for this post (its fields and numbers). */
    refreshedAt: tz('refreshed_at').notNull(),
    /** When its comments were last synced; null = never. */
    commentsSyncedAt: tz('comments_synced_at'),
  },
  (t) => [
    uniqueIndex('network_posts_ws_platform_post_idx').on(t.workspaceId, t.platform, t.platformPostId),
    index('network_posts_ws_platform_published_idx').on(t.workspaceId, t.platform, t.publishedAt),
  ],
);

/** A post's numbers each time a refresh read them, for charts over time. */
export const postMetricSnapshots = pgTable(
  'post_metric_snapshots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    networkPostId: uuid('network_post_id')
      .notNull()
      .references(() => networkPosts.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    takenAt: tz('taken_at').notNull(),
    likes: count('likes'),
    comments: count('comments'),
    shares: count('shares'),
    impressions: count('impressions'),
    reach: bigint('reach', { mode: 'number' }),
  },
  (t) => [index('post_metric_snapshots_post_idx').on(t.networkPostId, t.takenAt)],
);

export const networkComments = pgTable(
  'network_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    networkPostId: uuid('network_post_id')
      .notNull()
      .references(() => networkPosts.id, { onDelete: 'cascade' }),
    platformCommentId: text('platform_comment_id').notNull(),
    /** The comment this one replies to; null for a top-level comment. */
    parentCommentId: text('parent_comment_id'),
    text: text('text').notNull(),
    authorName: text('author_name').notNull(),
    authorId: text('author_id'),
    authorAvatarUrl: text('author_avatar_url'),
    commentedAt: tz('commented_at'),
    likeCount: count('like_count'),
    replyCount: count('reply_count'),
    hidden: boolean('hidden').notNull().default(false),
    /** Network ids needed to reply later (a Bluesky CID and root); public data, never shown. */
    refs: jsonb('refs').notNull().default({}),
    syncedAt: tz('synced_at').notNull(),
  },
  (t) => [
    uniqueIndex('network_comments_ws_platform_comment_idx').on(t.workspaceId, t.platform, t.platformCommentId),
    index('network_comments_post_idx').on(t.networkPostId, t.commentedAt),
  ],
);

/**
 * The comments a member has read in the inbox, by network and comment id (ids are unique per network only). Kept
 * apart from the synced comments: a re-sync that replaces a comment row keeps its read state.
 */
export const commentReads = pgTable(
  'comment_reads',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    commentId: text('comment_id').notNull(),
    readAt: tz('read_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId, t.platform, t.commentId] }),
    index('comment_reads_member_idx').on(t.workspaceId, t.userId, t.readAt),
  ],
);
