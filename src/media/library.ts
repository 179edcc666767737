// The library side of a workspace's media: listing with filters, one item or a set of ids checked against the
// caller's scope (resolveMediaForWorkspace, which later features ask), and deletion of rows and their objects.
// MediaService (service.ts) adds uploads on top.
import type { Logger } from 'pino';
import type { SQL } from 'drizzle-orm';
import type { Scope } from '../auth/scopes.ts';
import type { Db } from '../db/client.ts';
import { and, count, desc, eq, inArray, isNull, or } from '../db/orm.ts';
import { media } from '../db/schema-media.ts';
import { AppError } from '../errors.ts';
import {
  assertMediaPlatformAllowed,
  isUuid,
  mediaNotFound,
  mediaPlatformAllowed,
  visiblePlatforms,
  type MediaKind,
  type MediaPlatform,
  type MediaRow,
} from './records.ts';
import type { MediaStorage } from './storage/index.ts';

export interface ListFilter {
  mediaType?: MediaKind;
  /** A media platform slug, or 'library' for media without one. */
  platform?: MediaPlatform | 'library';
}

export interface DeleteOutcome {
  deleted: string[];
  errors: { media_id: string; error: string }[];
}

export class MediaLibrary {
  readonly storage: MediaStorage;
  readonly #db: Db;
  readonly #logger: Logger;

  constructor(db: Db, storage: MediaStorage, logger: Logger) {
    this.#db = db;
    this.storage = storage;
    this.#logger = logger;
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
