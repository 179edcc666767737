// Scheduled posts (queue entries): one row per network, publishing through the ledger when due; and
// the history of every status change.
import { pgCore, sql } from './orm.ts';
import { posts } from './schema-publishing.ts';
import { workspaces } from './schema.ts';

const { bigserial, index, integer, jsonb, pgTable, text, timestamp, uuid } = pgCore;
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const scheduledPosts = pgTable(
  'scheduled_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    platformUserId: text('platform_user_id'),
    postType: text('post_type').notNull(),
    /** The unified body narrowed to this network (platforms = [platform]), without scheduled_time. */
    postData: jsonb('post_data').notNull(),
    scheduledTime: tz('scheduled_time').notNull(),
    /** scheduled | publishing | published | failed | cancelled */
    status: text('status').notNull().default('scheduled'),
    /** The ledger post created when publishing started: set once, in the same transaction as its targets. */
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'set null' }),
    /** A claim lasts until this time; a worker that died mid-way is replaced once it passes. */
    claimedUntil: tz('claimed_until'),
    claimedBy: text('claimed_by'),
    attempts: integer('attempts').notNull().default(0),
    /** Earliest time of the next attempt after a transient failure (backoff, Retry-After). */
    retryAt: tz('retry_at'),
    publishedPostId: text('published_post_id'),
    publishedPostUrl: text('published_post_url'),
    errorMessage: text('error_message'),
    actor: text('actor'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    publishedAt: tz('published_at'),
  },
  (t) => [
    index('scheduled_posts_ws_time_idx').on(t.workspaceId, t.scheduledTime),
    // The worker's scan: only rows that can still need it.
    index('scheduled_posts_due_idx')
      .on(t.status, t.scheduledTime)
      .where(sql`${t.status} in ('scheduled', 'publishing')`),
  ],
);

export const scheduledPostEvents = pgTable(
  'scheduled_post_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Order of events: several can share a timestamp (one transaction, or a frozen test clock). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    scheduledPostId: uuid('scheduled_post_id')
      .notNull()
      .references(() => scheduledPosts.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    reason: text('reason').notNull(),
    at: tz('at').notNull().defaultNow(),
  },
  (t) => [index('scheduled_post_events_sp_idx').on(t.scheduledPostId, t.seq)],
);
