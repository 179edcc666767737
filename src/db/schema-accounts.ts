// Account lifecycle: revoked sessions, password reset tokens, workspace invitations, and the durable
// to-do list of stored files left to delete after a workspace was deleted.
import { pgCore, sql } from './orm.ts';
import { users, workspaces } from './schema.ts';

const { index, pgTable, text, timestamp, uniqueIndex, uuid } = pgCore;
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tz('created_at').notNull().defaultNow();

/** Sessions logged out one by one (the JWT's jti); kept until the token would have expired anyway. */
export const revokedSessions = pgTable(
  'revoked_sessions',
  {
    sessionId: text('session_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: tz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('revoked_sessions_expires_idx').on(t.expiresAt)],
);

/** Single-use, short-lived password reset tokens; only a SHA-256 of the token is stored. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: tz('expires_at').notNull(),
    usedAt: tz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_idx').on(t.tokenHash),
    index('password_reset_tokens_user_idx').on(t.userId),
  ],
);

/** An invitation to join a workspace, accepted by whoever signs in with the invited address. */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'member'] }).notNull(),
    /** SHA-256 of the token; the token itself is shown once to the inviter and mailed to the invitee. */
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: tz('expires_at').notNull(),
    acceptedAt: tz('accepted_at'),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: tz('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('workspace_invitations_hash_idx').on(t.tokenHash),
    index('workspace_invitations_ws_idx').on(t.workspaceId),
    index('workspace_invitations_email_idx').on(sql`lower(${t.email})`),
  ],
);

/**
 * Stored files of a deleted workspace still to remove: written in the transaction that deletes the
 * workspace, removed one by one once the file is gone, so a crash never leaves files without a record.
 */
export const storageDeletions = pgTable('storage_deletions', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** object (a media storage key) | upload_dir (a chunked upload's directory, by upload id) */
  kind: text('kind', { enum: ['object', 'upload_dir'] }).notNull(),
  ref: text('ref').notNull(),
  createdAt: createdAt(),
});
