// Drizzle schema, the foundation: users, workspaces, members, API keys, credits, mail. Each domain's tables have their
// own schema-<domain>.ts beside this one. Postgres dialect only, nothing newer than PostgreSQL 15 (CI runs 15, PGlite
// is 18). Every timestamp is timestamptz; every id a UUID v4 (gen_random_uuid(), core since PostgreSQL 13).
import { pgCore, sql } from './orm.ts';

const { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } = pgCore;

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tz('created_at').notNull().defaultNow();
const updatedAt = () => tz('updated_at').notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name'),
    username: text('username'),
    isAdmin: boolean('is_admin').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    /** Sessions carry the version they were issued under; bumping it revokes them all (logout-all, password change). */
    sessionVersion: integer('session_version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`)],
);

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    planId: text('plan_id').notNull(),
    timeZone: text('time_zone').notNull().default('UTC'),
    /** BCP 47 tag, canonical form; null = not set. */
    locale: text('locale'),
    /**
     * Posts created by tools (MCP, GPT Actions, the agent) wait as drafts pending approval until a member approves
     * them.
     */
    toolPostsNeedApproval: boolean('tool_posts_need_approval').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('workspaces_slug_idx').on(t.slug), index('workspaces_owner_idx').on(t.ownerId)],
);

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'member'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('workspace_members_user_idx').on(t.userId)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name'),
    scope: text('scope').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    /** SHA-256 of the whole secret, hex. The secret itself is never stored. */
    keyHash: text('key_hash').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: tz('expires_at'),
    revokedAt: tz('revoked_at'),
    lastUsedAt: tz('last_used_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.keyHash), index('api_keys_workspace_idx').on(t.workspaceId)],
);

/** Running total per workspace, credit type and billing period; spends are guarded UPDATEs on this row. */
export const creditBalances = pgTable(
  'credit_balances',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    creditType: text('credit_type').notNull(),
    periodStart: tz('period_start').notNull(),
    used: bigint('used', { mode: 'number' }).notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.creditType, t.periodStart] })],
);

/** Append-only record of every spend and refund, for audit and usage reports. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    creditType: text('credit_type').notNull(),
    periodStart: tz('period_start').notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    reference: text('reference'),
    meta: jsonb('meta'),
    createdAt: createdAt(),
  },
  (t) => [index('credit_ledger_ws_period_idx').on(t.workspaceId, t.periodStart)],
);

/** Mail that was sent, or that waits here when no SMTP server is configured. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    kind: text('kind').notNull(),
    /** queued (no SMTP) | sent | failed */
    status: text('status').notNull(),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: tz('sent_at'),
  },
  (t) => [index('mail_outbox_ws_idx').on(t.workspaceId)],
);
