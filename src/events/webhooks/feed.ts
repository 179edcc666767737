// What webhooks need of the events outbox (src/events/): a claim of the events not yet fanned out, marked in the
// caller's transaction, and a way to record an event in a transaction. The composition root adapts the outbox to it;
// the benchmark passes its own.
import type { Db } from '../../db/client.ts';

export interface OutboxEvent {
  id: string;
  type: string;
  workspaceId: string;
  /** The network it concerns, when it concerns one (a scoped endpoint receives only its networks' events). */
  network: string | null;
  occurredAt: Date;
  /** The event as GET /events returns it: the body of its deliveries. */
  wire: Record<string, unknown>;
}

export interface EventFeed {
  /**
   * Up to `limit` events not yet claimed, oldest first, marked claimed in `tx`: a rollback leaves them to the next
   * claim, and concurrent claims never take the same event.
   */
  claim(tx: Db, limit: number, now: Date): Promise<OutboxEvent[]>;
  /** Records `webhook.disabled` in the caller's transaction: it commits with the endpoint's change, or not at all. */
  disabled(
    tx: Db,
    workspaceId: string,
    data: { webhook_id: string; url: string; reason: string },
    at: Date,
  ): Promise<void>;
}
