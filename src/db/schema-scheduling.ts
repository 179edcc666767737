// Scheduled posts (queue entries): one row per network, publishing through the ledger when due; and
// the history of every status change.
import { pgCore, sql } from './orm.ts';
import { posts } from './schema-publishing.ts';
import { workspaces } from './schema.ts';

const { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } = pgCore;
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
    /** The queue slot this entry was given (posting queues); null for a post scheduled at a time of its own. */
    queueSlotId: uuid('queue_slot_id').references(() => queueSlots.id, { onDelete: 'set null' }),
    /** Held by a paused queue: the worker does not claim it (nor fail it as missed) until the queue resumes. */
    held: boolean('held').notNull().default(false),
  },
  (t) => [
    index('scheduled_posts_queue_slot_idx').on(t.queueSlotId),
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

/**
 * A workspace's named posting queue: weekly slots (weekday + HH:MM) in a time zone, optionally limited to some
 * networks. The `default` queue has a row only once it is changed or used.
 */
export const postingQueues = pgTable(
  'posting_queues',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** IANA zone of the slots; null: the workspace's zone. */
    timeZone: text('time_zone'),
    /** [{day: 0-6 (Sunday 0), time: 'HH:MM'}], sorted. */
    slots: jsonb('slots').notNull().default([]),
    /** Networks its posts may go to; null: any. */
    platforms: jsonb('platforms'),
    paused: boolean('paused').notNull().default(false),
    pausedAt: tz('paused_at'),
    /**
     * The run of taken slots the next-free-slot lookup skips: every slot of the grid (in `filled_zone`) from
     * `filled_from` to `filled_to` is taken. Set when a post takes the slot after such a run; cut back to the latest
     * live slot before a slot of it that is freed or moved away (cleared when there is none), cleared when the slots
     * change.
     */
    filledFrom: tz('filled_from'),
    filledTo: tz('filled_to'),
    filledZone: text('filled_zone'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('posting_queues_ws_name_idx').on(t.workspaceId, t.name)],
);

/** A taken slot of a queue: one post (one entry per network) per slot, held by the unique index of live slots. */
export const queueSlots = pgTable(
  'queue_slots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => postingQueues.id, { onDelete: 'cascade' }),
    slotAt: tz('slot_at').notNull(),
    /** Set when its post left the queue (cancelled, rescheduled by hand): the slot is free again. */
    releasedAt: tz('released_at'),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('queue_slots_queue_at_idx').on(t.queueId, t.slotAt).where(sql`${t.releasedAt} is null`)],
);
