// What the routes do with webhooks beyond the endpoints themselves: a test event, the delivery log, redelivering one
// delivery, and recovering everything that failed since a time. Each puts rows in the queue; the worker sends them.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { Scope } from '../../auth/scopes.ts';
import { AppError } from '../../errors.ts';
import type { Db } from '../../db/client.ts';
import type { WebhookEndpoints } from './endpoints.ts';
import type { AttemptRow, DeliveryRow, DeliveryStatus, DeliveryStore } from './deliveries.ts';
import type { WebhookWorker } from './worker.ts';

export const TEST_EVENT = 'webhook.test';

export interface DeliveryView {
  id: string;
  webhook_id: string;
  event_id: string | null;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  delivered_at: string | null;
  created_at: string;
  attempt_log: {
    attempt: number;
    at: string;
    response_status: number | null;
    response_body: string | null;
    error: string | null;
    duration_ms: number;
    succeeded: boolean;
  }[];
}

function view(d: DeliveryRow, attempts: AttemptRow[]): DeliveryView {
  return {
    id: d.id,
    webhook_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
    response_status: d.lastStatusCode,
    response_body: d.lastResponse,
    error: d.lastError,
    duration_ms: d.lastDurationMs,
    delivered_at: d.deliveredAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
    attempt_log: attempts.map((a) => ({
      attempt: a.attempt,
      at: a.at.toISOString(),
      response_status: a.statusCode,
      response_body: a.response,
      error: a.error,
      duration_ms: a.durationMs,
      succeeded: a.succeeded,
    })),
  };
}

const encodeCursor = (d: DeliveryRow) =>
  Buffer.from(JSON.stringify([d.createdAt.toISOString(), d.id])).toString('base64url');

function decodeCursor(raw: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as [string, string];
    const date = new Date(at);
    if (typeof id === 'string' && !Number.isNaN(date.getTime())) return { at: date, id };
  } catch {
    // fall through
  }
  throw new AppError('bad_request', 'Invalid cursor');
}

export class WebhookService {
  readonly endpoints: WebhookEndpoints;
  readonly store: DeliveryStore;
  readonly #db: Db;
  readonly #worker: WebhookWorker;
  readonly #clock: Clock;

  constructor(d: { db: Db; endpoints: WebhookEndpoints; store: DeliveryStore; worker: WebhookWorker; clock: Clock }) {
    this.endpoints = d.endpoints;
    this.store = d.store;
    this.#db = d.db;
    this.#worker = d.worker;
    this.#clock = d.clock;
  }

  /** An endpoint the caller may see that is enabled (409 otherwise: nothing would be sent to it). */
  async #enabled(workspaceId: string, scope: Scope, id: string) {
    const e = await this.endpoints.get(workspaceId, scope, id);
    if (!e.enabled) throw new AppError('conflict', 'The endpoint is disabled: enable it first');
    return e;
  }

  /** A `webhook.test` delivery to this endpoint alone; it is sent by the worker like any other. */
  async test(workspaceId: string, scope: Scope, endpointId: string): Promise<DeliveryView> {
    const e = await this.#enabled(workspaceId, scope, endpointId);
    const now = this.#clock();
    const body = JSON.stringify({
      id: randomUUID(),
      type: TEST_EVENT,
      workspace_id: workspaceId,
      occurred_at: now.toISOString(),
      post_id: null,
      platform: null,
      data: { webhook_id: e.id, message: 'A test event from Herald.' },
    });
    const [made] = await this.#db.transaction((tx) =>
      this.store.add(tx, [{ endpointId: e.id, workspaceId, eventId: null, eventType: TEST_EVENT, body }]),
    );
    await this.#worker.wake([{ id: made!.id, at: made!.nextAttemptAt }]);
    return (await this.delivery(workspaceId, scope, made!.id))!;
  }

  async deliveries(
    workspaceId: string,
    scope: Scope,
    endpointId: string,
    q: { status?: DeliveryStatus | undefined; limit: number; cursor?: string | undefined },
  ): Promise<{ deliveries: DeliveryView[]; next_cursor: string | null }> {
    await this.endpoints.get(workspaceId, scope, endpointId);
    const rows = await this.store.list(endpointId, {
      status: q.status,
      limit: q.limit + 1,
      before: q.cursor ? decodeCursor(q.cursor) : undefined,
    });
    const page = rows.slice(0, q.limit);
    const attempts = await this.store.attemptsOf(page.map((d) => d.id));
    return {
      deliveries: page.map((d) =>
        view(
          d,
          attempts.filter((a) => a.deliveryId === d.id),
        ),
      ),
      next_cursor: rows.length > q.limit ? encodeCursor(page[page.length - 1]!) : null,
    };
  }

  /** One delivery the caller may see (its endpoint visible to the caller's scope); undefined otherwise. */
  async delivery(workspaceId: string, scope: Scope, id: string): Promise<DeliveryView | undefined> {
    const d = await this.store.byId(workspaceId, id);
    if (!d) return undefined;
    try {
      await this.endpoints.get(workspaceId, scope, d.endpointId);
    } catch {
      return undefined;
    }
    return view(d, await this.store.attemptsOf([d.id]));
  }

  /** Sends a settled delivery again now, under the same `webhook-id`. */
  async redeliver(workspaceId: string, scope: Scope, id: string): Promise<DeliveryView> {
    const d = await this.delivery(workspaceId, scope, id);
    if (!d) throw new AppError('not_found', 'Delivery not found');
    await this.#enabled(workspaceId, scope, d.webhook_id);
    const ids = await this.store.requeue({ workspaceId, ids: [id] });
    if (!ids.length) throw new AppError('conflict', 'The delivery is already queued');
    await this.#worker.wake([{ id, at: this.#clock() }]);
    return (await this.delivery(workspaceId, scope, id))!;
  }

  /** Every failed delivery of the endpoint created since `since`, due again now (each under its own id). */
  async recover(workspaceId: string, scope: Scope, endpointId: string, since: Date): Promise<number> {
    await this.#enabled(workspaceId, scope, endpointId);
    const ids = await this.store.requeue({ workspaceId, endpointId, since });
    const now = this.#clock();
    await this.#worker.wake(ids.map((id) => ({ id, at: now })));
    return ids.length;
  }
}
