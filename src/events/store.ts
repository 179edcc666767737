// The events outbox: `recordEvent` writes an event in the caller's transaction (so it commits with the change it
// describes, or not at all); `EventStore` reads them (GET /events) and hands them to the webhook dispatcher.
//
// Ordering: `seq` is insertion order, not commit order — two transactions can commit out of seq order, so a
// reader that remembers "the last seq I saw" may miss an event committed late with a lower seq. Readers that must
// see every event exactly once (the webhook dispatcher) claim with `claimForDispatch` instead, which marks what it
// took in the caller's transaction; GET /events pages by seq, good enough for people reading a feed.
import type { Db } from '../db/client.ts';
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, or, sql } from '../db/orm.ts';
import { events } from '../db/schema-events.ts';
import type { EventPayloads, EventType, WireEvent } from './types.ts';

export type EventRow = typeof events.$inferSelect;

export interface RecordOptions {
  /** When it happened (default: the database's now()); services pass their clock's time. */
  at?: Date;
}

/** The columns of an event row, for callers that fold the insert into a statement of their own (a CTE). */
export function eventRow<T extends EventType>(
  workspaceId: string,
  type: T,
  data: EventPayloads[T],
  opts: RecordOptions = {},
): typeof events.$inferInsert {
  const d = data as unknown as Record<string, unknown>;
  const targets = Array.isArray(d.targets) ? (d.targets as { platform?: unknown }[]) : [];
  const platforms = [...new Set(targets.map((t) => t.platform).filter((p): p is string => typeof p === 'string'))];
  const platform = typeof d.platform === 'string' ? d.platform : platforms.length === 1 ? (platforms[0] ?? null) : null;
  return {
    workspaceId,
    type,
    postId: typeof d.post_id === 'string' ? d.post_id : null,
    platform,
    data: d,
    ...(opts.at ? { occurredAt: opts.at } : {}),
  };
}

/** Writes one event in `tx` (the transaction of the change it describes). */
export async function recordEvent<T extends EventType>(
  tx: Db,
  workspaceId: string,
  type: T,
  data: EventPayloads[T],
  opts: RecordOptions = {},
): Promise<void> {
  await tx.insert(events).values(eventRow(workspaceId, type, data, opts));
}

/** Writes several events in one statement. */
export async function recordEvents(tx: Db, rows: (typeof events.$inferInsert)[]): Promise<void> {
  if (rows.length) await tx.insert(events).values(rows);
}

export interface EventQuery {
  workspaceId: string;
  types?: readonly string[] | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  postId?: string | undefined;
  platform?: string | undefined;
  /** A network-scoped caller sees only its networks' events (and none without a network). */
  platforms?: readonly string[] | undefined;
  /** newest first (default) or oldest first. */
  order?: 'asc' | 'desc';
  cursor?: string | undefined;
  limit: number;
}

export class CursorError extends Error {}

/** Opaque to clients: the seq of the last event of a page. */
export const encodeCursor = (seq: number): string => Buffer.from(`e:${seq}`).toString('base64url');
export function decodeCursor(cursor: string): number {
  const m = /^e:(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw new CursorError('cursor is not one this server issued');
  return Number(m[1]);
}

export const toWire = (r: EventRow): WireEvent => ({
  id: r.id,
  type: r.type as EventType,
  workspace_id: r.workspaceId,
  occurred_at: r.occurredAt.toISOString(),
  post_id: r.postId,
  platform: r.platform,
  data: r.data as WireEvent['data'],
});

export class EventStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** One page of a workspace's events and the cursor of the next (null at the end). */
  async list(q: EventQuery): Promise<{ events: WireEvent[]; next_cursor: string | null }> {
    const order = q.order ?? 'desc';
    const after = q.cursor ? decodeCursor(q.cursor) : undefined;
    const where = and(
      eq(events.workspaceId, q.workspaceId),
      q.types?.length ? inArray(events.type, [...q.types]) : undefined,
      q.since ? gte(events.occurredAt, q.since) : undefined,
      q.until ? lt(events.occurredAt, q.until) : undefined,
      q.postId ? eq(events.postId, q.postId) : undefined,
      q.platform ? eq(events.platform, q.platform) : undefined,
      q.platforms ? inArray(events.platform, q.platforms.length ? [...q.platforms] : ['']) : undefined,
      after === undefined ? undefined : order === 'desc' ? lt(events.seq, after) : gt(events.seq, after),
    );
    const rows = await this.#db
      .select()
      .from(events)
      .where(where)
      .orderBy(order === 'desc' ? desc(events.seq) : asc(events.seq))
      .limit(q.limit + 1);
    const page = rows.slice(0, q.limit);
    const last = page.at(-1);
    return { events: page.map(toWire), next_cursor: rows.length > q.limit && last ? encodeCursor(last.seq) : null };
  }

  /** Every event of one ledger post or queue entry, oldest first (the post's timeline). */
  async ofPost(
    workspaceId: string,
    postId: string | null,
    scheduledPostIds: readonly string[] = [],
  ): Promise<EventRow[]> {
    const bySp = scheduledPostIds.length
      ? inArray(sql`${events.data}->>'scheduled_post_id'`, [...scheduledPostIds])
      : undefined;
    return this.#db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), or(postId ? eq(events.postId, postId) : undefined, bySp)))
      .orderBy(asc(events.seq));
  }

  /**
   * The webhook dispatcher's claim: up to `limit` events not yet dispatched, oldest first, marked dispatched in
   * `tx`. Call it in the transaction that writes the deliveries: a crash before the commit leaves the events
   * unclaimed for the next run, and concurrent dispatchers skip each other's rows (SKIP LOCKED).
   */
  static async claimForDispatch(tx: Db, limit: number, now: Date): Promise<EventRow[]> {
    const picked = tx
      .select({ id: events.id })
      .from(events)
      .where(isNull(events.dispatchedAt))
      .orderBy(asc(events.seq))
      .limit(limit)
      .for('update', { skipLocked: true });
    const rows = await tx.update(events).set({ dispatchedAt: now }).where(inArray(events.id, picked)).returning();
    return rows.sort((a, b) => a.seq - b.seq);
  }

  /** Events since a time, oldest first, for a recovery that resends them (bounded by `limit`). */
  async since(workspaceId: string, from: Date, to: Date, limit: number): Promise<EventRow[]> {
    return this.#db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), gte(events.occurredAt, from), lte(events.occurredAt, to)))
      .orderBy(asc(events.seq))
      .limit(limit);
  }
}
