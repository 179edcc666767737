// Feeds a workspace follows (RSS, Atom, JSON Feed): where to fetch them, what their new items become (drafts or
// scheduled posts, from a template or the AI copy generator), the validators of the last answer for conditional
// requests, and the outcome of the last poll. One row per item ever seen: the unique (feed, key) index is what keeps
// two pollers from making two posts of one item.
import { pgCore } from './orm.ts';
import { users, workspaces } from './schema.ts';

const { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } = pgCore;
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const feeds = pgTable(
  'feeds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** The networks its items are posted to. */
    networks: jsonb('networks').$type<string[]>().notNull(),
    /** draft | schedule | queue */
    mode: text('mode').notNull().default('draft'),
    /** queue mode: the posting queue its items join (null: the default queue). */
    queue: text('queue'),
    /** schedule mode: minutes after the item was found (from 'found') or after its own date (from 'published'). */
    delayMinutes: integer('delay_minutes').notNull().default(0),
    delayFrom: text('delay_from').notNull().default('found'),
    template: text('template').notNull(),
    /** Copy written per network by the AI generator instead of the template. */
    ai: boolean('ai').notNull().default(false),
    /** The first poll posts the items already in the feed (otherwise it only remembers them). */
    backfill: boolean('backfill').notNull().default(false),
    paused: boolean('paused').notNull().default(false),
    /** The networks of the API key that created it ('' = every network): its posts are made with that scope. */
    scope: text('scope').notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Validators of the last 200 answer, sent back as If-None-Match / If-Modified-Since. */
    etag: text('etag'),
    lastModified: text('last_modified'),
    /** Set when a poll claims the feed (the claim is a guarded update of this column). */
    lastPolledAt: tz('last_polled_at'),
    /** The first successful poll is done: items seen then were not posted unless backfill was set. */
    primed: boolean('primed').notNull().default(false),
    lastSuccessAt: tz('last_success_at'),
    lastError: text('last_error'),
    lastErrorAt: tz('last_error_at'),
    /** Consecutive failed polls (0 after a success). */
    failures: integer('failures').notNull().default(0),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('feeds_ws_idx').on(t.workspaceId), index('feeds_due_idx').on(t.lastPolledAt)],
);

export const feedItems = pgTable(
  'feed_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    feedId: uuid('feed_id')
      .notNull()
      .references(() => feeds.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The item's guid (or id), else its link. */
    itemKey: text('item_key').notNull(),
    title: text('title'),
    link: text('link'),
    publishedAt: tz('published_at'),
    /** posted | skipped (seen on a first poll without backfill) | failed */
    outcome: text('outcome').notNull(),
    detail: text('detail'),
    /** What publishing answered: draft ids, scheduled post ids. */
    refs: jsonb('refs').$type<Record<string, unknown>[]>().notNull().default([]),
    seenAt: tz('seen_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('feed_items_feed_key_idx').on(t.feedId, t.itemKey),
    index('feed_items_feed_seen_idx').on(t.feedId, t.seenAt),
  ],
);
