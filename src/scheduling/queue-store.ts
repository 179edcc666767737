// Rows of posting_queues and queue_slots, and the statements that move queued entries of scheduled_posts with their
// slots. A slot is taken by inserting its row: the unique index of live slots (queue, time) is what keeps two posts
// out of one slot; writers also lock the queue's row first (lock), so they take slots one at a time.
import type { Db } from '../db/client.ts';
import { and, asc, eq, sql } from '../db/orm.ts';
import { rowsOf } from '../db/raw.ts';
import { postingQueues, queueSlots } from '../db/schema-scheduling.ts';
import { entryEvent, type SQL } from './store-sql.ts';
import type { WeeklySlot } from './queue-slots.ts';

export type QueueRow = typeof postingQueues.$inferSelect;
export type QueueValues = {
  timeZone?: string | null;
  slots?: WeeklySlot[];
  platforms?: string[] | null;
};
/** A live slot: its row id and time. */
export interface TakenSlot {
  id: string;
  slotAt: Date;
}
/** A queue entry whose time a slot change moved (for its wake-up after the commit). */
export interface MovedEntry {
  id: string;
  scheduledTime: Date;
}

const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;
/**
 * The recorded run of taken slots of the queue `ids` after its slot at `at` was freed or moved away: when the run held
 * that slot, it now ends at the latest live slot before it (every slot of the grid up to there is still taken), or is
 * forgotten when there is none. Reads the live slots as they were before the statement.
 */
const cutRun = (ids: SQL, at: SQL) => sql`
  update posting_queues pq set (filled_from, filled_to, filled_zone) = (
    select case when m.last is null then null else pq.filled_from end, m.last,
      case when m.last is null then null else pq.filled_zone end
    from (
      select max(s.slot_at) as last from queue_slots s
      where s.queue_id = pq.id and s.released_at is null and s.slot_at >= pq.filled_from and s.slot_at < ${at}
    ) as m
  )
  where pq.id in ${ids} and pq.filled_from <= ${at} and pq.filled_to >= ${at}`;

export class QueueStore {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  get db(): Db {
    return this.#db;
  }

  async list(workspaceId: string): Promise<QueueRow[]> {
    return this.#db
      .select()
      .from(postingQueues)
      .where(eq(postingQueues.workspaceId, workspaceId))
      .orderBy(asc(postingQueues.name));
  }

  async get(workspaceId: string, name: string, db: Db = this.#db): Promise<QueueRow | undefined> {
    const [row] = await db
      .select()
      .from(postingQueues)
      .where(and(eq(postingQueues.workspaceId, workspaceId), eq(postingQueues.name, name)));
    return row;
  }

  /** Inserts a queue; undefined when the name is taken (the unique index answers, not a prior read). */
  async insert(
    workspaceId: string,
    name: string,
    v: QueueValues & { paused?: boolean },
    db: Db = this.#db,
  ): Promise<QueueRow | undefined> {
    const now = this.#now();
    const [row] = await db
      .insert(postingQueues)
      .values({
        workspaceId,
        name,
        timeZone: v.timeZone ?? null,
        slots: v.slots ?? [],
        platforms: v.platforms ?? null,
        paused: v.paused ?? false,
        pausedAt: v.paused ? now : null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    return row;
  }

  /**
   * The queue's row locked for this transaction (SELECT … FOR UPDATE): whoever takes, moves or frees its slots holds
   * it. `create` makes the row first when it is missing (the default queue exists before anyone saves it).
   */
  async lock(tx: Db, workspaceId: string, name: string, create?: QueueValues): Promise<QueueRow | undefined> {
    if (create) await this.insert(workspaceId, name, create, tx);
    const res = await tx.execute(
      sql`select id from posting_queues where workspace_id = ${workspaceId}::uuid and name = ${name} for update`,
    );
    const id = rowsOf(res)[0]?.id as string | undefined;
    if (!id) return undefined;
    const [row] = await tx.select().from(postingQueues).where(eq(postingQueues.id, id));
    return row;
  }

  async update(tx: Db, id: string, set: Partial<typeof postingQueues.$inferInsert>): Promise<QueueRow> {
    const [row] = await tx
      .update(postingQueues)
      .set({ ...set, updatedAt: this.#now() })
      .where(eq(postingQueues.id, id))
      .returning();
    return row!;
  }

  /** Deletes the queue: its posts stay scheduled at their times as ordinary scheduled posts, none held. */
  async remove(tx: Db, id: string): Promise<void> {
    await tx.execute(sql`
      update scheduled_posts set held = false
      where held and queue_slot_id in (select id from queue_slots where queue_id = ${id}::uuid)`);
    await tx.delete(postingQueues).where(eq(postingQueues.id, id));
  }

  /**
   * The live slots of the queue after `after`: the instants (milliseconds) of those up to `end`, ascending, and the
   * latest of all (one index range read and one backward index read of one entry, in one statement; written as
   * ORDER BY … LIMIT 1, as max() was planned as a read of every live slot).
   */
  async slotsUpTo(db: Db, queueId: string, after: Date, end: Date): Promise<{ taken: number[]; last: Date | null }> {
    const res = await db.execute(sql`
      select w.slot_at, (
        select slot_at from queue_slots where queue_id = ${queueId}::uuid and released_at is null
        order by slot_at desc limit 1
      ) as last
      from (select 1) as one left join (
        select slot_at from queue_slots
        where queue_id = ${queueId}::uuid and released_at is null
          and slot_at > ${iso(after)} and slot_at <= ${iso(end)}
      ) as w on true
      order by w.slot_at`);
    const rows = rowsOf(res);
    const last = rows[0]?.last;
    return {
      taken: rows.filter((r) => r.slot_at != null).map((r) => new Date(r.slot_at as string).getTime()),
      last: last ? new Date(last as string) : null,
    };
  }

  /**
   * The first run of candidate slots with room, and its live slots (milliseconds, ascending). Run k is the grid's
   * slots from `starts[k]` up to the next run's start (the last run up to `end`), `run` slots each but the last. One
   * statement: an ordered index range read numbers the live slots and stops at the first run whose start is not the
   * live slot of its rank, or has no live slot of that rank (every run before it is then full, and the one before it
   * has room or a slot off the grid); then that run's live slots are read.
   */
  async firstRunWithRoom(
    db: Db,
    queueId: string,
    starts: readonly number[],
    run: number,
    end: number,
  ): Promise<{ index: number; taken: number[] }> {
    const live = sql`queue_id = ${queueId}::uuid and released_at is null`;
    const n = sql.raw(String(Math.trunc(run)));
    const res = await db.execute(sql`
      with s as (select ${`{${starts.map((t) => new Date(t).toISOString()).join(',')}}`}::timestamptz[] as c),
      m as (
        select (t.r - 1) / ${n} as k from s, (
          select slot_at, row_number() over (order by slot_at) as r from queue_slots
          where ${live} and slot_at >= ${iso(new Date(starts[0]!))} and slot_at <= ${iso(new Date(end))}
        ) as t
        where (t.r - 1) % ${n} = 0 and t.slot_at <> s.c[(t.r - 1) / ${n} + 1]
        order by t.slot_at limit 1
      ),
      r as (
        select greatest(coalesce((select k from m), (
          select (count(*) + ${n} - 1) / ${n} from queue_slots
          where ${live} and slot_at >= ${iso(new Date(starts[0]!))} and slot_at <= ${iso(new Date(end))}
        )) - 1, 0)::int as k, s.c from s
      )
      select (select k from r) as k, q.slot_at from (select 1) as one left join queue_slots q
        on q.queue_id = ${queueId}::uuid and q.released_at is null and q.slot_at >= (select c[k + 1] from r)
        and q.slot_at < (select coalesce(c[k + 2], ${iso(new Date(end + 1))}) from r)
      order by q.slot_at`);
    const rows = rowsOf(res);
    return {
      index: Number(rows[0]?.k ?? 0),
      taken: rows.filter((r) => r.slot_at != null).map((r) => new Date(r.slot_at as string).getTime()),
    };
  }

  /** Live slots after `from`, ascending, at most `limit`. */
  async takenAfter(db: Db, queueId: string, from: Date, limit: number): Promise<TakenSlot[]> {
    const res = await db.execute(sql`
      select id, slot_at from queue_slots
      where queue_id = ${queueId}::uuid and released_at is null and slot_at > ${iso(from)}
      order by slot_at limit ${limit}`);
    return rowsOf(res).map((r) => ({ id: r.id as string, slotAt: new Date(r.slot_at as string) }));
  }

  /** Takes a slot: a second insert of the same live (queue, time) fails on the unique index. */
  async take(tx: Db, queueId: string, at: Date): Promise<string> {
    const [row] = await tx
      .insert(queueSlots)
      .values({ queueId, slotAt: at, createdAt: this.#now() })
      .returning({ id: queueSlots.id });
    return row!.id;
  }

  /** Records that every slot of the grid (in `zone`) from `from` to `to` is taken (see the columns). */
  async setFilled(tx: Db, queueId: string, from: Date, to: Date, zone: string): Promise<void> {
    await tx
      .update(postingQueues)
      .set({ filledFrom: from, filledTo: to, filledZone: zone })
      .where(eq(postingQueues.id, queueId));
  }

  /** Takes many slots at once (a few hundred per statement); their ids in the order of `at`. */
  async takeMany(tx: Db, queueId: string, at: readonly Date[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < at.length; i += 500) {
      const rows = await tx
        .insert(queueSlots)
        .values(at.slice(i, i + 500).map((slotAt) => ({ queueId, slotAt, createdAt: this.#now() })))
        .returning({ id: queueSlots.id, slotAt: queueSlots.slotAt });
      const byTime = new Map(rows.map((r) => [r.slotAt.getTime(), r.id]));
      for (const a of at.slice(i, i + 500)) ids.push(byTime.get(a.getTime())!);
    }
    return ids;
  }

  /**
   * Moves a slot and its still scheduled entries to `to`, with their history lines and post.rescheduled events, in
   * one statement.
   */
  async move(tx: Db, slotId: string, to: Date, reason: string): Promise<MovedEntry[]> {
    const now = this.#now();
    const res = await tx.execute(sql`
      with old as (select slot_at from queue_slots where id = ${slotId}::uuid),
      s as (update queue_slots set slot_at = ${iso(to)} where id = ${slotId}::uuid returning id, queue_id),
      f as (${cutRun(sql`(select queue_id from s)`, sql`(select slot_at from old)`)}),
      before as (
        select id, scheduled_time from scheduled_posts
        where queue_slot_id = ${slotId}::uuid and status = 'scheduled' for update
      ),
      moved as (
        update scheduled_posts sp set scheduled_time = ${iso(to)}, updated_at = ${iso(now)}
        from before where sp.id = before.id and sp.status = 'scheduled'
        returning sp.*, before.scheduled_time as prior_scheduled_time
      ),
      h as (
        insert into scheduled_post_events (scheduled_post_id, from_status, to_status, reason, at)
        select id, 'scheduled', 'scheduled', ${reason}, ${iso(now)} from moved
      ),
      e as (${entryEvent('post.rescheduled', sql`moved`, now)})
      select id, scheduled_time from moved`);
    return rowsOf(res).map((r) => ({ id: r.id as string, scheduledTime: new Date(r.scheduled_time as string) }));
  }

  /** Frees a slot once none of its entries is scheduled or publishing any more; true when it was freed. */
  async release(slotId: string, db: Db = this.#db): Promise<boolean> {
    const res = await db.execute(sql`
      with r as (
        update queue_slots set released_at = ${iso(this.#now())}
        where id = ${slotId}::uuid and released_at is null and not exists (
          select 1 from scheduled_posts where queue_slot_id = ${slotId}::uuid and status in ('scheduled', 'publishing'))
        returning id, queue_id, slot_at
      ),
      f as (${cutRun(sql`(select queue_id from r)`, sql`(select slot_at from r)`)})
      select id from r`);
    return rowsOf(res).length > 0;
  }

  /** The queue of a slot (any workspace: the caller owns the entry that names it). */
  async queueOfSlot(
    slotId: string,
  ): Promise<{ queueId: string; slotAt: Date; name: string; releasedAt: Date | null } | undefined> {
    const res = await this.#db.execute(sql`
      select q.id, q.name, s.slot_at, s.released_at from queue_slots s join posting_queues q on q.id = s.queue_id
      where s.id = ${slotId}::uuid`);
    const r = rowsOf(res)[0];
    return r
      ? {
          queueId: r.id as string,
          name: r.name as string,
          slotAt: new Date(r.slot_at as string),
          releasedAt: r.released_at ? new Date(r.released_at as string) : null,
        }
      : undefined;
  }

  /** Holds (paused) or frees the queue's scheduled entries. */
  async hold(tx: Db, queueId: string, held: boolean): Promise<void> {
    await tx.execute(sql`
      update scheduled_posts set held = ${held}
      where status = 'scheduled' and held <> ${held}
        and queue_slot_id in (select id from queue_slots where queue_id = ${queueId}::uuid and released_at is null)`);
  }

  /** Live slots at or before `at` that still hold a scheduled entry (slots that passed while the queue was paused). */
  async passed(tx: Db, queueId: string, at: Date): Promise<TakenSlot[]> {
    const res = await tx.execute(sql`
      select s.id, s.slot_at from queue_slots s
      where s.queue_id = ${queueId}::uuid and s.released_at is null and s.slot_at <= ${iso(at)}
        and exists (select 1 from scheduled_posts sp where sp.queue_slot_id = s.id and sp.status = 'scheduled')
      order by s.slot_at`);
    return rowsOf(res).map((r) => ({ id: r.id as string, slotAt: new Date(r.slot_at as string) }));
  }

  /** Per queue: live slots with a scheduled entry (the posts waiting in it). */
  async waiting(workspaceId: string): Promise<Map<string, number>> {
    const res = await this.#db.execute(sql`
      select s.queue_id, count(*)::int as n from queue_slots s join posting_queues q on q.id = s.queue_id
      where q.workspace_id = ${workspaceId}::uuid and s.released_at is null
        and exists (select 1 from scheduled_posts sp where sp.queue_slot_id = s.id and sp.status = 'scheduled')
      group by s.queue_id`);
    return new Map(rowsOf(res).map((r) => [r.queue_id as string, Number(r.n)]));
  }
}
