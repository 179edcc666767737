// The media library of a workspace: uploads (files and URLs), listing, deletion, and the one question
// later features ask — may this workspace use these media ids (resolveMediaForWorkspace).
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import type { Scope } from '../auth/scopes.ts';
import type { Networks } from '../platforms/registry.ts';
import type { MediaConfig } from '../config.ts';
import type { ConnectionStore } from '../connections/store.ts';
import type { Db } from '../db/client.ts';
import type { SQL } from 'drizzle-orm';
import { and, count, desc, eq, inArray, isNull, or } from '../db/orm.ts';
import { media } from '../db/schema-media.ts';
import { AppError } from '../errors.ts';
import { MediaIngest, type IngestTarget } from './ingest.ts';
import {
  assertMediaPlatformAllowed,
  isUuid,
  mediaNotFound,
  mediaPlatformAllowed,
  toMediaItem,
  visiblePlatforms,
  type MediaItem,
  type MediaKind,
  type MediaPlatform,
  type MediaRow,
} from './records.ts';
import type { MediaStorage } from './storage/index.ts';
import { DiskStorage } from './storage/disk.ts';
import { TempFiles } from './temp.ts';
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

export interface ListFilter {
  mediaType?: MediaKind;
  /** A media platform slug, or 'library' for media without one. */
  platform?: MediaPlatform | 'library';
}

export interface DeleteOutcome {
  deleted: string[];
  errors: { media_id: string; error: string }[];
}

export class MediaService {
  readonly storage: MediaStorage;
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
    this.config = deps.config;
    this.#networks = deps.networks;
    this.#db = deps.db;
    this.#connections = deps.connections;
    this.#logger = deps.logger;
    this.storage = deps.storage;
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

  #visible(ws: string, scope: Scope): SQL {
    const platforms = visiblePlatforms(scope);
    if (platforms === 'all') return eq(media.workspaceId, ws);
    const own = platforms.length
      ? or(isNull(media.platform), inArray(media.platform, platforms))!
      : isNull(media.platform);
    return and(eq(media.workspaceId, ws), own)!;
  }

  #filtered(ws: string, scope: Scope, f: ListFilter): SQL {
    if (f.platform && f.platform !== 'library') assertMediaPlatformAllowed(scope, f.platform);
    const conditions = [this.#visible(ws, scope)];
    if (f.mediaType) conditions.push(eq(media.mediaType, f.mediaType));
    if (f.platform) conditions.push(f.platform === 'library' ? isNull(media.platform) : eq(media.platform, f.platform));
    return and(...conditions)!;
  }

  async list(
    ws: string,
    scope: Scope,
    f: ListFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: MediaRow[]; total: number }> {
    const where = this.#filtered(ws, scope, f);
    const [rows, [totals]] = await Promise.all([
      this.#db
        .select()
        .from(media)
        .where(where)
        .orderBy(desc(media.createdAt), desc(media.id))
        .limit(limit)
        .offset(offset),
      this.#db.select({ n: count() }).from(media).where(where),
    ]);
    return { rows, total: Number(totals?.n ?? 0) };
  }

  /** One record of the workspace; 404 for another workspace's id, 403 outside the key's platforms. */
  async get(ws: string, scope: Scope, id: string): Promise<MediaRow> {
    const [row] = isUuid(id)
      ? await this.#db
          .select()
          .from(media)
          .where(and(eq(media.workspaceId, ws), eq(media.id, id)))
      : [];
    if (!row) throw mediaNotFound(id);
    assertMediaPlatformAllowed(scope, row.platform);
    return row;
  }

  /**
   * May this workspace use these media ids? Returns the records in the order asked, or throws 404
   * "Media not found: <id>" for the first id that is not the workspace's (whatever the reason).
   * With a key's scope, media staged for a network outside it is refused (403) like any other use of that network.
   */
  async resolveMediaForWorkspace(workspaceId: string, mediaIds: readonly string[], scope?: Scope): Promise<MediaRow[]> {
    const wanted = [...new Set(mediaIds)];
    const bad = wanted.find((id) => !isUuid(id));
    if (bad !== undefined) throw mediaNotFound(bad);
    const rows = wanted.length
      ? await this.#db
          .select()
          .from(media)
          .where(and(eq(media.workspaceId, workspaceId), inArray(media.id, wanted)))
      : [];
    const byId = new Map(rows.map((r) => [r.id.toLowerCase(), r]));
    return mediaIds.map((id) => {
      const row = byId.get(id.toLowerCase());
      if (!row) throw mediaNotFound(id);
      if (scope) assertMediaPlatformAllowed(scope, row.platform);
      return row;
    });
  }

  async remove(ws: string, scope: Scope, id: string): Promise<void> {
    const row = await this.get(ws, scope, id);
    const { errors } = await this.#removeRows([row]);
    if (errors.length) throw new AppError('internal', `Could not delete media ${id}: ${errors[0]!.error}`);
  }

  async removeMany(ws: string, scope: Scope, ids: readonly string[]): Promise<DeleteOutcome> {
    const wanted = [...new Set(ids)];
    const valid = wanted.filter(isUuid);
    const rows = valid.length
      ? await this.#db
          .select()
          .from(media)
          .where(and(eq(media.workspaceId, ws), inArray(media.id, valid)))
      : [];
    const byId = new Map(rows.map((r) => [r.id.toLowerCase(), r]));
    const errors: DeleteOutcome['errors'] = [];
    const allowed: MediaRow[] = [];
    for (const id of wanted) {
      const row = byId.get(id.toLowerCase());
      if (!row) errors.push({ media_id: id, error: `Media not found: ${id}` });
      else if (row.platform && !mediaPlatformAllowed(scope, row.platform))
        errors.push({ media_id: id, error: `This API key is not allowed for platform '${row.platform}'.` });
      else allowed.push(row);
    }
    const outcome = await this.#removeRows(allowed);
    return { deleted: outcome.deleted, errors: [...errors, ...outcome.errors] };
  }

  async removeWhere(ws: string, scope: Scope, f: ListFilter): Promise<DeleteOutcome> {
    const where = this.#filtered(ws, scope, f);
    const total: DeleteOutcome = { deleted: [], errors: [] };
    const failed = new Set<string>();
    for (;;) {
      const batch = (
        await this.#db
          .select()
          .from(media)
          .where(where)
          .orderBy(media.id)
          .limit(100 + failed.size)
      ).filter((r) => !failed.has(r.id));
      if (!batch.length) return total;
      const outcome = await this.#removeRows(batch.slice(0, 100));
      total.deleted.push(...outcome.deleted);
      total.errors.push(...outcome.errors);
      for (const e of outcome.errors) failed.add(e.media_id);
    }
  }

  /** Objects first, then rows: a failed object delete leaves a record that can be deleted again. */
  async #removeRows(rows: MediaRow[]): Promise<DeleteOutcome> {
    const outcome: DeleteOutcome = { deleted: [], errors: [] };
    const done = await Promise.all(
      rows.map(async (row) => {
        try {
          await this.storage.delete(row.storageKey);
          return row;
        } catch (err) {
          this.#logger.error({ err, key: row.storageKey }, 'could not delete media object');
          outcome.errors.push({ media_id: row.id, error: 'Could not delete the stored file; try again.' });
          return null;
        }
      }),
    );
    const ok = done.filter((r): r is MediaRow => r !== null);
    if (ok.length)
      await this.#db.delete(media).where(
        inArray(
          media.id,
          ok.map((r) => r.id),
        ),
      );
    outcome.deleted = ok.map((r) => r.id);
    return outcome;
  }

  /** Whether a storage key belongs to a live media record (deleted media stops being served). */
  async isServable(key: string): Promise<boolean> {
    const [row] = await this.#db.select({ id: media.id }).from(media).where(eq(media.storageKey, key)).limit(1);
    return !!row;
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
