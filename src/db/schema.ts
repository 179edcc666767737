// Drizzle schema. Postgres dialect only, nothing newer than PostgreSQL 15 (CI runs 15, PGlite is 18).
// Every timestamp is timestamptz; every id a UUID v4 (gen_random_uuid(), core since PostgreSQL 13).
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

/**
 * One connected account of a network in a workspace. Tokens are one AES-256-GCM ciphertext
 * (the whole TokenSet as JSON); nothing about them is stored in the clear.
 */
export const platformConnections = pgTable(
  'platform_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    /** The network's id of the connected account (platform_user_id). */
    accountId: text('account_id').notNull(),
    displayName: text('display_name').notNull(),
    username: text('username'),
    avatarUrl: text('avatar_url'),
    /** connected | needs_reconnect */
    status: text('status').notNull().default('connected'),
    statusReason: text('status_reason'),
    tokensEnc: text('tokens_enc').notNull(),
    /** Bumped on every token write, so a stale refresh never overwrites a newer one. */
    tokenVersion: integer('token_version').notNull().default(1),
    accessExpiresAt: tz('access_expires_at'),
    refreshExpiresAt: tz('refresh_expires_at'),
    scopes: text('scopes'),
    /** Pages, organizations, boards, channels, playlists (public data). */
    destinations: jsonb('destinations').notNull().default([]),
    /** Cached profile slice for GET /unified/user-profiles/ and when it was fetched. */
    profile: jsonb('profile'),
    profileFetchedAt: tz('profile_fetched_at'),
    lastRefreshedAt: tz('last_refreshed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('platform_connections_ws_platform_account_idx').on(t.workspaceId, t.platform, t.accountId),
    index('platform_connections_ws_idx').on(t.workspaceId),
  ],
);

/** Single-use OAuth state: bound to workspace and network, expiring, carrying the PKCE verifier (encrypted). */
export const oauthStates = pgTable(
  'oauth_states',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    /** SHA-256 of the state nonce sent to the network. */
    nonceHash: text('nonce_hash').notNull(),
    codeVerifierEnc: text('code_verifier_enc'),
    redirectUri: text('redirect_uri').notNull(),
    createdBy: uuid('created_by'),
    expiresAt: tz('expires_at').notNull(),
    usedAt: tz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('oauth_states_nonce_idx').on(t.nonceHash)],
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

/**
 * One stored image or video. The object lives in media storage under `storage_key`; platform and
 * platform_user_id are null for workspace-library media. Probe facts are columns so later
 * validators (per-network size/duration/codec rules) can filter on them.
 */
export const media = pgTable(
  'media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    platform: text('platform'),
    platformUserId: text('platform_user_id'),
    storageKey: text('storage_key').notNull(),
    filename: text('filename').notNull(),
    originalFilename: text('original_filename'),
    mime: text('mime').notNull(),
    /** image | video */
    mediaType: text('media_type').notNull(),
    /** Sniffed format: jpeg, png, gif, webp, mp4, mov, m4v, avi, mkv, webm. */
    format: text('format').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    durationMs: integer('duration_ms'),
    videoCodec: text('video_codec'),
    audioCodec: text('audio_codec'),
    /** Remaining probe facts (rotation, display size, frames) and where the bytes came from. */
    metadata: jsonb('metadata').notNull().default({}),
    /** ready (the only state a row is written in; kept for later processing states). */
    status: text('status').notNull().default('ready'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('media_storage_key_idx').on(t.storageKey),
    index('media_ws_created_idx').on(t.workspaceId, t.createdAt),
    index('media_ws_platform_type_idx').on(t.workspaceId, t.platform, t.mediaType),
  ],
);

/** A resumable (chunked) upload. Chunk bytes live under the data directory, not in the database. */
export const uploadSessions = pgTable(
  'upload_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    platform: text('platform'),
    platformUserId: text('platform_user_id'),
    /** image | video */
    mediaType: text('media_type').notNull(),
    filename: text('filename').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    totalChunks: integer('total_chunks').notNull(),
    chunkSize: integer('chunk_size').notNull(),
    /** open | assembling | complete | failed | expired (pending/uploading are derived from the chunk count) */
    status: text('status').notNull().default('open'),
    error: text('error'),
    mediaId: uuid('media_id').references(() => media.id, { onDelete: 'set null' }),
    expiresAt: tz('expires_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('upload_sessions_ws_idx').on(t.workspaceId), index('upload_sessions_expires_idx').on(t.status, t.expiresAt)],
);

export const uploadChunks = pgTable(
  'upload_chunks',
  {
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploadSessions.id, { onDelete: 'cascade' }),
    chunkNumber: integer('chunk_number').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.chunkNumber] })],
);
