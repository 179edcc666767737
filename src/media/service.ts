// The media library of a workspace: uploads (files and URLs), listing, deletion, and the one question
// later features ask — may this workspace use these media ids (resolveMediaForWorkspace).
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import type { Networks } from '../platforms/registry.ts';
import type { MediaConfig } from '../config.ts';
import type { ConnectionStore } from '../connections/store.ts';
import type { Db } from '../db/client.ts';
import { and, eq } from '../db/orm.ts';
import { media } from '../db/schema-media.ts';
import { AppError } from '../errors.ts';
import { MediaIngest, type IngestTarget } from './ingest.ts';
import {
  assertMediaPlatformAllowed,
  toMediaItem,
  type MediaItem,
  type MediaKind,
  type MediaPlatform,
  type MediaRow,
} from './records.ts';
import type { MediaStorage } from './storage/index.ts';
import { DiskStorage } from './storage/disk.ts';
import { TempFiles } from './temp.ts';
import { MediaLibrary } from './library.ts';
import { setGcPacing } from './gc.ts';
import type { StorageQuota } from './quota.ts';
import { downloadToTemp, ImportDeadline, type UrlImportSettings } from './url-import.ts';

export interface MediaServiceDeps {
  db: Db;
  config: MediaConfig;
  dataDir: string;
  fetchAllowHosts: readonly string[];
  connections: ConnectionStore;
  logger: Logger;
  /** The storage backend (createMediaStorage from the configuration; tests may pass their own). */
  storage: MediaStorage;
  fetch?: Pick<UrlImportSettings, 'lookup' | 'ca'>;
  quota: StorageQuota;
  /** The registry's networks, for their names in messages. */
  networks: Networks;
}

/** One item of an upload: a file already in a temp file, or a URL still to download. */
export type UploadSource = { file: { path: string; size: number; filename: string } } | { url: string };

export type { DeleteOutcome, ListFilter } from './library.ts';

export class MediaService extends MediaLibrary {
  readonly temp: TempFiles;
  readonly ingest: MediaIngest;
  readonly config: MediaConfig;
  readonly quota: StorageQuota;
  readonly #db: Db;
  readonly #connections: ConnectionStore;
  readonly #fetch: UrlImportSettings;
  readonly #logger: Logger;
  readonly #networks: Networks;

  constructor(deps: MediaServiceDeps) {
    super(deps.db, deps.storage, deps.logger);
    this.config = deps.config;
    this.#networks = deps.networks;
    this.#db = deps.db;
    this.#connections = deps.connections;
    this.#logger = deps.logger;
    this.quota = deps.quota;
    setGcPacing(deps.config.gcPacing !== false);
    // Disk storage adopts temp files by renaming them; flushing them as they grow overlaps the disk
    // writes with the network instead of paying for them all at the end.
    this.temp = new TempFiles(join(deps.dataDir, 'tmp', 'media'), {
      flushEvery: this.config.storage.driver === 'disk' && deps.storage instanceof DiskStorage ? 32 * 1024 * 1024 : 0,
    });
    this.ingest = new MediaIngest({
      db: deps.db,
      storage: this.storage,
      limits: { maxImageBytes: deps.config.maxImageBytes, maxVideoBytes: deps.config.maxVideoBytes },
      probe: { ffprobePath: deps.config.ffprobePath },
      logger: deps.logger,
      quota: deps.quota,
    });
    this.#fetch = {
      allowHosts: deps.fetchAllowHosts,
      timeoutMs: deps.config.fetchTimeoutSeconds * 1000,
      maxRedirects: 5,
      ...deps.fetch,
    };
  }

  /** Herald serves the objects itself only with disk storage (GET /storage/*). */
  get servesFiles(): boolean {
    return this.config.storage.driver === 'disk';
  }

  item(row: MediaRow): MediaItem {
    return toMediaItem(row, (key) => this.storage.publicUrl(key));
  }

  /**
   * Where an upload goes: the library (no platform) or a connected account of the platform, which
   * the caller's key must be allowed to use. Twitter is recorded but not connected (Herald has no
   * Twitter connection), so it behaves as library media tagged `twitter`.
   */
  async target(p: Principal, platform: MediaPlatform | null, platformUserId?: string | null): Promise<IngestTarget> {
    const base = { workspaceId: p.workspaceId, platform, platformUserId: null };
    if (platform === null) return base;
    assertMediaPlatformAllowed(p.scope, platform);
    if (platform === 'twitter') return base;
    const rows = await this.#connections.list(p.workspaceId, platform);
    const account = platformUserId
      ? rows.find((r) => r.accountId === platformUserId)
      : (rows.find((r) => r.status === 'connected') ?? rows[0]);
    if (!account) {
      const name = this.#networks.network(platform).displayName;
      const message = platformUserId
        ? `${name} account ${platformUserId} is not connected for this workspace.`
        : `${name} not connected for this workspace.`;
      throw new AppError('bad_request', { error: 'NOT_CONNECTED', message });
    }
    return { ...base, platformUserId: account.accountId };
  }

  /** A time limit for all the URL imports of one request; pass it to every add() of that request. */
  importDeadline(): ImportDeadline {
    return new ImportDeadline(this.config.fetchRequestDeadlineSeconds);
  }

  /**
   * Checks and stores one item; the temp file (given or downloaded) is always removed. A URL is
   * downloaded within `deadline` (the request's), or within a deadline of its own.
   */
  async add(
    target: IngestTarget,
    source: UploadSource,
    kind: MediaKind,
    loc: (string | number)[],
    deadline?: ImportDeadline,
  ): Promise<MediaRow> {
    if ('file' in source) {
      const { path, size, filename } = source.file;
      try {
        return await this.ingest.ingest(
          target,
          { path, size, originalName: filename || null, source: 'upload' },
          kind,
          loc,
        );
      } finally {
        await this.temp.remove(path);
      }
    }
    // A workspace already at its quota is refused before anything is downloaded.
    await this.quota.assertRoom(target.workspaceId, 1);
    const own = deadline ? undefined : this.importDeadline();
    let got: Awaited<ReturnType<typeof downloadToTemp>>;
    try {
      got = await downloadToTemp(this.temp, source.url, this.ingest.limitFor(kind), this.#fetch, loc, deadline ?? own);
    } finally {
      own?.done();
    }
    try {
      return await this.ingest.ingest(
        target,
        { path: got.path, size: got.size, originalName: got.name, source: 'url', sourceUrl: withoutQuery(source.url) },
        kind,
        loc,
      );
    } finally {
      await this.temp.remove(got.path);
    }
  }

  /** Stores bytes Herald made (a generated image) as library media of the caller's workspace. */
  async addGenerated(
    p: Principal,
    bytes: Buffer,
    filename: string,
    kind: MediaKind,
    loc: (string | number)[],
  ): Promise<MediaRow> {
    const target = await this.target(p, null);
    await this.quota.assertRoom(target.workspaceId, 1);
    const file = await this.temp.write(Readable.from([bytes]), this.ingest.limitFor(kind));
    try {
      return await this.ingest.ingest(
        target,
        { path: file.path, size: file.size, originalName: filename, source: 'upload' },
        kind,
        loc,
      );
    } finally {
      await this.temp.remove(file.path);
    }
  }

  /**
   * A media URL to read (the AI routes): one of this workspace's own media (read from storage, never
   * over HTTP), or any other URL through the outbound address policy with the kind's size limit. The
   * caller removes `path` with `release`. A URL of Herald's storage that is not this workspace's is refused
   * like a missing one.
   */
  async readUrl(
    p: Principal,
    url: string,
    kind: MediaKind,
    loc: (string | number)[],
  ): Promise<{ path: string; size: number; name: string | null; mediaId: string | null }> {
    const base = this.storage.publicUrl('k').slice(0, -1);
    const bare = url.split(/[?#]/, 1)[0]!;
    if (bare.startsWith(base)) {
      let key: string;
      try {
        key = bare.slice(base.length).split('/').map(decodeURIComponent).join('/');
      } catch {
        key = '';
      }
      const [row] = await this.#db
        .select()
        .from(media)
        .where(and(eq(media.workspaceId, p.workspaceId), eq(media.storageKey, key)))
        .limit(1);
      if (!row)
        throw new AppError('validation', [
          {
            loc,
            msg: "The URL is on Herald's storage but is not one of this workspace's media.",
            type: 'media_not_found',
          },
        ]);
      assertMediaPlatformAllowed(p.scope, row.platform);
      if (row.mediaType !== kind)
        throw new AppError('validation', [
          {
            loc,
            msg: `The media is ${row.mediaType === 'image' ? 'an image' : 'a video'}, not ${kind === 'image' ? 'an image' : 'a video'}.`,
            type: 'media_type_mismatch',
          },
        ]);
      const got = await this.storage.get(row.storageKey);
      const file = await this.temp.write(got.body, this.ingest.limitFor(kind));
      return { ...file, name: row.originalFilename ?? row.filename, mediaId: row.id };
    }
    const got = await downloadToTemp(this.temp, url, this.ingest.limitFor(kind), this.#fetch, loc);
    return { path: got.path, size: got.size, name: got.name, mediaId: null };
  }

  async release(path: string): Promise<void> {
    await this.temp.remove(path);
  }

  /** Several items, a few at a time, all URLs within one deadline; one bad item does not lose the good ones. */
  async addMany(
    target: IngestTarget,
    sources: UploadSource[],
    kind: MediaKind,
    field: string,
  ): Promise<{ rows: MediaRow[]; errors: { index: number; source: string; error: string }[] }> {
    const results: (MediaRow | Error)[] = new Array(sources.length);
    const deadline = this.importDeadline();
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < sources.length; i = next++) {
        try {
          results[i] = await this.add(target, sources[i]!, kind, ['body', field, i], deadline);
        } catch (err) {
          if (!(err instanceof AppError) || err.status >= 500) this.#logger.error({ err }, 'media item failed');
          results[i] = err as Error;
        }
      }
    };
    await Promise.all([worker(), worker(), worker()]).finally(() => deadline.done());
    const rows: MediaRow[] = [];
    const errors: { index: number; source: string; error: string }[] = [];
    for (const [index, r] of results.entries()) {
      if (!(r instanceof Error)) {
        rows.push(r);
        continue;
      }
      const s = sources[index]!;
      errors.push({ index, source: 'file' in s ? s.file.filename : s.url, error: describe(r) });
    }
    return { rows, errors };
  }
}

/** Where a file came from, without query or fragment: signed URLs carry credentials there. */
function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.slice(0, 200);
  }
}

function describe(err: Error): string {
  if (err instanceof AppError) {
    const d = err.detail;
    if (typeof d === 'string') return d;
    if (Array.isArray(d)) return d.map((e) => e.msg).join('; ');
    return typeof d.message === 'string' ? d.message : err.message;
  }
  return 'Internal error while storing the file.';
}
