// The delivery worker. Each round it claims the events the outbox has not handed out yet and makes one delivery per
// event and endpoint that wants it (in the claim's transaction: a crash either made them and took the events, or
// neither), then sends what is due. pg-boss carries the wake-ups (one job per delivery and attempt time, on Herald's
// own database); the delivery row is the truth, claimed by a guarded UPDATE with a lease, so a stale or duplicated job
// sends nothing twice, and a scan of due rows is the backstop for wake-ups that were lost. Never run inside a request.
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { and, eq } from '../../db/orm.ts';
import { users, workspaceMembers } from '../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import type { Mailer } from '../../mail.ts';
import type { WebhooksConfig } from '../../config/webhooks.ts';
import type { ScheduleQueue } from '../../scheduling/index.ts';
import type { EventFeed } from './feed.ts';
import { type EndpointRow, type WebhookEndpoints, wants } from './endpoints.ts';
import { type DeliveryRow, type DeliveryStore, deliveryBody } from './deliveries.ts';
import { failedBeforeSending, type WebhookSender } from './sender.ts';
import { signDelivery } from './signing.ts';
import { nextAttemptAt } from './schedule.ts';

export const WEBHOOK_QUEUE = 'herald-webhook-delivery';

/** Events read per fan-out statement. */
const BATCH = 500;
/** With pg-boss, the scan of due rows runs every this many rounds (the wake-ups do the rest). */
const BACKSTOP_EVERY = 10;

export interface WebhookWorkerDeps {
  db: Db;
  feed: EventFeed;
  endpoints: WebhookEndpoints;
  store: DeliveryStore;
  sender: WebhookSender;
  queue: ScheduleQueue | undefined;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  config: WebhooksConfig;
  publicUrl: string;
  /** Jitter's source (tests and the benchmark pass a fixed one). */
  random?: () => number;
}

export class WebhookWorker {
  readonly #d: WebhookWorkerDeps;
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;
  #rounds = 0;
  #busy = false;
  #running = false;

  constructor(deps: WebhookWorkerDeps) {
    this.#d = deps;
  }

  get #leaseMs(): number {
    // Twice the attempt's timeout and a second: a live worker settles well before its claim lapses, and a dead
    // one's deliveries wait little longer than one attempt would have.
    return 2 * this.#d.config.timeoutMs + 1000;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    if (this.#d.queue)
      void this.#d.queue
        .start()
        .catch((err: unknown) =>
          this.#d.logger.warn({ err }, 'job queue did not start; webhooks fall back to scanning'),
        );
    this.#tick();
  }

  /** A round now, then the next after the poll interval, or at once while there is more due than room. */
  readonly #tick = (): void => {
    if (!this.#running || this.#round) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#round = this.round()
      .catch((err: unknown) => this.#d.logger.warn({ err }, 'webhook round failed'))
      .finally(() => {
        this.#round = undefined;
        if (!this.#running) return;
        const more = this.#busy && this.#inFlight.size < this.#d.config.concurrency;
        this.#timer = setTimeout(this.#tick, more ? 0 : this.#d.config.pollMs);
      });
  };

  /** Stops taking work and waits for the attempts in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#round;
    await Promise.allSettled([...this.#inFlight]);
    await this.#d.sender.close();
  }

  /** One round: fan out new events, then start the due deliveries there is room for. */
  async round(): Promise<void> {
    while ((await this.dispatch()) === BATCH) {
      // A burst: keep reading before sending, so the outbox drains first.
    }
    const free = this.#d.config.concurrency - this.#inFlight.size;
    this.#busy = free <= 0;
    if (free <= 0) return;
    const queue = this.#d.queue?.started ? this.#d.queue : undefined;
    const ids = new Set(queue ? await queue.pullFrom(WEBHOOK_QUEUE, free) : []);
    if (!queue || this.#rounds++ % BACKSTOP_EVERY === 0 || ids.size === 0)
      for (const id of await this.#d.store.due(free - ids.size)) if (ids.size < free) ids.add(id);
    // As many as there was room for: more may be due, so a finished attempt starts the next round.
    this.#busy = ids.size >= free;
    for (const id of ids) this.#track(this.deliver(id));
  }

  /** Sends everything due and waits for it (tests and the benchmark drive the worker this way). */
  async drain(): Promise<void> {
    await this.round();
    await Promise.allSettled([...this.#inFlight]);
  }

  #track(p: Promise<void>): void {
    const t = p
      .catch((err: unknown) => this.#d.logger.error({ err }, 'webhook delivery failed unexpectedly'))
      .finally(() => {
        this.#inFlight.delete(t);
        if (this.#busy) this.#tick();
      });
    this.#inFlight.add(t);
  }

  /** One claim of events from the outbox and their deliveries, committed together. Returns how many events. */
  async dispatch(): Promise<number> {
    const { feed, store, endpoints } = this.#d;
    const made = await this.#d.db.transaction(async (tx) => {
      const claimed = await feed.claim(tx, BATCH, this.#d.clock());
      if (!claimed.length) return { read: 0, made: [] };
      const targets = await endpoints.enabledIn(tx, [...new Set(claimed.map((e) => e.workspaceId))]);
      const byWorkspace = new Map<string, EndpointRow[]>();
      for (const t of targets) byWorkspace.set(t.workspaceId, [...(byWorkspace.get(t.workspaceId) ?? []), t]);
      const rows = claimed.flatMap((e) =>
        (byWorkspace.get(e.workspaceId) ?? [])
          .filter((t) => wants(t, e))
          .map((t) => ({
            endpointId: t.id,
            workspaceId: e.workspaceId,
            eventId: e.id,
            eventType: e.type,
            body: deliveryBody(e),
          })),
      );
      return { read: claimed.length, made: await store.add(tx, rows) };
    });
    await this.wake(made.made.map((d) => ({ id: d.id, at: d.nextAttemptAt })));
    return made.read;
  }

  /** Wake-ups for deliveries due at these times (nothing without a queue: the scan finds them). */
  async wake(list: readonly { id: string; at: Date }[]): Promise<void> {
    const queue = this.#d.queue;
    if (!queue?.started || !list.length) return;
    await queue.sendMany(
      WEBHOOK_QUEUE,
      list.map((d) => ({ id: d.id, startAfter: d.at, singletonKey: `${d.id}@${d.at.toISOString()}` })),
    );
  }

  /** One attempt of a delivery, if it is due and this worker wins the claim. */
  async deliver(id: string): Promise<void> {
    const { store, endpoints, sender, clock, config } = this.#d;
    const claimed = await store.claim(id, this.#leaseMs);
    if (!claimed) return;
    const endpoint = await endpoints.cached(claimed.endpointId);
    if (!endpoint?.enabled) {
      await store.abandon(id, 'not sent: the endpoint is disabled');
      return;
    }
    const at = clock();
    let secrets: string[] | undefined;
    try {
      secrets = endpoints.secretsOf(endpoint, at);
    } catch {
      // A secret sealed under another HERALD_ENCRYPTION_KEY: a failed attempt, retried on the schedule, not a claim
      // abandoned over and over.
    }
    const result = secrets
      ? await sender.send(endpoint.url, signDelivery(secrets, claimed.id, at, claimed.body), claimed.body)
      : failedBeforeSending('the signing secret cannot be decrypted (was HERALD_ENCRYPTION_KEY changed?)');
    const next =
      result.ok || result.gone
        ? null
        : nextAttemptAt(config.retrySeconds, claimed.attempts + 1, clock(), result.retryAfterMs, this.#d.random);
    // A success is one statement; a failure may disable the endpoint, in one transaction with its webhook.disabled.
    let disabled: string | null = null;
    if (result.ok) await store.settle(this.#d.db, claimed, at, result, next);
    else
      disabled = await this.#d.db.transaction(async (tx) => {
        if (!(await store.settle(tx, claimed, at, result, next))) return null;
        const since = await endpoints.noteFailure(tx, endpoint.id, at);
        const reason = result.gone
          ? 'the endpoint answered 410 Gone'
          : since && clock().getTime() - since.getTime() >= config.disableAfterMs
            ? `every delivery failed since ${since.toISOString()}`
            : null;
        if (!reason || !(await endpoints.disable(tx, endpoint.id, reason))) return null;
        await this.#d.feed.disabled(
          tx,
          endpoint.workspaceId,
          { webhook_id: endpoint.id, url: endpoint.url, reason },
          clock(),
        );
        return reason;
      });
    if (next) await this.wake([{ id, at: next }]);
    this.#log(claimed, endpoint, result.ok, result.statusCode, result.error, next);
    if (disabled) await this.#tellOwners(endpoint, disabled);
  }

  #log(
    d: DeliveryRow,
    e: EndpointRow,
    ok: boolean,
    status: number | null,
    error: string | null,
    next: Date | null,
  ): void {
    const fields = {
      delivery: d.id,
      webhook: e.id,
      workspace: e.workspaceId,
      type: d.eventType,
      attempt: d.attempts + 1,
      status,
      ...(ok ? {} : { error, next: next?.toISOString() ?? null }),
    };
    if (ok) this.#d.logger.debug(fields, 'webhook delivered');
    else this.#d.logger.info(fields, next ? 'webhook attempt failed; will retry' : 'webhook delivery failed');
  }

  async #tellOwners(e: EndpointRow, reason: string): Promise<void> {
    const owners = await this.#d.db
      .select({ email: users.email })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(and(eq(workspaceMembers.workspaceId, e.workspaceId), eq(workspaceMembers.role, 'owner')));
    for (const o of owners)
      await this.#d.mailer.send({
        workspaceId: e.workspaceId,
        to: o.email,
        kind: 'webhook_disabled',
        subject: 'A webhook endpoint was disabled',
        body: [
          `Herald stopped sending events to the webhook endpoint ${e.url} (${e.description || 'no description'}):`,
          `${reason}.`,
          '',
          'Deliveries that failed meanwhile are kept. Once the receiver works again, enable the endpoint',
          '(PATCH /webhooks/{id} with {"enabled": true}) and resend them with POST /webhooks/{id}/recover.',
          '',
          this.#d.publicUrl,
        ].join('\n'),
      });
  }
}
