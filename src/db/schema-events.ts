// The events outbox: one row per thing that happened in a workspace (a post published, an account needing
// reconnection…), written in the same transaction as the change it describes, so both commit or neither.
// GET /events reads it; the webhook dispatcher claims rows whose `dispatched_at` is still null.
import { pgCore, sql } from './orm.ts';
import { users, workspaces } from './schema.ts';

const { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } = pgCore;
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const events = pgTable(
  'events',
  {
    /** The event's stable id (`evt_` + this on the wire): the same across every reader and delivery. */
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order, the cursor of GET /events. Not commit order: see src/events/store.ts. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** A stable name from src/events/types.ts (`post.published`, `account.needs_reconnect`…). */
    type: text('type').notNull(),
    /** The ledger post concerned, when there is one (filter of GET /events). No foreign key: events outlive posts. */
    postId: uuid('post_id'),
    /** The network concerned, when there is one (filter; network-scoped keys see only theirs). */
    platform: text('platform'),
    /** The documented payload of the type. */
    data: jsonb('data').notNull(),
    occurredAt: tz('occurred_at').notNull().defaultNow(),
    /** Set once the webhook dispatcher has fanned the event out to the workspace's endpoints. */
    dispatchedAt: tz('dispatched_at'),
  },
  (t) => [
    index('events_ws_seq_idx').on(t.workspaceId, t.seq),
    index('events_post_idx').on(t.postId),
    // The dispatcher's scan: only events not yet fanned out.
    index('events_undispatched_idx').on(t.seq).where(sql`${t.dispatchedAt} is null`),
  ],
);

/**
 * One attempt at publishing one ledger target: when it started and ended, how it ended, the network's error
 * (sanitized) and when the next one is due. GET /unified/posts/{id}/timeline reads it.
 */
export const postAttempts = pgTable(
  'post_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    postId: uuid('post_id').notNull(),
    targetId: uuid('target_id').notNull(),
    platform: text('platform').notNull(),
    /** The target's attempt number (1 for the first). */
    attempt: integer('attempt').notNull(),
    /** published | failed | retrying | processing | recovered (the reconciler's verdicts included). */
    outcome: text('outcome').notNull(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** When the next attempt is due, for an outcome that will be retried. */
    retryAt: tz('retry_at'),
    /** What made the attempt: worker | request | retry | reconciler. */
    source: text('source').notNull(),
    at: tz('at').notNull().defaultNow(),
  },
  (t) => [index('post_attempts_post_idx').on(t.postId, t.seq)],
);

/**
 * A member's mail notifications in one workspace: their preferences (event type → on/off, over the defaults) and
 * the digest's progress (the last event mailed, when the last digest left).
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    preferences: jsonb('preferences').notNull().default({}),
    /** Events up to this seq have been considered for a digest. */
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    lastSentAt: tz('last_sent_at'),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
);
