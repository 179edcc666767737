// The scheduling worker's statements on scheduled_posts: missed entries, claims and their leases, the link to the
// ledger post, the last check before the network, and the queue's figures. Each is one guarded statement, so two
// workers (or a worker and a cancel) racing cannot both win.
import type { Db } from '../db/client.ts';
import { and, eq, inArray, isNull, sql } from '../db/orm.ts';
import { rowsOf } from '../db/raw.ts';
import { scheduledPosts } from '../db/schema-scheduling.ts';
import { postOutcomeEvents } from '../events/index.ts';
import { ENTRY_OUTCOME, idList, rowOf, type ScheduledRow } from './store-sql.ts';

/** The database and clock the statements run with. */
export interface Statements {
  db: Db;
  now: () => Date;
}

/**
 * Due entries past the grace period become failed (missed), with their events (reason: `missed: due
 * <time>, found at <now>, past the grace period`): one statement (data-modifying CTEs), so a round
 * with nothing missed costs one round trip and no transaction.
 */
export async function failMissed(s: Statements, cutoff: Date, message: string): Promise<ScheduledRow[]> {
  const now = s.now().toISOString();
  const res = await s.db.execute(sql`
    with missed as (
      update scheduled_posts set status = 'failed', error_message = ${message}, updated_at = ${now}::timestamptz
      where status = 'scheduled' and not held and scheduled_time < ${cutoff.toISOString()}::timestamptz
      returning *
    ),
    events as (
      insert into scheduled_post_events (scheduled_post_id, from_status, to_status, reason, at)
      select id, 'scheduled', 'failed',
        'missed: due ' || to_char(scheduled_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ${`, found at ${now}, past the grace period`},
        ${now}::timestamptz
      from missed
    ),
    outcome as (${postOutcomeEvents(ENTRY_OUTCOME('missed'), s.now())})
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
export async function claim(
  s: Statements,
  o: {
    workerId: string;
    only: string[] | undefined;
    exclude: string[];
    limit: number;
    cutoff: Date;
    leaseMs: number;
  },
): Promise<ScheduledRow[]> {
  if (o.limit <= 0 || (o.only && !o.only.length)) return [];
  const now = s.now();
  const at = sql`${now.toISOString()}::timestamptz`;
  const via = o.only ? 'queue' : 'scan';
  const only = o.only ? sql` and id in (${idList(o.only)})` : sql``;
  const mine = o.exclude.length ? sql` and id not in (${idList(o.exclude)})` : sql``;
  // A paused posting queue holds its entries: they are neither claimed nor failed as missed until it resumes.
  const due = sql`status = 'scheduled' and not held and scheduled_time <= ${at} and scheduled_time >= ${o.cutoff.toISOString()}::timestamptz`;
  const stale = sql`status = 'publishing' and (claimed_until is null or claimed_until < ${at})`;
  const res = await s.db.execute(sql`
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

/**
 * Heartbeat: the claims `workerId` still holds last until `until`. A row another transaction holds locked right now
 * (this worker's own ledger transaction linking it, its status change, a cancellation) is skipped, not waited for:
 * waiting would hold the rows already renewed and make that transaction's peers wait in turn. It is renewed at the
 * next beat, a third of a lease later.
 */
export async function renewLeases(s: Statements, ids: string[], workerId: string, until: Date): Promise<void> {
  if (!ids.length) return;
  await s.db.execute(sql`
    update scheduled_posts set claimed_until = ${until.toISOString()}::timestamptz
    where id in (
      select id from scheduled_posts
      where id in (${idList(ids)}) and claimed_by = ${workerId} and status = 'publishing'
      for update skip locked
    )`);
}

/** Forgets the entry's ledger post (a retry starts over); false when the claim was lost. */
export async function unlinkPost(s: Statements, id: string, claimedBy: string): Promise<boolean> {
  const rows = await s.db
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
export async function linkIfUnlinked(tx: Db, id: string, claimedBy: string, postId: string): Promise<boolean> {
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
export async function startIfStillMine(
  s: Statements,
  id: string,
  claimedBy: string | null,
  targetIds: string[],
): Promise<boolean> {
  const mine = sql`exists (select 1 from scheduled_posts where id = ${id}::uuid and status = 'publishing' and claimed_by is not distinct from ${claimedBy})`;
  if (!targetIds.length) return rowsOf(await s.db.execute(sql`select ${mine} as ok`))[0]?.ok === true;
  const res = await s.db.execute(sql`
    update post_targets set state = 'processing', attempts = attempts + 1, updated_at = ${s.now().toISOString()}::timestamptz
    where id in (${idList(targetIds)}) and ${mine}
    returning id`);
  return rowsOf(res).length > 0;
}

/** A partly published entry shows the post that did go out. */
export async function notePublished(
  s: Statements,
  id: string,
  postId: string | null,
  url: string | null,
): Promise<void> {
  await s.db
    .update(scheduledPosts)
    .set({ publishedPostId: postId, publishedPostUrl: url })
    .where(eq(scheduledPosts.id, id));
}

/** Queue figures for /metrics and readiness. */
export async function stats(
  s: Statements,
  graceCutoff: Date,
): Promise<{ scheduled: number; due: number; publishing: number; overdueOldest: Date | null }> {
  const now = s.now();
  const [r] = await s.db
    .select({
      scheduled: sql<number>`count(*) filter (where ${scheduledPosts.status} = 'scheduled')::int`,
      due: sql<number>`count(*) filter (where ${scheduledPosts.status} = 'scheduled' and not ${scheduledPosts.held} and ${scheduledPosts.scheduledTime} <= ${now.toISOString()}::timestamptz)::int`,
      publishing: sql<number>`count(*) filter (where ${scheduledPosts.status} = 'publishing')::int`,
      oldest: sql<
        string | null
      >`min(${scheduledPosts.scheduledTime}) filter (where ${scheduledPosts.status} = 'scheduled' and not ${scheduledPosts.held} and ${scheduledPosts.scheduledTime} <= ${now.toISOString()}::timestamptz and ${scheduledPosts.scheduledTime} >= ${graceCutoff.toISOString()}::timestamptz)`,
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
