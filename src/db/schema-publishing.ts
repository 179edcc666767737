// The publishing ledger: one post per request, one target per network and destination, each with its
// own state and journal of irreversible steps; and drafts.
import { pgCore, sql } from './orm.ts';
import { apiKeys, users, workspaces } from './schema.ts';

const { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } = pgCore;
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    postType: text('post_type').notNull(),
    /** The request body as received (no secrets: bodies never carry tokens). */
    request: jsonb('request').notNull(),
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of route + canonical body, to tell a retry from a different request under the same key. */
    requestHash: text('request_hash').notNull(),
    /** running | completed */
    status: text('status').notNull().default('running'),
    /** The response sent for this request, replayed for a retry with the same Idempotency-Key. */
    response: jsonb('response'),
    responseStatus: integer('response_status'),
    /**
     * A running request's claim on its Idempotency-Key lasts until then (renewed while it runs); past it a retry
     * resumes it.
     */
    leaseUntil: tz('lease_until'),
    /** Which run of the request holds the lease (a random id per run). */
    leaseOwner: text('lease_owner'),
    /** What a resumed run needs to answer besides its targets' results (see publishing/idempotency.ts). */
    replyParts: jsonb('reply_parts'),
    actor: text('actor'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('posts_ws_idempotency_idx')
      .on(t.workspaceId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index('posts_ws_created_idx').on(t.workspaceId, t.createdAt),
  ],
);

export const postTargets = pgTable(
  'post_targets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    connectionId: uuid('connection_id'),
    platformUserId: text('platform_user_id'),
    destinationKind: text('destination_kind'),
    destinationId: text('destination_id'),
    /** pending | processing | published | failed | draft */
    state: text('state').notNull(),
    /** What to publish: text, title, media ids, options (network-neutral, after overrides). */
    spec: jsonb('spec').notNull(),
    /** Irreversible steps taken at the network (container ids, upload sessions, the post id). */
    journal: jsonb('journal').notNull().default({}),
    /** The network's handle while it processes asynchronously. */
    processingHandle: text('processing_handle'),
    platformPostId: text('platform_post_id'),
    permalink: text('permalink'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    attempts: integer('attempts').notNull().default(0),
    creditSpent: boolean('credit_spent').notNull().default(false),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    publishedAt: tz('published_at'),
    /** When the published post was deleted from the network through Herald (DELETE /unified/posts/{id}). */
    deletedAt: tz('deleted_at'),
  },
  (t) => [index('post_targets_post_idx').on(t.postId), index('post_targets_ws_state_idx').on(t.workspaceId, t.state)],
);

export const drafts = pgTable(
  'drafts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    platformUserId: text('platform_user_id'),
    postType: text('post_type').notNull(),
    /** draft | pending_approval (a tool's post held for a member's approval). */
    status: text('status').notNull().default('draft'),
    /** The tool surface that created a draft pending approval (mcp | gpt | agent); null otherwise. */
    requestedVia: text('requested_via'),
    /** Who asked for approval: the member (their session, or the chat connector they signed in to)… */
    requestedByUser: uuid('requested_by_user').references(() => users.id, { onDelete: 'set null' }),
    /** …or the API key (an MCP client, a program); null for plain drafts. */
    requestedByKey: uuid('requested_by_key').references(() => apiKeys.id, { onDelete: 'set null' }),
    /**
     * post: a post (a plain draft, or a tool's post held for approval); action: another tool call held for approval (a
     * reply, a disconnect), status pending_approval until approved (then approved or failed) —
     * src/tools/pending-actions.ts.
     */
    kind: text('kind').notNull().default('post'),
    /** For kind action: the tool, its arguments, the summary shown to members, who decided and the result. */
    action: jsonb('action'),
    /** The unified post body for this platform (platforms = [platform]). */
    body: jsonb('body').notNull(),
    sourcePostId: uuid('source_post_id'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('drafts_ws_platform_idx').on(t.workspaceId, t.platform, t.createdAt)],
);
