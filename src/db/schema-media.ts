// The media library: stored images and videos with their probe facts, and chunked upload sessions.
import { pgCore } from './orm.ts';
import { workspaces } from './schema.ts';

const { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } = pgCore;

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tz('created_at').notNull().defaultNow();
const updatedAt = () => tz('updated_at').notNull().defaultNow();

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
  (t) => [
    index('upload_sessions_ws_idx').on(t.workspaceId),
    index('upload_sessions_expires_idx').on(t.status, t.expiresAt),
  ],
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
