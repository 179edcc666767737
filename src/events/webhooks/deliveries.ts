// The deliveries: one row per event and endpoint (its id is the `webhook-id`, unique by construction: the pair is a
// unique key, so a fan-out repeated after a crash adds nothing), claimed with a lease by the worker that sends it,
// settled with every attempt logged. A worker that dies mid-attempt leaves its claim to lapse; the delivery is then
// sent again under the same id, which is what receivers deduplicate on.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, or, sql } from '../../db/orm.ts';
import { rowsOf } from '../../db/raw.ts';
import { webhookAttempts, webhookDeliveries } from '../../db/schema-webhooks.ts';
import type { Clock } from '../../clock.ts';
import type { AttemptResult } from './sender.ts';
import type { OutboxEvent } from './feed.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';

/** A `webhook-id`: `msg_` and 24 random bytes, base64url (the spec's examples use a prefix and an opaque id). */
export const newDeliveryId = () => `msg_${randomBytes(18).toString('base64url')}`;

/** The body every attempt sends: the event as GET /events shows it. */
export const deliveryBody = (e: OutboxEvent): string => JSON.stringify(e.wire);

export class DeliveryStore {
  readonly #db: Db;
  readonly #clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /**
   * New deliveries, due now; those already made for the same event and endpoint are left alone. Returns the new ones.
   */
  async add(
    tx: Db,
    rows: readonly {
      endpointId: string;
      workspaceId: string;
      eventId: string | null;
      eventType: string;
      body: string;
    }[],
  ): Promise<{ id: string; nextAttemptAt: Date }[]> {
    if (!rows.length) return [];
    const now = this.#clock();
    const made: { id: string; nextAttemptAt: Date }[] = [];
    // Bounded statements: a burst of events to many endpoints stays under the parameter limit.
    for (let i = 0; i < rows.length; i += 500) {
      const out = await tx
        .insert(webhookDeliveries)
        .values(rows.slice(i, i + 500).map((r) => ({ ...r, id: newDeliveryId(), nextAttemptAt: now, createdAt: now })))
        .onConflictDoNothing()
        .returning({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt });
      for (const o of out) made.push({ id: o.id, nextAttemptAt: o.nextAttemptAt ?? now });
    }
    return made;
  }

  /** Ids of deliveries due now and not claimed (the backstop when a wake-up was lost), oldest first. */
  async due(limit: number): Promise<string[]> {
    const now = this.#clock();
    const rows = await this.#db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.status, ['pending', 'delivering']),
          lte(webhookDeliveries.nextAttemptAt, now),
          or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now)),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  /**
   * Claims a due delivery for `leaseMs` (a guarded UPDATE: of two workers, one wins), or undefined when it is not due,
   * already claimed, or settled.
   */
  async claim(id: string, leaseMs: number): Promise<DeliveryRow | undefined> {
    const now = this.#clock();
    const [row] = await this.#db
      .update(webhookDeliveries)
      .set({ status: 'delivering', leaseUntil: new Date(now.getTime() + leaseMs) })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          inArray(webhookDeliveries.status, ['pending', 'delivering']),
          lte(webhookDeliveries.nextAttemptAt, now),
          or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now)),
        ),
      )
      .returning();
    return row;
  }

  /**
   * Records an attempt of a claimed delivery and its new state: succeeded, failed (`next` null), or due again at
   * `next`. Only the claim's holder settles it (its lease unchanged); false when the claim was lost meanwhile.
   */
  async settle(tx: Db, claimed: DeliveryRow, at: Date, r: AttemptResult, next: Date | null): Promise<boolean> {
    const attempt = claimed.attempts + 1;
    const status: DeliveryStatus = r.ok ? 'succeeded' : next ? 'pending' : 'failed';
    const ts = (d: Date | null) => (d ? d.toISOString() : null);
    // One statement (the delivery's new state, its attempt, the end of a failure streak): a success needs no
    // transaction.
    const lease = claimed.leaseUntil
      ? sql`lease_until = ${ts(claimed.leaseUntil)}::timestamptz`
      : sql`lease_until is null`;
    const done = await tx.execute(sql`
      with d as (
        update webhook_deliveries set
          status = ${status}, attempts = ${attempt}, next_attempt_at = ${ts(r.ok ? null : next)}::timestamptz,
          lease_until = null, last_status_code = ${r.statusCode}::int, last_response = ${r.response}::text,
          last_error = ${r.error}::text, last_duration_ms = ${r.durationMs}::int,
          last_attempt_at = ${ts(at)}::timestamptz,
          delivered_at = coalesce(${ts(r.ok ? at : null)}::timestamptz, delivered_at)
        where id = ${claimed.id} and attempts = ${claimed.attempts} and ${lease}
        returning id, endpoint_id
      ), streak as (
        -- A success ends the endpoint's failure streak.
        update webhook_endpoints set failing_since = null
        where ${r.ok}::boolean and failing_since is not null and id in (select endpoint_id from d)
      )
      insert into webhook_attempts (delivery_id, attempt, at, status_code, response, error, duration_ms, succeeded)
      select id, ${attempt}::int, ${ts(at)}::timestamptz, ${r.statusCode}::int, ${r.response}::text, ${r.error}::text,
        ${r.durationMs}::int, ${r.ok}::boolean
      from d
      returning delivery_id`);
    return rowsOf(done).length > 0;
  }

  /** Gives up a delivery without an attempt (its endpoint was disabled or deleted meanwhile). */
  async abandon(id: string, reason: string): Promise<void> {
    await this.#db
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null, leaseUntil: null, lastError: reason })
      .where(and(eq(webhookDeliveries.id, id), inArray(webhookDeliveries.status, ['pending', 'delivering'])));
  }

  async byId(workspaceId: string, id: string): Promise<DeliveryRow | undefined> {
    const [row] = await this.#db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.id, id)));
    return row;
  }

  /** An endpoint's deliveries, newest first, after an opaque cursor (the last row's time and id). */
  async list(
    endpointId: string,
    q: { status?: DeliveryStatus | undefined; limit: number; before?: { at: Date; id: string } | undefined },
  ): Promise<DeliveryRow[]> {
    const conds = [eq(webhookDeliveries.endpointId, endpointId)];
    if (q.status) conds.push(eq(webhookDeliveries.status, q.status));
    if (q.before)
      conds.push(
        or(
          lt(webhookDeliveries.createdAt, q.before.at),
          and(eq(webhookDeliveries.createdAt, q.before.at), lt(webhookDeliveries.id, q.before.id)),
        )!,
      );
    return this.#db
      .select()
      .from(webhookDeliveries)
      .where(and(...conds))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(q.limit);
  }

  async attemptsOf(ids: readonly string[]): Promise<AttemptRow[]> {
    if (!ids.length) return [];
    return this.#db
      .select()
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, [...ids]))
      .orderBy(asc(webhookAttempts.attempt));
  }

  /** Due again now, under the same id (a redelivery, or a recovery of failed ones); those in flight are left alone. */
  async requeue(where: { workspaceId: string; ids?: string[]; endpointId?: string; since?: Date }): Promise<string[]> {
    const conds = [eq(webhookDeliveries.workspaceId, where.workspaceId)];
    if (where.ids) conds.push(inArray(webhookDeliveries.id, where.ids));
    if (where.endpointId) conds.push(eq(webhookDeliveries.endpointId, where.endpointId));
    if (where.since) conds.push(gte(webhookDeliveries.createdAt, where.since), eq(webhookDeliveries.status, 'failed'));
    else conds.push(inArray(webhookDeliveries.status, ['succeeded', 'failed']));
    const rows = await this.#db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: this.#clock(), leaseUntil: null })
      .where(and(...conds))
      .returning({ id: webhookDeliveries.id });
    return rows.map((r) => r.id);
  }

  /** How many deliveries wait (due or scheduled), for the benchmark and metrics. */
  async backlog(): Promise<number> {
    const [row] = await this.#db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.status, ['pending', 'delivering']));
    return row?.n ?? 0;
  }
}
