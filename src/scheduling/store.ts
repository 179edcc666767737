// Rows of scheduled_posts and their events. Every status change is one guarded UPDATE (`WHERE status
// IN (allowed)`), so two actors racing (a worker and a cancel) cannot both win; the event is written
// in the same transaction.
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { and, desc, eq, gte, inArray, isNull, lt, lte, notInArray, or, sql } from '../db/orm.ts';
import { scheduledPostEvents, scheduledPosts } from '../db/schema-scheduling.ts';
import { AppError, notFound } from '../errors.ts';
import { formatted, localIso, timeUntil } from './time.ts';

export type ScheduledRow = typeof scheduledPosts.$inferSelect;
export type ScheduledStatus = 'scheduled' | 'publishing' | 'published' | 'failed' | 'cancelled';
export const STATUSES: ScheduledStatus[] = ['scheduled', 'publishing', 'published', 'failed', 'cancelled'];

/** Which statuses each user action may start from (docs/scheduling.md has the table). */
export const ALLOWED_FROM = {
  cancel: ['scheduled', 'failed', 'publishing'],
  publishNow: ['scheduled', 'failed'],
  edit: ['scheduled', 'failed'],
  moveToDraft: ['scheduled', 'failed'],
} as const satisfies Record<string, readonly ScheduledStatus[]>;

export type Action = keyof typeof ALLOWED_FROM;

const VERB: Record<Action, string> = { cancel: 'cancelled', publishNow: 'published now', edit: 'edited or rescheduled', moveToDraft: 'moved to drafts' };

export function conflict(action: Action, status: string): AppError {
  return new AppError('conflict', `This scheduled post is '${status}' and cannot be ${VERB[action]}: that is allowed only from ${ALLOWED_FROM[action].join(', ')}.`);
}

export class ScheduledStore {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  get db(): Db {
    return this.#db;
  }

  async insert(tx: Db, values: typeof scheduledPosts.$inferInsert, reason: string): Promise<ScheduledRow> {
    const [row] = await tx.insert(scheduledPosts).values({ ...values, createdAt: this.#now(), updatedAt: this.#now() }).returning();
    await this.event(tx, row!.id, null, row!.status, reason);
    return row!;
  }

  async event(tx: Db, id: string, from: string | null, to: string, reason: string): Promise<void> {
    await tx.insert(scheduledPostEvents).values({ scheduledPostId: id, fromStatus: from, toStatus: to, reason, at: this.#now() });
  }

  async events(id: string) {
    return this.#db.select().from(scheduledPostEvents).where(eq(scheduledPostEvents.scheduledPostId, id)).orderBy(scheduledPostEvents.seq);
  }

  async byId(id: string): Promise<ScheduledRow | undefined> {
    const [row] = await this.#db.select().from(scheduledPosts).where(eq(scheduledPosts.id, id));
    return row;
  }

  async owned(workspaceId: string, id: string): Promise<ScheduledRow> {
    const [row] = await this.#db.select().from(scheduledPosts).where(and(eq(scheduledPosts.id, id), eq(scheduledPosts.workspaceId, workspaceId)));
    if (!row) throw notFound('Scheduled post not found');
    return row;
  }

  /**
   * Moves a row from one of `from` to `to` with `patch`, recording the event; undefined when the row
   * was not in an allowed status any more (someone else moved it first).
   */
  async transition(id: string, from: readonly string[], to: ScheduledStatus, reason: string, patch: Partial<typeof scheduledPosts.$inferInsert> = {}, tx?: Db): Promise<ScheduledRow | undefined> {
    const run = async (t: Db) => {
      const [before] = await t.select({ status: scheduledPosts.status }).from(scheduledPosts).where(eq(scheduledPosts.id, id)).for('update');
      if (!before || !from.includes(before.status)) return undefined;
      const [row] = await t
        .update(scheduledPosts)
        .set({ ...patch, status: to, updatedAt: this.#now() })
        .where(and(eq(scheduledPosts.id, id), inArray(scheduledPosts.status, [...from])))
        .returning();
      if (!row) return undefined;
      await this.event(t, id, before.status, to, reason);
      return row;
    };
    return tx ? run(tx) : this.#db.transaction(async (t) => run(t as unknown as Db));
  }

  async list(workspaceId: string, f: { platform?: string | undefined; platformUserId?: string | undefined; status?: string | undefined; platforms: string[]; limit: number; offset: number }): Promise<ScheduledRow[]> {
    const where = and(
      eq(scheduledPosts.workspaceId, workspaceId),
      inArray(scheduledPosts.platform, f.platforms.length ? f.platforms : ['']),
      f.platform ? eq(scheduledPosts.platform, f.platform) : undefined,
      f.platformUserId ? eq(scheduledPosts.platformUserId, f.platformUserId) : undefined,
      f.status ? eq(scheduledPosts.status, f.status) : undefined,
    );
    return this.#db.select().from(scheduledPosts).where(where).orderBy(scheduledPosts.scheduledTime, desc(scheduledPosts.createdAt)).limit(f.limit).offset(f.offset);
  }

  // ---- The worker's statements: claims, leases, the ledger link. ----

  /** Due entries past the grace period become failed (missed), with their events. */
  async failMissed(cutoff: Date, message: string, reason: (r: ScheduledRow) => string): Promise<ScheduledRow[]> {
    const now = this.#now();
    return this.#db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const rows = await tx
        .update(scheduledPosts)
        .set({ status: 'failed', errorMessage: message, updatedAt: now })
        .where(and(eq(scheduledPosts.status, 'scheduled'), lt(scheduledPosts.scheduledTime, cutoff)))
        .returning();
      for (const r of rows) await this.event(tx, r.id, 'scheduled', 'failed', reason(r));
      return rows;
    });
  }

  /**
   * Claims up to `limit` entries that are due (not before `cutoff`) or whose lease passed (a dead worker,
   * or a retry whose time came), skipping rows another worker holds and those in `exclude`.
   */
  async claim(o: { workerId: string; only: string[] | undefined; exclude: string[]; limit: number; cutoff: Date; leaseMs: number }): Promise<ScheduledRow[]> {
    const now = this.#now();
    const due = and(eq(scheduledPosts.status, 'scheduled'), lte(scheduledPosts.scheduledTime, now), gte(scheduledPosts.scheduledTime, o.cutoff));
    const stale = and(eq(scheduledPosts.status, 'publishing'), or(isNull(scheduledPosts.claimedUntil), lt(scheduledPosts.claimedUntil, now)));
    const via = o.only ? 'queue' : 'scan';
    return this.#db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const mine = o.exclude.length ? notInArray(scheduledPosts.id, o.exclude) : undefined;
      const before = await tx
        .select({ id: scheduledPosts.id, status: scheduledPosts.status })
        .from(scheduledPosts)
        .where(and(or(due, stale), o.only ? inArray(scheduledPosts.id, o.only) : undefined, mine))
        .orderBy(scheduledPosts.scheduledTime)
        .limit(o.limit)
        .for('update', { skipLocked: true });
      if (!before.length) return [];
      const prior = new Map(before.map((r) => [r.id, r.status]));
      const rows = await tx
        .update(scheduledPosts)
        .set({ status: 'publishing', claimedBy: o.workerId, claimedUntil: new Date(now.getTime() + o.leaseMs), attempts: sql`${scheduledPosts.attempts} + 1`, updatedAt: now })
        .where(and(inArray(scheduledPosts.id, [...prior.keys()]), or(due, stale)))
        .returning();
      for (const r of rows) {
        const from = prior.get(r.id) ?? 'scheduled';
        await this.event(tx, r.id, from, 'publishing', from === 'scheduled' ? `due; claimed by ${o.workerId} (${via})` : `attempt ${r.attempts}: claimed by ${o.workerId} (${via}) after the previous claim expired or its retry time came`);
      }
      return rows;
    });
  }

  /** Heartbeat: the claims `workerId` still holds last until `until`. */
  async renewLeases(ids: string[], workerId: string, until: Date): Promise<void> {
    await this.#db
      .update(scheduledPosts)
      .set({ claimedUntil: until })
      .where(and(inArray(scheduledPosts.id, ids), eq(scheduledPosts.claimedBy, workerId), eq(scheduledPosts.status, 'publishing')));
  }

  /** Forgets the entry's ledger post (a retry starts over); false when the claim was lost. */
  async unlinkPost(id: string, claimedBy: string): Promise<boolean> {
    const rows = await this.#db.update(scheduledPosts).set({ postId: null }).where(and(eq(scheduledPosts.id, id), eq(scheduledPosts.claimedBy, claimedBy))).returning({ id: scheduledPosts.id });
    return rows.length > 0;
  }

  /** Inside the ledger transaction: locks the entry if this claim still holds it and it has no ledger post yet. */
  async lockUnlinked(tx: Db, id: string, claimedBy: string): Promise<boolean> {
    const [mine] = await tx
      .select({ id: scheduledPosts.id })
      .from(scheduledPosts)
      .where(and(eq(scheduledPosts.id, id), eq(scheduledPosts.status, 'publishing'), eq(scheduledPosts.claimedBy, claimedBy), isNull(scheduledPosts.postId)))
      .for('update');
    return Boolean(mine);
  }

  async linkPost(tx: Db, id: string, postId: string): Promise<void> {
    await tx.update(scheduledPosts).set({ postId }).where(eq(scheduledPosts.id, id));
  }

  /** A partly published entry shows the post that did go out. */
  async notePublished(id: string, postId: string | null, url: string | null): Promise<void> {
    await this.#db.update(scheduledPosts).set({ publishedPostId: postId, publishedPostUrl: url }).where(eq(scheduledPosts.id, id));
  }

  /** Queue figures for /metrics and readiness. */
  async stats(graceCutoff: Date): Promise<{ scheduled: number; due: number; publishing: number; overdueOldest: Date | null }> {
    const now = this.#now();
    const [r] = await this.#db
      .select({
        scheduled: sql<number>`count(*) filter (where ${scheduledPosts.status} = 'scheduled')::int`,
        due: sql<number>`count(*) filter (where ${scheduledPosts.status} = 'scheduled' and ${scheduledPosts.scheduledTime} <= ${now.toISOString()}::timestamptz)::int`,
        publishing: sql<number>`count(*) filter (where ${scheduledPosts.status} = 'publishing')::int`,
        oldest: sql<string | null>`min(${scheduledPosts.scheduledTime}) filter (where ${scheduledPosts.status} = 'scheduled' and ${scheduledPosts.scheduledTime} <= ${now.toISOString()}::timestamptz and ${scheduledPosts.scheduledTime} >= ${graceCutoff.toISOString()}::timestamptz)`,
      })
      .from(scheduledPosts)
      .where(inArray(scheduledPosts.status, ['scheduled', 'publishing']));
    return { scheduled: Number(r?.scheduled ?? 0), due: Number(r?.due ?? 0), publishing: Number(r?.publishing ?? 0), overdueOldest: r?.oldest ? new Date(r.oldest) : null };
  }
}

/** The wire record (contract-gaps §1): times in UTC plus the workspace's zone. */
/** A queue entry on the wire (GET/PATCH /unified/scheduled-posts and the actions on one). */
export const scheduledEntrySchema = z.object({
  scheduled_post_id: z.string(),
  platform: z.string(),
  platform_user_id: z.string().nullable(),
  post_type: z.string(),
  post_data: z.looseObject({}).describe('The post body stored for this network (the post routes\' fields, this network\'s override only).'),
  scheduled_time: z.string(),
  scheduled_time_local: z.string(),
  scheduled_time_formatted: z.string(),
  status: z.enum(STATUSES as [ScheduledStatus, ...ScheduledStatus[]]),
  time_until_scheduled: z.string().nullable(),
  published_post_id: z.string().nullable(),
  published_post_url: z.string().nullable(),
  error_message: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  published_at: z.string().nullable(),
});
export type ScheduledEntry = z.infer<typeof scheduledEntrySchema>;

export function toWire(row: ScheduledRow, timeZone: string, now: Date): ScheduledEntry {
  return {
    scheduled_post_id: row.id,
    platform: row.platform,
    platform_user_id: row.platformUserId,
    post_type: row.postType,
    post_data: row.postData as Record<string, unknown>,
    scheduled_time: row.scheduledTime.toISOString(),
    scheduled_time_local: localIso(row.scheduledTime, timeZone),
    scheduled_time_formatted: formatted(row.scheduledTime, timeZone),
    status: row.status as ScheduledStatus,
    time_until_scheduled: row.status === 'scheduled' ? timeUntil(row.scheduledTime, now) : null,
    published_post_id: row.publishedPostId,
    published_post_url: row.publishedPostUrl,
    error_message: row.errorMessage,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
  };
}
