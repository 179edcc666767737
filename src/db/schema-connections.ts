// Connected network accounts (tokens encrypted as one ciphertext) and the single-use OAuth states of a connect.
import { pgCore } from './orm.ts';
import { workspaces } from './schema.ts';

const { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } = pgCore;

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tz('created_at').notNull().defaultNow();
const updatedAt = () => tz('updated_at').notNull().defaultNow();

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
