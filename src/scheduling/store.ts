// Rows of scheduled_posts and their events. Every status change is one guarded UPDATE (`WHERE status
// IN (allowed)`), so two actors racing (a worker and a cancel) cannot both win; the event is written
// in the same transaction. The worker's statements are in store-worker.ts, the statuses in statuses.ts
// and the wire record in wire.ts.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { and, desc, eq, inArray, sql } from '../db/orm.ts';
import { rowsOf } from '../db/raw.ts';
import { scheduledPostEvents, scheduledPosts } from '../db/schema-scheduling.ts';
import { notFound } from '../errors.ts';
import { postOutcomeEvents } from '../events/index.ts';
import type { ScheduledStatus } from './statuses.ts';
import { ENTRY_OUTCOME, entryEvent, rowOf, table, type ScheduledRow, type SQL } from './store-sql.ts';
import * as worker from './store-worker.ts';
import type { Statements } from './store-worker.ts';

export { ALLOWED_FROM, conflict, STATUSES, type Action, type ScheduledStatus } from './statuses.ts';
export type { ScheduledRow } from './store-sql.ts';
export { scheduledEntrySchema, toWire, type ScheduledEntry } from './wire.ts';

/** A statement's arguments after the database and clock. */
type Args<F> = F extends (s: Statements, ...args: infer A) => unknown ? A : never;

export class ScheduledStore {
  readonly #db: Db;
  readonly #now: () => Date;
  readonly #s: Statements;

  constructor(db: Db, now: () => Date) {
    this.#db = db;
    this.#now = now;
    this.#s = { db, now };
  }

  get db(): Db {
    return this.#db;
  }

  async insert(tx: Db, values: typeof scheduledPosts.$inferInsert, reason: string): Promise<ScheduledRow> {
    const [row] = await tx
      .insert(scheduledPosts)
      .values({ ...values, createdAt: this.#now(), updatedAt: this.#now() })
      .returning();
    // The history line and the post.scheduled event in one statement.
    const now = this.#now();
    await tx.execute(sql`
      with h as (
        insert into scheduled_post_events (scheduled_post_id, from_status, to_status, reason, at)
        values (${row!.id}::uuid, null, ${row!.status}, ${reason}, ${now.toISOString()}::timestamptz)
      ),
      e as (${entryEvent('post.scheduled', sql`(select * from scheduled_posts where id = ${row!.id}::uuid)`, now)})
      select 1`);
    return row!;
  }

  /**
   * Many entries in one statement per 2,000: the rows travel as one JSON parameter (jsonb_to_recordset), and the same
   * statement writes their history lines ("scheduled for <time>", as insert() writes them) and post.scheduled events.
   * Ids are made here, so the rows come back in the order given.
   */
  async insertMany(tx: Db, values: (typeof scheduledPosts.$inferInsert)[]): Promise<ScheduledRow[]> {
    const out: ScheduledRow[] = [];
    await this.#insertMany(tx, values, sql`*`, (row) => out.push(rowOf(row)));
    return out;
  }

  /** insertMany without the rows: only each entry's id, network and time come back (a bulk import's report). */
  async insertManyRefs(
    tx: Db,
    values: (typeof scheduledPosts.$inferInsert)[],
  ): Promise<{ id: string; platform: string; scheduledTime: Date }[]> {
    const out: { id: string; platform: string; scheduledTime: Date }[] = [];
    await this.#insertMany(tx, values, sql`id, platform, scheduled_time`, (row) =>
      out.push({
        id: row.id as string,
        platform: row.platform as string,
        scheduledTime: new Date(row.scheduled_time as string),
      }),
    );
    return out;
  }

  async #insertMany(
    tx: Db,
    values: (typeof scheduledPosts.$inferInsert)[],
    columns: SQL,
    /** Each inserted row's `columns`, in the order of `values`. */
    take: (row: Record<string, unknown>) => void,
  ): Promise<void> {
    for (let i = 0; i < values.length; i += 2000) {
      const now = this.#now();
      const chunk = values.slice(i, i + 2000).map((v) => ({
        id: v.id ?? randomUUID(),
        workspace_id: v.workspaceId,
        platform: v.platform,
        platform_user_id: v.platformUserId ?? null,
        post_type: v.postType,
        post_data: v.postData,
        scheduled_time: v.scheduledTime.toISOString(),
        actor: v.actor ?? null,
        queue_slot_id: v.queueSlotId ?? null,
        held: v.held ?? false,
      }));
      const res = await tx.execute(sql`
        with r as (
          insert into scheduled_posts (id, workspace_id, platform, platform_user_id, post_type, post_data,
            scheduled_time, actor, queue_slot_id, held, created_at, updated_at)
          select id, workspace_id, platform, platform_user_id, post_type, post_data, scheduled_time, actor,
            queue_slot_id, held, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
          from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as x(id uuid, workspace_id uuid, platform text,
            platform_user_id text, post_type text, post_data jsonb, scheduled_time timestamptz, actor text,
            queue_slot_id uuid, held boolean)
          returning *
        ),
        h as (
          insert into scheduled_post_events (scheduled_post_id, from_status, to_status, reason, at)
          select id, null, status,
            'scheduled for ' || to_char(scheduled_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            ${now.toISOString()}::timestamptz
          from r
        ),
        e as (${entryEvent('post.scheduled', sql`r`, now)})
        select ${columns} from r`);
      const byId = new Map(rowsOf(res).map((row) => [row.id as string, row]));
      for (const v of chunk) take(byId.get(v.id)!);
    }
  }

  async event(tx: Db, id: string, from: string | null, to: string, reason: string): Promise<void> {
    await tx
      .insert(scheduledPostEvents)
      .values({ scheduledPostId: id, fromStatus: from, toStatus: to, reason, at: this.#now() });
  }

  async events(id: string) {
    return this.#db
      .select()
      .from(scheduledPostEvents)
      .where(eq(scheduledPostEvents.scheduledPostId, id))
      .orderBy(scheduledPostEvents.seq);
  }

  async byId(id: string): Promise<ScheduledRow | undefined> {
    const [row] = await this.#db.select().from(scheduledPosts).where(eq(scheduledPosts.id, id));
    return row;
  }

  async owned(workspaceId: string, id: string): Promise<ScheduledRow> {
    const [row] = await this.#db
      .select()
      .from(scheduledPosts)
      .where(and(eq(scheduledPosts.id, id), eq(scheduledPosts.workspaceId, workspaceId)));
    if (!row) throw notFound('Scheduled post not found');
    return row;
  }

  /**
   * Moves a row from one of `from` to `to` with `patch`, recording the event; undefined when the row
   * was not in an allowed status any more (someone else moved it first). One statement: the row is
   * locked (FOR UPDATE) to read the status it leaves, updated only from an allowed status, and the event
   * (whose reason may depend on that status) written with it, in data-modifying CTEs.
   */
  async transition(
    id: string,
    from: readonly string[],
    to: ScheduledStatus,
    reason: string | ((from: string) => string),
    patch: Partial<typeof scheduledPosts.$inferInsert> = {},
    tx?: Db,
    /** An event of the change besides a post's outcome (which `published`/`failed` always write). */
    emit?: 'post.rescheduled' | 'post.deleted',
  ): Promise<ScheduledRow | undefined> {
    const res = await (tx ?? this.#db).execute(
      sql`with ${this.transitionSql(id, from, to, reason, patch, emit)} select * from moved`,
    );
    const [raw] = rowsOf(res);
    return raw ? rowOf(raw) : undefined;
  }

  /**
   * The CTEs of transition() (named `before`, `moved`, `events`, `outcome`, `emitted`), for a statement of another
   * module that writes the change with its own (the target's published state: one commit for both). `targets`: the
   * CTE of post_targets rows that statement changes, which the outcome event reads instead of the stored rows.
   */
  transitionSql(
    id: string,
    from: readonly string[],
    to: ScheduledStatus,
    reason: string | ((from: string) => string),
    patch: Partial<typeof scheduledPosts.$inferInsert> = {},
    emit?: 'post.rescheduled' | 'post.deleted',
    targets?: SQL,
  ): SQL {
    const now = this.#now();
    const values: Record<string, unknown> = { ...patch, status: to, updatedAt: now };
    const set = table.set(values);
    const allowed = sql.join(
      from.map((f) => sql`${f}`),
      sql`, `,
    );
    const why =
      typeof reason === 'string'
        ? sql`${reason}`
        : sql`case ${sql.join(
            from.map((f) => sql`when moved.prior_status = ${f} then ${reason(f)}`),
            sql` `,
          )} end`;
    return sql`
      before as (
        select id, status, scheduled_time from scheduled_posts where id = ${id}::uuid for update
      ),
      moved as (
        update scheduled_posts sp set ${set}
        from before
        where sp.id = before.id and before.status in (${allowed}) and sp.status in (${allowed})
        returning sp.*, before.status as prior_status, before.scheduled_time as prior_scheduled_time
      ),
      events as (
        insert into scheduled_post_events (scheduled_post_id, from_status, to_status, reason, at)
        select moved.id, moved.prior_status, ${to}, ${why}, ${now.toISOString()}::timestamptz
        from moved
      )${to === 'published' || to === 'failed' ? sql`, outcome as (${postOutcomeEvents(ENTRY_OUTCOME('moved'), now, targets)})` : sql``}${
        emit ? sql`, emitted as (${entryEvent(emit, sql`moved`, now)})` : sql``
      }`;
  }

  async list(
    workspaceId: string,
    f: {
      platform?: string | undefined;
      platformUserId?: string | undefined;
      status?: string | undefined;
      platforms: string[];
      limit: number;
      offset: number;
    },
  ): Promise<ScheduledRow[]> {
    const where = and(
      eq(scheduledPosts.workspaceId, workspaceId),
      inArray(scheduledPosts.platform, f.platforms.length ? f.platforms : ['']),
      f.platform ? eq(scheduledPosts.platform, f.platform) : undefined,
      f.platformUserId ? eq(scheduledPosts.platformUserId, f.platformUserId) : undefined,
      f.status ? eq(scheduledPosts.status, f.status) : undefined,
    );
    return this.#db
      .select()
      .from(scheduledPosts)
      .where(where)
      .orderBy(scheduledPosts.scheduledTime, desc(scheduledPosts.createdAt))
      .limit(f.limit)
      .offset(f.offset);
  }

  // ---- The worker's statements (store-worker.ts): claims, leases, the ledger link. ----
  failMissed(...a: Args<typeof worker.failMissed>) {
    return worker.failMissed(this.#s, ...a);
  }
  claim(...a: Args<typeof worker.claim>) {
    return worker.claim(this.#s, ...a);
  }
  renewLeases(...a: Args<typeof worker.renewLeases>) {
    return worker.renewLeases(this.#s, ...a);
  }
  unlinkPost(...a: Args<typeof worker.unlinkPost>) {
    return worker.unlinkPost(this.#s, ...a);
  }
  linkIfUnlinked(...a: Parameters<typeof worker.linkIfUnlinked>) {
    return worker.linkIfUnlinked(...a);
  }
  startIfStillMine(...a: Args<typeof worker.startIfStillMine>) {
    return worker.startIfStillMine(this.#s, ...a);
  }
  notePublished(...a: Args<typeof worker.notePublished>) {
    return worker.notePublished(this.#s, ...a);
  }
  stats(...a: Args<typeof worker.stats>) {
    return worker.stats(this.#s, ...a);
  }
}
