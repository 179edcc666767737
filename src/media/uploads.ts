// Resumable (chunked) uploads. A session belongs to one workspace; its chunks are kept by the chunk store
// (chunk-store.ts): in the data directory with media on disk, in the shared bucket with S3, so with S3 every
// instance can take any chunk of any session.
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { and, asc, eq, inArray, lt, sql } from '../db/orm.ts';
import { uploadChunks, uploadSessions } from '../db/schema-media.ts';
import { AppError } from '../errors.ts';
import type { ChunkStore } from './chunk-store.ts';
import { assembleChunks } from './chunks.ts';
import { sizeLimitError } from './ingest.ts';
import { assertMediaPlatformAllowed, isUuid, type MediaKind, type MediaPlatform, type MediaRow } from './records.ts';
import type { MediaService } from './service.ts';

export const CHUNK_SIZE = 1024 * 1024;

/** What GET /media/storage/progress reports. */
export type UploadStatus = 'pending' | 'uploading' | 'ready' | 'assembling' | 'complete' | 'failed' | 'expired';

type SessionRow = typeof uploadSessions.$inferSelect;

export interface InitRequest {
  filename: string;
  fileSize: number;
  totalChunks: number;
  platform: MediaPlatform | null;
  platformUserId?: string | null;
  mediaType: MediaKind;
}

export interface Progress {
  upload_id: string;
  uploaded_chunks: number;
  total_chunks: number;
  status: UploadStatus;
  missing_chunks?: number[];
  media_id?: string;
  error?: string;
  expires_at: string;
}

const field = (name: string, msg: string, type = 'value_error') =>
  new AppError('validation', [{ loc: ['body', name], msg, type }]);
const notFound = (id: string) => new AppError('not_found', `Upload session not found: ${id}`);
/** Sessions (and their rows) are forgotten this long after they expire. */
const FORGET_AFTER_MS = 7 * 24 * 3600 * 1000;

export class UploadSessions {
  readonly chunks: ChunkStore;
  readonly #db: Db;
  readonly #media: MediaService;
  readonly #ttlMs: number;
  readonly #now: Clock;
  readonly #logger: Logger;
  #lastSweep = 0;

  constructor(deps: {
    db: Db;
    media: MediaService;
    chunks: ChunkStore;
    ttlSeconds: number;
    clock: Clock;
    logger: Logger;
  }) {
    this.chunks = deps.chunks;
    this.#db = deps.db;
    this.#media = deps.media;
    this.#ttlMs = deps.ttlSeconds * 1000;
    this.#now = deps.clock;
    this.#logger = deps.logger;
  }

  async init(p: Principal, req: InitRequest): Promise<{ upload_id: string; chunk_size: number }> {
    const limit = this.#media.ingest.limitFor(req.mediaType);
    if (req.fileSize > limit) throw sizeLimitError(req.mediaType, limit);
    const expected = Math.ceil(req.fileSize / CHUNK_SIZE);
    if (req.totalChunks !== expected) {
      throw field(
        'total_chunks',
        `total_chunks must be ceil(file_size / ${CHUNK_SIZE}) = ${expected} for a file of ${req.fileSize} bytes.`,
      );
    }
    const target = await this.#media.target(p, req.platform, req.platformUserId);
    // The declared size is reserved against the quota now; every chunk is checked against it again.
    const [row] = await this.#db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await this.#media.quota.lock(tx, p.workspaceId);
      await this.#media.quota.assertRoom(p.workspaceId, req.fileSize, { tx });
      return tx
        .insert(uploadSessions)
        .values({
          workspaceId: p.workspaceId,
          platform: target.platform,
          platformUserId: target.platformUserId,
          mediaType: req.mediaType,
          filename: req.filename.slice(0, 255),
          fileSize: req.fileSize,
          totalChunks: req.totalChunks,
          chunkSize: CHUNK_SIZE,
          expiresAt: new Date(this.#now().getTime() + this.#ttlMs),
        })
        .returning({ id: uploadSessions.id });
    });
    await this.chunks.prepare(row!.id);
    this.#maybeSweep();
    return { upload_id: row!.id, chunk_size: CHUNK_SIZE };
  }

  /** The workspace's session: another workspace's id is 404; a platform outside the key's scope 403. */
  async #session(p: Principal, id: string): Promise<SessionRow> {
    const [row] = isUuid(id)
      ? await this.#db
          .select()
          .from(uploadSessions)
          .where(and(eq(uploadSessions.id, id), eq(uploadSessions.workspaceId, p.workspaceId)))
      : [];
    if (!row) throw notFound(id);
    assertMediaPlatformAllowed(p.scope, row.platform);
    return row;
  }

  #expired(row: SessionRow): boolean {
    return row.status === 'expired' || (row.status === 'open' && row.expiresAt.getTime() <= this.#now().getTime());
  }

  #assertOpen(row: SessionRow): void {
    if (this.#expired(row)) throw new AppError('conflict', `Upload session ${row.id} has expired; start a new upload.`);
    if (row.status === 'complete') throw new AppError('conflict', `Upload session ${row.id} is already complete.`);
    if (row.status === 'failed')
      throw new AppError(
        'conflict',
        `Upload session ${row.id} failed: ${row.error ?? 'unknown error'}; start a new upload.`,
      );
    if (row.status === 'assembling') throw new AppError('conflict', `Upload session ${row.id} is being completed.`);
  }

  expectedChunkSize(row: Pick<SessionRow, 'fileSize' | 'totalChunks'>, n: number): number {
    return n < row.totalChunks ? CHUNK_SIZE : row.fileSize - (row.totalChunks - 1) * CHUNK_SIZE;
  }

  /** Stores one chunk from a temp file (consumed). Sending a chunk again replaces it. */
  async putChunk(p: Principal, id: string, n: number, file: { path: string; size: number }): Promise<void> {
    const row = await this.#session(p, id);
    this.#assertOpen(row);
    if (!Number.isInteger(n) || n < 1 || n > row.totalChunks) {
      throw field('chunk_number', `chunk_number must be between 1 and ${row.totalChunks}.`);
    }
    const want = this.expectedChunkSize(row, n);
    if (file.size !== want) throw field('file', `Chunk ${n} must be exactly ${want} bytes (got ${file.size}).`);
    // The session's declared size is already counted; this refuses chunks once the workspace is over
    // its quota anyway (a lowered plan limit, a race with another upload).
    await this.#media.quota.assertRoom(p.workspaceId, 0);
    await this.chunks.put(row.id, n, file);
    await this.#db
      .insert(uploadChunks)
      .values({ uploadId: row.id, chunkNumber: n, size: file.size })
      .onConflictDoUpdate({
        target: [uploadChunks.uploadId, uploadChunks.chunkNumber],
        set: { size: file.size, createdAt: sql`now()` },
      });
  }

  async #chunkNumbers(id: string): Promise<number[]> {
    const rows = await this.#db
      .select({ n: uploadChunks.chunkNumber })
      .from(uploadChunks)
      .where(eq(uploadChunks.uploadId, id))
      .orderBy(asc(uploadChunks.chunkNumber));
    return rows.map((r) => r.n);
  }

  async progress(p: Principal, id: string): Promise<Progress> {
    const row = await this.#session(p, id);
    const have = row.status === 'complete' ? [] : await this.#chunkNumbers(row.id);
    const uploaded = row.status === 'complete' ? row.totalChunks : have.length;
    const got = new Set(have);
    const missing = Array.from({ length: row.totalChunks }, (_, i) => i + 1).filter((n) => !got.has(n));
    const status: UploadStatus = this.#expired(row)
      ? 'expired'
      : row.status === 'open'
        ? uploaded === 0
          ? 'pending'
          : uploaded < row.totalChunks
            ? 'uploading'
            : 'ready'
        : (row.status as UploadStatus);
    return {
      upload_id: row.id,
      uploaded_chunks: uploaded,
      total_chunks: row.totalChunks,
      status,
      ...(status === 'pending' || status === 'uploading' ? { missing_chunks: missing } : {}),
      ...(row.mediaId ? { media_id: row.mediaId } : {}),
      ...(row.error ? { error: row.error } : {}),
      expires_at: row.expiresAt.toISOString(),
    };
  }

  /** Verifies, assembles (streaming), checks and stores the file; returns the media row. */
  async complete(
    p: Principal,
    id: string,
    req: { platform?: MediaPlatform | null; mediaType?: MediaKind; originalFilename?: string },
  ): Promise<MediaRow> {
    const row = await this.#session(p, id);
    if (row.status === 'complete' && row.mediaId) return this.#media.get(p.workspaceId, p.scope, row.mediaId);
    this.#assertOpen(row);
    if (req.platform !== undefined && req.platform !== row.platform) {
      throw field('platform', `platform must match the one given at init (${row.platform ?? 'none'}).`);
    }
    if (req.mediaType !== undefined && req.mediaType !== row.mediaType) {
      throw field('media_type', `media_type must match the one given at init (${row.mediaType}).`);
    }
    const missing = await this.#missingOnDisk(row);
    if (missing.length) {
      const shown = missing.slice(0, 50).join(', ') + (missing.length > 50 ? ', …' : '');
      throw field(
        'upload_id',
        `${missing.length} chunk(s) missing: ${shown}. Send them and complete again.`,
        'missing_chunks',
      );
    }
    const [claimed] = await this.#db
      .update(uploadSessions)
      .set({ status: 'assembling', updatedAt: this.#now() })
      .where(and(eq(uploadSessions.id, row.id), eq(uploadSessions.status, 'open')))
      .returning({ id: uploadSessions.id });
    if (!claimed) throw new AppError('conflict', `Upload session ${row.id} is being completed.`);
    let tempPath: string | undefined;
    try {
      const target = await this.#media.target(p, row.platform as MediaPlatform | null, row.platformUserId);
      const paths = Array.from({ length: row.totalChunks }, (_, i) => () => this.chunks.open(row.id, i + 1));
      const written = await this.#media.temp.write(
        assembleChunks(paths, { expectedBytes: row.fileSize }),
        row.fileSize,
      );
      tempPath = written.path;
      const name = req.originalFilename?.trim() || row.filename;
      const media = await this.#media.ingest.ingest(
        target,
        { ...written, originalName: name, source: 'chunked', uploadId: row.id },
        row.mediaType as MediaKind,
        ['body', 'upload_id'],
      );
      await this.#finish(row.id, { status: 'complete', mediaId: media.id });
      return media;
    } catch (err) {
      // A file that fails the content checks will never pass them: the session ends. Anything else
      // (storage or database trouble) may pass on a retry, so the session stays open.
      const final = err instanceof AppError && err.status < 500 && err.code !== 'bad_request';
      if (final)
        await this.#finish(row.id, {
          status: 'failed',
          error: err.message === 'validation' ? describeValidation(err) : err.message,
        });
      else
        await this.#db
          .update(uploadSessions)
          .set({ status: 'open', updatedAt: this.#now() })
          .where(eq(uploadSessions.id, row.id));
      throw err;
    } finally {
      await this.#media.temp.remove(tempPath);
    }
  }

  /** Chunk numbers without a row, or whose stored chunk is missing or of the wrong size (those rows are dropped). */
  async #missingOnDisk(row: SessionRow): Promise<number[]> {
    const have = new Set(await this.#chunkNumbers(row.id));
    const lost: number[] = [];
    await Promise.all(
      [...have].map(async (n) => {
        const size = await this.chunks.size(row.id, n);
        if (size !== this.expectedChunkSize(row, n)) lost.push(n);
      }),
    );
    if (lost.length) {
      await this.#db
        .delete(uploadChunks)
        .where(and(eq(uploadChunks.uploadId, row.id), inArray(uploadChunks.chunkNumber, lost)));
      for (const n of lost) have.delete(n);
    }
    return Array.from({ length: row.totalChunks }, (_, i) => i + 1).filter((n) => !have.has(n));
  }

  async #finish(
    id: string,
    set: { status: 'complete' | 'failed' | 'expired'; mediaId?: string; error?: string },
  ): Promise<void> {
    await this.#db
      .update(uploadSessions)
      .set({ ...set, updatedAt: this.#now() })
      .where(eq(uploadSessions.id, id));
    await this.#db.delete(uploadChunks).where(eq(uploadChunks.uploadId, id));
    await this.chunks.remove(id);
  }

  #maybeSweep(): void {
    const now = this.#now().getTime();
    if (now - this.#lastSweep < 60_000) return;
    this.#lastSweep = now;
    this.sweep().catch((err: unknown) => this.#logger.warn({ err }, 'upload session sweep failed'));
  }

  /** Frees the chunks of expired sessions and forgets sessions long past expiry. Returns how many expired. */
  async sweep(): Promise<number> {
    const now = this.#now();
    // Claimed in one statement, so a session being completed right now is never expired under it.
    const expired = await this.#db
      .update(uploadSessions)
      .set({ status: 'expired', updatedAt: now })
      .where(and(eq(uploadSessions.status, 'open'), lt(uploadSessions.expiresAt, now)))
      .returning({ id: uploadSessions.id });
    for (const { id } of expired) await this.#finish(id, { status: 'expired' });
    await this.#db
      .delete(uploadSessions)
      .where(lt(uploadSessions.expiresAt, new Date(now.getTime() - FORGET_AFTER_MS)));
    return expired.length;
  }
}

function describeValidation(err: AppError): string {
  return Array.isArray(err.detail) ? err.detail.map((d) => d.msg).join('; ') : err.message;
}
