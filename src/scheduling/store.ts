// Rows of scheduled_posts and their events. Every status change is one guarded UPDATE (`WHERE status
// IN (allowed)`), so two actors racing (a worker and a cancel) cannot both win; the event is written
// in the same transaction.
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { and, desc, eq, inArray, isNull, sql } from '../db/orm.ts';
import { rawTable, rowsOf } from '../db/raw.ts';
import { scheduledPostEvents, scheduledPosts } from '../db/schema-scheduling.ts';
import { AppError, notFound } from '../errors.ts';
import { postOutcomeEvents } from '../events/index.ts';
import { formatted, localIso, timeUntil } from './time.ts';

export type ScheduledRow = typeof scheduledPosts.$inferSelect;

const table = rawTable(scheduledPosts);
const rowOf = table.row;
const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
/** An entry's outcome event source (postOutcomeEvents) from a CTE of scheduled_posts rows that just ended. */
const ENTRY_OUTCOME = (cte: string) =>
  sql`(select workspace_id, post_id, id as scheduled_post_id, platform, post_type, error_message from ${sql.identifier(cte)})`;

const utc = (col: string) => sql`to_char(${sql.identifier(col)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `insert into events …` describing each queue entry of `rows` (scheduled_posts rows; `moved` of a transition
 * also has prior_scheduled_time): post.scheduled, post.rescheduled (only when the time changed) or post.deleted.
 */
function entryEvent(type: 'post.scheduled' | 'post.rescheduled' | 'post.deleted', rows: SQL, now: Date): SQL {
  const data =
    type === 'post.deleted'
      ? sql`jsonb_build_object('post_id', post_id, 'scheduled_post_id', id, 'platforms', jsonb_build_array(platform))`
      : sql`jsonb_build_object('scheduled_post_id', id, 'platform', platform, 'platform_user_id', platform_user_id,
          'post_type', post_type, 'scheduled_time', ${utc('scheduled_time')}${
            type === 'post.rescheduled' ? sql`, 'previous_scheduled_time', ${utc('prior_scheduled_time')}` : sql``
          })`;
  return sql`
    insert into events (workspace_id, type, post_id, platform, data, occurred_at)
    select workspace_id, ${type}, ${type === 'post.deleted' ? sql`post_id` : sql`null::uuid`}, platform, ${data},
      ${now.toISOString()}::timestamptz
    from ${rows} r${type === 'post.rescheduled' ? sql` where scheduled_time <> prior_scheduled_time` : sql``}`;
}

type SQL = ReturnType<typeof sql>;

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

const VERB: Record<Action, string> = {
  cancel: 'cancelled',
  publishNow: 'published now',
  edit: 'edited or rescheduled',
  moveToDraft: 'moved to drafts',
};

export function conflict(action: Action, status: string): AppError {
  return new AppError(
    'conflict',
    `This scheduled post is '${status}' and cannot be ${VERB[action]}: that is allowed only from ${ALLOWED_FROM[action].join(', ')}.`,
  );
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
    const res = await (tx ?? this.#db).execute(sql`
      with before as (
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
      )${to === 'published' || to === 'failed' ? sql`, outcome as (${postOutcomeEvents(ENTRY_OUTCOME('moved'), now)})` : sql``}${
        emit ? sql`, emitted as (${entryEvent(emit, sql`moved`, now)})` : sql``
      }
      select * from moved`);
    const [raw] = rowsOf(res);
    return raw ? rowOf(raw) : undefined;
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

  // ---- The worker's statements: claims, leases, the ledger link. ----

  /**
   * Due entries past the grace period become failed (missed), with their events (reason: `missed: due
   * <time>, found at <now>, past the grace period`): one statement (data-modifying CTEs), so a round
   * with nothing missed costs one round trip and no transaction.
   */
  async failMissed(cutoff: Date, message: string): Promise<ScheduledRow[]> {
    const now = this.#now().toISOString();
    const res = await this.#db.execute(sql`
      with missed as (
        update scheduled_posts set status = 'failed', error_message = ${message}, updated_at = ${now}::timestamptz
        where status = 'scheduled' and scheduled_time < ${cutoff.toISOString()}::timestamptz
        returning *
      ),
      events as (
        insert into scheduled_post_events (scheduled_post_id, from_status, to_status, reason, at)
        select id, 'scheduled', 'failed',
          'missed: due ' || to_char(scheduled_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ${`, found at ${now}, past the grace period`},
          ${now}::timestamptz
        from missed
      ),
      outcome as (${postOutcomeEvents(ENTRY_OUTCOME('missed'), this.#now())})
      select * from missed`);
    return rowsOf(res).map(rowOf);
  }

  /**
   * Claims up to `limit` entries that are due (not before `cutoff`) or whose lease passed (a dead worker,
   * or a retry whose time came), skipping rows another worker holds and those in `exclude`.
   *
   * ONE statement: the two kinds are two index-ordered queries (status, scheduled_time) joined by UNION
   * ALL, each locking at most `limit` rows with FOR UPDATE SKIP LOCKED (an OR of both would sort every
   * due row first), then the guarded UPDATE to 'publishing' and the claim events, in data-modifying CTEs.
   * A statement is atomic on its own: no BEGIN/COMMIT round trips.
   */
  async claim(o: {
    workerId: string;
    only: string[] | undefined;
    exclude: string[];
    limit: number;
    cutoff: Date;
    leaseMs: number;
  }): Promise<ScheduledRow[]> {
    if (o.limit <= 0 || (o.only && !o.only.length)) return [];
    const now = this.#now();
    const at = sql`${now.toISOString()}::timestamptz`;
    const via = o.only ? 'queue' : 'scan';
    const only = o.only ? sql` and id in (${idList(o.only)})` : sql``;
    const mine = o.exclude.length ? sql` and id not in (${idList(o.exclude)})` : sql``;
    const due = sql`status = 'scheduled' and scheduled_time <= ${at} and scheduled_time >= ${o.cutoff.toISOString()}::timestamptz`;
    const stale = sql`status = 'publishing' and (claimed_until is null or claimed_until < ${at})`;
    const res = await this.#db.execute(sql`
      with due as (
        select id, status, scheduled_time from scheduled_posts where ${due}${only}${mine} order by scheduled_time limit ${o.limit} for update skip locked
      ),
      stale as (
        select id, status, scheduled_time from scheduled_posts where ${stale}${only}${mine} order by scheduled_time limit ${o.limit} for update skip locked
      ),
      picked as (
        select id, status, scheduled_time from (select * from due union all select * from stale) c order by scheduled_time limit ${o.limit}
      ),
      claimed as (
        update scheduled_posts sp
        set status = 'publishing', claimed_by = ${o.workerId}, claimed_until = ${new Date(now.getTime() + o.leaseMs).toISOString()}::timestamptz, attempts = sp.attempts + 1, updated_at = ${at}
        from picked
        where sp.id = picked.id and ((sp.status = 'scheduled' and picked.status = 'scheduled') or (sp.status = 'publishing' and picked.status = 'publishing'))
        returning sp.*, picked.status as prior_status
      ),
      events as (
        insert into scheduled_post_events (scheduled_post_id, from_status, to_status, reason, at)
        select id, prior_status, 'publishing',
          case when prior_status = 'scheduled' then ${`due; claimed by ${o.workerId} (${via})`}
          else 'attempt ' || attempts || ${`: claimed by ${o.workerId} (${via}) after the previous claim expired or its retry time came`} end,
          ${at}
        from claimed
      )
      select * from claimed`);
    return rowsOf(res)
      .map(rowOf)
      .sort((a, b) => a.scheduledTime.getTime() - b.scheduledTime.getTime());
  }

  /** Heartbeat: the claims `workerId` still holds last until `until`. */
  async renewLeases(ids: string[], workerId: string, until: Date): Promise<void> {
    await this.#db
      .update(scheduledPosts)
      .set({ claimedUntil: until })
      .where(
        and(
          inArray(scheduledPosts.id, ids),
          eq(scheduledPosts.claimedBy, workerId),
          eq(scheduledPosts.status, 'publishing'),
        ),
      );
  }

  /** Forgets the entry's ledger post (a retry starts over); false when the claim was lost. */
  async unlinkPost(id: string, claimedBy: string): Promise<boolean> {
    const rows = await this.#db
      .update(scheduledPosts)
      .set({ postId: null })
      .where(and(eq(scheduledPosts.id, id), eq(scheduledPosts.claimedBy, claimedBy)))
      .returning({ id: scheduledPosts.id });
    return rows.length > 0;
  }

  /**
   * Inside the ledger transaction, after the post and its targets were inserted: links the entry to its
   * ledger post only if this claim still holds it and it has none yet (the guarded UPDATE locks the row
   * until the commit). False when the claim was lost: the caller rolls back.
   */
  async linkIfUnlinked(tx: Db, id: string, claimedBy: string, postId: string): Promise<boolean> {
    const rows = await tx
      .update(scheduledPosts)
      .set({ postId })
      .where(
        and(
          eq(scheduledPosts.id, id),
          eq(scheduledPosts.status, 'publishing'),
          eq(scheduledPosts.claimedBy, claimedBy),
          isNull(scheduledPosts.postId),
        ),
      )
      .returning({ id: scheduledPosts.id });
    return rows.length > 0;
  }

  /**
   * The last check before the network, and the start of the attempt, in one statement: the targets
   * become 'processing' (attempts + 1) only while the entry is still 'publishing' under this claim.
   * False when it is not (cancelled, or claimed by someone else): nothing was started.
   */
  async startIfStillMine(id: string, claimedBy: string | null, targetIds: string[]): Promise<boolean> {
    const mine = sql`exists (select 1 from scheduled_posts where id = ${id}::uuid and status = 'publishing' and claimed_by is not distinct from ${claimedBy})`;
    if (!targetIds.length) return rowsOf(await this.#db.execute(sql`select ${mine} as ok`))[0]?.ok === true;
    const res = await this.#db.execute(sql`
      update post_targets set state = 'processing', attempts = attempts + 1, updated_at = ${this.#now().toISOString()}::timestamptz
      where id in (${idList(targetIds)}) and ${mine}
      returning id`);
    return rowsOf(res).length > 0;
  }

  /** A partly published entry shows the post that did go out. */
  async notePublished(id: string, postId: string | null, url: string | null): Promise<void> {
    await this.#db
      .update(scheduledPosts)
      .set({ publishedPostId: postId, publishedPostUrl: url })
      .where(eq(scheduledPosts.id, id));
  }

  /** Queue figures for /metrics and readiness. */
  async stats(
    graceCutoff: Date,
  ): Promise<{ scheduled: number; due: number; publishing: number; overdueOldest: Date | null }> {
    const now = this.#now();
    const [r] = await this.#db
      .select({
        scheduled: sql<number>`count(*) filter (where ${scheduledPosts.status} = 'scheduled')::int`,
        due: sql<number>`count(*) filter (where ${scheduledPosts.status} = 'scheduled' and ${scheduledPosts.scheduledTime} <= ${now.toISOString()}::timestamptz)::int`,
        publishing: sql<number>`count(*) filter (where ${scheduledPosts.status} = 'publishing')::int`,
        oldest: sql<
          string | null
        >`min(${scheduledPosts.scheduledTime}) filter (where ${scheduledPosts.status} = 'scheduled' and ${scheduledPosts.scheduledTime} <= ${now.toISOString()}::timestamptz and ${scheduledPosts.scheduledTime} >= ${graceCutoff.toISOString()}::timestamptz)`,
      })
      .from(scheduledPosts)
      .where(inArray(scheduledPosts.status, ['scheduled', 'publishing']));
    return {
      scheduled: Number(r?.scheduled ?? 0),
      due: Number(r?.due ?? 0),
      publishing: Number(r?.publishing ?? 0),
      overdueOldest: r?.oldest ? new Date(r.oldest) : null,
    };
  }
}

/** The wire record (contract-gaps §1): times in UTC plus the workspace's zone. */
/** A queue entry on the wire (GET/PATCH /unified/scheduled-posts and the actions on one). */
export const scheduledEntrySchema = z.object({
  scheduled_post_id: z.string(),
  platform: z.string(),
  platform_user_id: z.string().nullable(),
  post_type: z.string(),
  post_data: z
    .looseObject({})
    .describe("The post body stored for this network (the post routes' fields, this network's override only)."),
  scheduled_time: z.string(),
  scheduled_time_local: z.string(),
  scheduled_time_formatted: z.string(),
  status: z.enum(STATUSES as [ScheduledStatus, ...ScheduledStatus[]]),
  time_until_scheduled: z.string().nullable(),
  published_post_id: z.string().nullable(),
  published_post_url: z.string().nullable(),
  error_message: z.string().nullable(),
  attempts: z
    .number()
    .int()
    .describe('How many times publishing was started (retries after a transient failure add one)'),
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
    attempts: row.attempts,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
  };
}
