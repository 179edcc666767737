// Bulk import and export of posts (docs/workflow.md, "Bulk import and export"). A file is read row by row
// (read.ts), every row checked by the post routes' own schemas and validator (rows.ts), and the import writes all
// it accepted in ONE transaction that first reserves the credits of the whole file: a 402 or any fault leaves nothing.
import type { Principal } from '../../auth/authenticate.ts';
import type { CreditService } from '../../auth/credits.ts';
import type { PlanCatalog } from '../../auth/plans.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { MediaService } from '../../media/service.ts';
import type { Networks } from '../../platforms/registry.ts';
import {
  type DraftService,
  type PostValidator,
  requesterOf,
  type ScheduleWriter,
  storedBody,
} from '../../publishing/index.ts';
import { allColumns, overrideColumns } from './columns.ts';
import { type ExportQuery, exportRows, serialise } from './export.ts';
import { type BulkFormat, readRows } from './read.ts';
import { type BulkQueues, QueuePlacer, type QueuedRow } from './queue-slot.ts';
import { checkRow, type RowContext, type RowError, type RowPost } from './rows.ts';

/** Posts one file may hold. */
export const BULK_MAX_ROWS = 10_000;
/** Bytes one file may have (the request size limit of the import routes). */
export const BULK_MAX_BYTES = 32 * 1024 * 1024;

export type ImportMode = 'all_or_nothing' | 'valid_only';

export interface BulkDeps {
  db: Db;
  clock: () => Date;
  plans: PlanCatalog;
  registry: Pick<Networks, 'networks' | 'has' | 'slugs' | 'network' | 'overrideKeys'>;
  validator: PostValidator;
  drafts: DraftService;
  credits: CreditService;
  media: MediaService;
  schedule: ScheduleWriter;
  timeZoneOf: (workspaceId: string) => Promise<string>;
  /** Posting queues, for rows that name one instead of a time. */
  queues?: BulkQueues | undefined;
}

export interface BulkReport {
  success: boolean;
  /** Post rows read (the header and blank lines are not counted). */
  rows: number;
  valid: number;
  invalid: number;
  errors: RowError[];
  /** A validation: the slot each valid row naming a queue would take. */
  queued?: QueuedRow[];
}

export interface ImportReport extends BulkReport {
  mode: ImportMode;
  imported: number;
  scheduled: { row: number; platform: string; scheduled_post_id: string; scheduled_time: string }[];
  drafts: { row: number; platform: string; draft_id: string; status: string }[];
  /** Scheduled-post credits reserved for the whole import, in one spend. */
  credits_reserved: number;
}

/** Who imports, and whether a member must approve the posts first (a tool's import, tool_posts_need_approval). */
export interface ImportOptions {
  mode?: ImportMode;
  /** Hold every post as a draft pending approval, requested via this tool surface. */
  heldVia?: string | undefined;
}

/**
 * What a read of the file found: the accepted rows (kept only for an import), how many, the valid rows that name a
 * queue (row and queue only), the errors, and the queue slots placed while checking.
 */
type Checked = {
  posts: RowPost[];
  valid: number;
  queuedRows: { row: number; queue: string }[];
  errors: RowError[];
  rows: number;
  queues: QueuePlacer;
};

export class BulkService {
  readonly #d: BulkDeps;

  constructor(deps: BulkDeps) {
    this.#d = deps;
  }

  /** Every column a file may have (the base columns, then one per network text field). */
  columns(): string[] {
    return allColumns(this.#d.registry);
  }

  /** A dry run: every row checked as the import would, media URLs only for their form; nothing is written. */
  async validate(p: Principal, source: AsyncIterable<Buffer | string>, format: BulkFormat): Promise<BulkReport> {
    this.#d.plans.assertFeature(p.planId, 'bulk_scheduling_enabled');
    const { valid, queuedRows, errors, rows, queues } = await this.#check(p, source, format, undefined);
    const queued = await queues.report(queuedRows);
    return { ...report(rows, valid, errors), ...(queued.length ? { queued } : {}) };
  }

  /** Checks every row, imports their media, then writes every accepted row in one transaction. */
  async import(
    p: Principal,
    source: AsyncIterable<Buffer | string>,
    format: BulkFormat,
    o: ImportOptions = {},
  ): Promise<ImportReport> {
    this.#d.plans.assertFeature(p.planId, 'bulk_scheduling_enabled');
    const mode = o.mode ?? 'all_or_nothing';
    const deadline = this.#d.media.importDeadline();
    const imported = new Map<string, string>();
    const importMedia: RowContext['importMedia'] = async (urls, kind, row) => {
      const ids: string[] = [];
      for (const url of urls) {
        let id = imported.get(url);
        if (!id) {
          const library = { workspaceId: p.workspaceId, platform: null, platformUserId: null };
          id = (await this.#d.media.add(library, { url }, kind, ['body', row, 'media_urls'], deadline)).id;
          imported.set(url, id);
        }
        ids.push(id);
      }
      return ids;
    };
    let checked: Checked;
    try {
      checked = await this.#check(p, source, format, importMedia);
    } finally {
      deadline.done();
    }
    const { posts, errors, rows, queues } = checked;
    if (errors.length && mode === 'all_or_nothing')
      throw new AppError(
        'validation',
        errors.map((e) => ({
          loc: ['body', e.row, ...(e.column ? [e.column] : [])],
          msg: `Row ${e.row}${e.column ? `, column ${e.column}` : ''}: ${e.message}`,
          type: 'bulk_row',
        })),
      );
    const written = posts.length
      ? await this.#write(p, posts, o.heldVia, queues)
      : { scheduled: [], drafts: [], credits: 0 };
    return {
      ...report(rows, posts.length, errors),
      success: true,
      mode,
      imported: posts.length,
      scheduled: written.scheduled,
      drafts: written.drafts,
      credits_reserved: written.credits,
    };
  }

  /** The export file (CSV or JSON lines) of the workspace's posts. */
  async export(p: Principal, q: ExportQuery): Promise<string> {
    this.#d.plans.assertFeature(p.planId, 'bulk_scheduling_enabled');
    const tz = await this.#d.timeZoneOf(p.workspaceId);
    return serialise(this.#d.registry, await exportRows(this.#d.db, this.#d.registry, p, tz, q), q.format);
  }

  async #check(
    p: Principal,
    source: AsyncIterable<Buffer | string>,
    format: BulkFormat,
    importMedia: RowContext['importMedia'],
  ): Promise<Checked> {
    const ctx: RowContext = {
      principal: p,
      networks: this.#d.registry,
      overrides: overrideColumns(this.#d.registry),
      validator: this.#d.validator,
      timeZone: await this.#d.timeZoneOf(p.workspaceId),
      now: this.#d.clock(),
      queues: new QueuePlacer(this.#d.queues, p.workspaceId),
      importMedia,
    };
    // A dry run keeps no accepted row (only the import writes them), only where the rows naming a queue are.
    const posts: RowPost[] = [];
    const queuedRows: { row: number; queue: string }[] = [];
    const errors: RowError[] = [];
    let rows = 0;
    let valid = 0;
    const limits = { maxBytes: BULK_MAX_BYTES, maxRows: BULK_MAX_ROWS, columns: this.columns() };
    for await (const r of readRows(source, format, limits)) {
      rows++;
      if ('error' in r) {
        errors.push({ row: r.row, ...r.error });
        continue;
      }
      const got = await checkRow(r.row, r.cells, ctx);
      if (Array.isArray(got)) errors.push(...got);
      else {
        valid++;
        if (importMedia) posts.push(got);
        else if (got.queue) queuedRows.push({ row: got.row, queue: got.queue });
      }
    }
    return { posts, valid, queuedRows, errors, rows, queues: ctx.queues };
  }

  /** Credits for every scheduled network first, then the queue entries and drafts: one transaction. */
  async #write(p: Principal, posts: RowPost[], heldVia: string | undefined, queues: QueuePlacer) {
    const actor = p.keyId ? `key:${p.keyId}` : `user:${p.user?.id}`;
    const { overrideKeys } = this.#d.registry;
    const scheduledPosts = heldVia ? [] : posts.filter((r) => !r.draft);
    const credits = scheduledPosts.reduce((n, r) => n + r.platforms.length, 0);
    const out = await this.#d.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      if (credits)
        await this.#d.credits.spend(
          {
            workspaceId: p.workspaceId,
            planId: p.planId,
            type: 'scheduled_posts',
            amount: credits,
            reason: 'bulk_import',
          },
          tx,
        );
      const slots = await queues.take(tx, scheduledPosts);
      const entries = await this.#d.schedule.addMany(
        tx,
        scheduledPosts.flatMap((r, i) =>
          r.platforms.map((platform) => ({
            ...(slots[i] ? { queueSlotId: slots[i].queueSlotId, held: slots[i].held } : {}),
            workspaceId: p.workspaceId,
            platform,
            platformUserId: null,
            postType: r.postType,
            postData: storedBody(r.body, platform, overrideKeys),
            scheduledTime: slots[i]?.at ?? r.at!,
            actor,
          })),
        ),
      );
      const rowOf = scheduledPosts.flatMap((r) => r.platforms.map(() => r.row));
      const scheduled = entries.map((e, i) => ({
        row: rowOf[i]!,
        platform: e.platform,
        scheduled_post_id: e.id,
        scheduled_time: e.scheduledTime.toISOString(),
      }));
      // Drafts (and posts held for approval) 2,000 per statement, as the entries above.
      const draftPosts = posts.filter((r) => r.draft || heldVia);
      const saved = await this.#d.drafts.saveMany(
        p.workspaceId,
        draftPosts.map((r) => ({
          postType: r.postType,
          body: r.body,
          platforms: r.platforms,
          held:
            heldVia && !r.draft
              ? { status: 'pending_approval' as const, requestedVia: heldVia, ...requesterOf(p) }
              : undefined,
        })),
        tx,
      );
      const drafts: ImportReport['drafts'] = draftPosts.flatMap((r, i) =>
        saved[i]!.map((d) => ({ row: r.row, platform: d.platform, draft_id: d.draft_id, status: d.status })),
      );
      return { entries, scheduled, drafts };
    });
    await this.#d.schedule.wake(out.entries);
    return { scheduled: out.scheduled, drafts: out.drafts, credits };
  }
}

function report(rows: number, valid: number, errors: RowError[]): BulkReport {
  const invalid = new Set(errors.map((e) => e.row)).size;
  return { success: errors.length === 0, rows, valid, invalid, errors };
}
