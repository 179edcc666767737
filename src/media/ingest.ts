// Turns a complete file on local disk into a stored media object and its row: the bytes decide the
// format, the probe decides the facts, and nothing is stored unless every check passed.
import { recordEvent } from '../events/index.ts';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { media } from '../db/schema-media.ts';
import { AppError } from '../errors.ts';
import { GcPacer } from './gc.ts';
import { MediaProbeError, probeFile, type MediaInfo, type ProbeOptions } from './probe.ts';
import { sniffFile, UnsupportedMediaError, type MediaType } from './sniff.ts';
import { newObjectKey, type MediaStorage, type PutOptions, type PutResult } from './storage/index.ts';
import { formatBytes, type MediaKind, type MediaPlatform, type MediaRow } from './records.ts';
import type { StorageQuota } from './quota.ts';

export interface IngestTarget {
  workspaceId: string;
  platform: MediaPlatform | null;
  platformUserId: string | null;
}

export interface IngestFile {
  path: string;
  size: number;
  /** The name the client gave, if any; only its sanitized form becomes part of the key. */
  originalName: string | null;
  source: 'upload' | 'url' | 'chunked';
  sourceUrl?: string;
  /** The chunked upload this file completes: its reservation does not count against its own room. */
  uploadId?: string;
}

export interface MediaLimits {
  maxImageBytes: number;
  maxVideoBytes: number;
}

/** Disk storage can take a finished temp file by renaming it instead of copying the bytes. */
interface FileAdopting {
  putFile(key: string, path: string, opts: PutOptions): Promise<PutResult>;
}

const canAdopt = (s: MediaStorage): s is MediaStorage & FileAdopting =>
  typeof (s as Partial<FileAdopting>).putFile === 'function';

const FORMATS: Record<MediaKind, string> = {
  image: 'JPEG, PNG, GIF or WebP',
  video: 'MP4, MOV, M4V, AVI, MKV or WebM',
};

export function sizeLimitError(kind: MediaKind, limit: number): AppError {
  const variable = kind === 'image' ? 'HERALD_MEDIA_MAX_IMAGE_BYTES' : 'HERALD_MEDIA_MAX_VIDEO_BYTES';
  return new AppError(
    'payload_too_large',
    `File too large: the limit for ${kind}s is ${formatBytes(limit)} (${limit} bytes, ${variable}).`,
  );
}

export class MediaIngest {
  readonly #db: Db;
  readonly #storage: MediaStorage;
  readonly #limits: MediaLimits;
  readonly #probe: ProbeOptions;
  readonly #logger: Logger;
  readonly #quota: StorageQuota;

  constructor(deps: {
    db: Db;
    storage: MediaStorage;
    limits: MediaLimits;
    probe: ProbeOptions;
    logger: Logger;
    quota: StorageQuota;
  }) {
    this.#db = deps.db;
    this.#quota = deps.quota;
    this.#storage = deps.storage;
    this.#limits = deps.limits;
    this.#probe = deps.probe;
    this.#logger = deps.logger;
  }

  limitFor(kind: MediaKind): number {
    return kind === 'image' ? this.#limits.maxImageBytes : this.#limits.maxVideoBytes;
  }

  /** Checks, stores and records one file. `loc` names the request field in 422 answers. */
  async ingest(
    target: IngestTarget,
    file: IngestFile,
    expected: MediaKind,
    loc: (string | number)[],
  ): Promise<MediaRow> {
    const reject = (msg: string, type: string) => new AppError('validation', [{ loc, msg, type }]);
    let type: MediaType;
    try {
      type = await sniffFile(file.path);
    } catch (err) {
      if (!(err instanceof UnsupportedMediaError)) throw err;
      const seen = err.detectedMime ? ` (the bytes are ${err.detectedMime})` : '';
      throw reject(`Unsupported file format${seen}: expected ${FORMATS[expected]}.`, 'media_format');
    }
    if (type.kind !== expected) {
      throw reject(
        `The file is ${type.kind === 'image' ? 'an image' : 'a video'} (${type.format}) but media_type is ${expected}.`,
        'media_type_mismatch',
      );
    }
    const limit = this.limitFor(type.kind);
    if (file.size > limit) throw sizeLimitError(type.kind, limit);
    const room = { ...(file.uploadId ? { exceptUpload: file.uploadId } : {}) };
    // Checked before the bytes are stored, and again under the workspace's lock with the insert.
    await this.#quota.assertRoom(target.workspaceId, file.size, room);
    let info: MediaInfo;
    try {
      info = await probeFile(file.path, this.#probe);
    } catch (err) {
      if (!(err instanceof MediaProbeError) && !(err instanceof UnsupportedMediaError)) throw err;
      throw reject(`Could not read the ${type.kind}: ${err.message}`, 'media_unreadable');
    }
    const key = newObjectKey({
      workspaceId: target.workspaceId,
      scope: target.platform ?? 'library',
      filename: file.originalName ?? type.kind,
      extension: type.ext,
    });
    const put: PutOptions = { contentType: type.mime, contentLength: file.size };
    if (canAdopt(this.#storage)) await this.#storage.putFile(key, file.path, put);
    else {
      const body = new GcPacer();
      // pipeline() hands a read failure on to `body`, so the upload fails instead of waiting forever.
      pipeline(createReadStream(file.path, { highWaterMark: 1024 * 1024 }), body).catch(() => {});
      await this.#storage.put(key, body, put);
    }
    const values = {
      workspaceId: target.workspaceId,
      platform: target.platform,
      platformUserId: target.platformUserId,
      storageKey: key,
      filename: key.slice(key.lastIndexOf('/') + 1),
      originalFilename: file.originalName ? file.originalName.slice(0, 255) : null,
      mime: type.mime,
      mediaType: type.kind,
      format: type.format,
      fileSize: file.size,
      ...facts(info),
      metadata: { ...extraFacts(info), source: file.source, ...(file.sourceUrl ? { source_url: file.sourceUrl } : {}) },
    };
    try {
      const [row] = await this.#db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        await this.#quota.lock(tx, target.workspaceId);
        await this.#quota.assertRoom(target.workspaceId, file.size, { ...room, tx });
        const rows = await tx.insert(media).values(values).returning();
        // Probed, stored and recorded: media.processed commits with the row.
        await recordEvent(tx, target.workspaceId, 'media.processed', {
          media_id: rows[0]!.id,
          kind: type.kind,
          status: rows[0]!.status,
          error: null,
        });
        return rows;
      });
      return row!;
    } catch (err) {
      // The object is useless without its row; do not leave it behind.
      await this.#storage
        .delete(key)
        .catch((e: unknown) =>
          this.#logger.warn({ err: e, key }, 'could not remove media object after a failed insert'),
        );
      throw err;
    }
  }
}

function facts(info: MediaInfo) {
  if (info.kind === 'image')
    return { width: info.width, height: info.height, durationMs: null, videoCodec: null, audioCodec: null };
  return {
    width: info.width ?? null,
    height: info.height ?? null,
    durationMs: info.durationSec === undefined ? null : Math.round(info.durationSec * 1000),
    videoCodec: info.videoCodec ?? null,
    audioCodec: info.audioCodec ?? null,
  };
}

function extraFacts(info: MediaInfo): Record<string, unknown> {
  if (info.kind === 'image') {
    return {
      display_width: info.displayWidth,
      display_height: info.displayHeight,
      frames: info.frames,
      animated: info.animated,
    };
  }
  return {
    display_width: info.displayWidth ?? null,
    display_height: info.displayHeight ?? null,
    rotation: info.rotation,
    duration_sec: info.durationSec ?? null,
    prober: info.prober,
  };
}
