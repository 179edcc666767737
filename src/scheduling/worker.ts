// The scheduling worker: claims due queue entries with a guarded UPDATE (FOR UPDATE SKIP LOCKED, so
// several workers on one PostgreSQL never take the same row), creates the ledger post and targets in
// one transaction linked to the entry, then publishes through TargetRunner. A claim is a lease: a
// worker that dies leaves the row 'publishing' until the lease passes, and the next claim resumes the
// same ledger targets, whose journals make the retry safe.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import type { CreditService } from '../auth/credits.ts';
import { fullScope } from '../auth/scopes.ts';
import type { WorkspaceService } from '../auth/workspaces.ts';
import type { ConnectionStore } from '../connections/store.ts';
import type { Db } from '../db/client.ts';
import { and, eq, inArray, isNull, lt, lte, gte, notInArray, or, sql } from '../db/orm.ts';
import { scheduledPosts } from '../db/schema-scheduling.ts';
import { AppError } from '../errors.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { PublishingService } from '../publishing/service.ts';
import type { TargetRow } from '../publishing/ledger.ts';
import type { TargetResult } from '../publishing/runner.ts';
import type { PostBody } from '../publishing/schemas.ts';
import { buildLedger } from './ledger-link.ts';
import { SchedulerMetrics } from './metrics.ts';
import type { ScheduleQueue } from './queue.ts';
import type { ScheduledRow, ScheduledStore } from './store.ts';

export interface WorkerDeps {
  db: Db;
  store: ScheduledStore;
  publishing: PublishingService;
  workspaces: WorkspaceService;
  connections: ConnectionStore;
  credits: CreditService;
  clock: () => Date;
  logger: Logger;
  /** The registry's networks: a scheduled post may go to any of them. */
  slugs?: readonly string[] | undefined;
  /** pg-boss wake-ups at each entry's time; without it the scan below does everything. */
  queue?: ScheduleQueue | undefined;
}

export interface WorkerOptions {
  pollMs: number;
  /** Most entries one claim takes. */
  batchSize: number;
  /** Most entries this worker publishes at once; a claim takes only as many as there are free slots. */
  concurrency: number;
  /** How long a claim lasts without a heartbeat; the worker renews it every third of it while publishing. */
  leaseMs: number;
  graceSeconds: number;
  maxAttempts: number;
}

// Worth retrying later; content, permission and connection errors are not.
const TRANSIENT = new Set(['RATE_LIMITED', 'PLATFORM_UNAVAILABLE', 'TIMEOUT', 'PUBLISH_FAILED']);

export class ScheduleWorker {
  // The pid tells operators (and the chaos test) which process holds a claim.
  readonly id = `worker-${process.pid}-${randomUUID().slice(0, 4)}`;
  readonly metrics = new SchedulerMetrics();
  /** Tests: called once the ledger targets exist, before any network call (simulated crashes). */
  afterLedger: ((row: ScheduledRow) => void | Promise<void>) | undefined;
  readonly #d: WorkerDeps;
  readonly #o: WorkerOptions;
  /** Entries this process is publishing now: never claimed again here, and their leases are renewed. */
  readonly #inFlight = new Map<string, Promise<void>>();
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  /** More was due than there were free slots: a finishing run wakes the loop instead of waiting for the poll. */
  #backlog = false;

  constructor(deps: WorkerDeps, opts: WorkerOptions) {
    this.#d = deps;
    this.#o = opts;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    const queue = this.#d.queue;
    if (queue) {
      queue.work((ids) => this.#runQueued(ids)).catch((err: unknown) => this.#d.logger.error({ err }, 'job queue did not start; the scan alone publishes'));
    }
    // With pg-boss waking us at each entry's time the scan is only the backstop (entries created while
    // no queue ran, expired leases, a backlog larger than the free slots), so it runs less often.
    const every = queue ? Math.max(this.#o.pollMs, 5000) : this.#o.pollMs;
    this.#loop = (async () => {
      while (this.#running) {
        let more = false;
        try {
          more = await this.#round();
        } catch (err) {
          this.#d.logger.error({ err }, 'scheduler tick failed');
        }
        // A full claim with slots left means there may be more due right now: claim again without waiting.
        if (!more && this.#running) await new Promise<void>((r) => { this.#wake = r; setTimeout(r, every).unref(); });
      }
    })();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    await this.#d.queue?.stop();
    // Runs in flight finish (their claims would otherwise wait out the lease); the caller bounds the wait.
    await Promise.allSettled(this.#inFlight.values());
  }

  /** One round, awaited to the end (tests and tools): fail what was missed, claim what is due, publish it. Returns how many were claimed. */
  async tick(): Promise<number> {
    await this.#failMissed();
    const rows = await this.#claim(undefined, this.#free());
    await Promise.all(rows.map((r) => this.#launch(r)));
    return rows.length;
  }

  #free(): number {
    return Math.max(0, Math.min(this.#o.batchSize, this.#o.concurrency - this.#inFlight.size));
  }

  /** The loop's round: claims up to the free slots and starts them without waiting. True when more may be due now. */
  async #round(): Promise<boolean> {
    await this.#failMissed();
    const limit = this.#free();
    if (limit === 0) {
      this.#backlog = true;
      return false;
    }
    const rows = await this.#claim(undefined, limit);
    for (const r of rows) void this.#launch(r);
    this.#backlog = rows.length === limit;
    return this.#backlog && this.#free() > 0;
  }

  #launch(row: ScheduledRow): Promise<void> {
    const run = this.execute(row)
      .catch((err: unknown) => this.#d.logger.error({ err, scheduledPost: row.id }, 'scheduled publish could not be finished; its lease will expire and it will be resumed'))
      .finally(() => {
        this.#inFlight.delete(row.id);
        if (!this.#inFlight.size) {
          clearInterval(this.#heartbeat);
          this.#heartbeat = undefined;
        }
        if (this.#backlog) this.#wake?.();
      });
    this.#inFlight.set(row.id, run);
    // The heartbeat runs while anything is in flight.
    if (!this.#heartbeat) {
      this.#heartbeat = setInterval(() => void this.#renewLeases(), Math.max(Math.floor(this.#o.leaseMs / 3), 100));
      this.#heartbeat.unref();
    }
    return run;
  }

  /** The pg-boss handler: claim these entries if they are (still) due, and start them. The job is only a wake-up, so it ends at once. */
  async #runQueued(ids: string[]): Promise<void> {
    const wanted = ids.filter((id) => !this.#inFlight.has(id));
    const limit = Math.min(this.#free(), wanted.length);
    const rows = limit > 0 ? await this.#claim(wanted, limit) : [];
    for (const r of rows) void this.#launch(r);
    // More due than free slots, or a full batch (pg-boss fetches once per polling interval even with a
    // backlog): let the scan claim the rest as soon as it can.
    if (rows.length < wanted.length || ids.length >= this.#o.batchSize) {
      this.#backlog = true;
      if (this.#free() > 0) this.#wake?.();
    }
  }

  /** Heartbeat: a claim stays ours while we publish it, so a short lease only bounds how long a dead worker's posts wait. */
  async #renewLeases(): Promise<void> {
    const ids = [...this.#inFlight.keys()];
    if (!ids.length) return;
    try {
      await this.#d.db
        .update(scheduledPosts)
        .set({ claimedUntil: new Date(this.#d.clock().getTime() + this.#o.leaseMs) })
        .where(and(inArray(scheduledPosts.id, ids), eq(scheduledPosts.claimedBy, this.id), eq(scheduledPosts.status, 'publishing')));
    } catch (err) {
      this.#d.logger.warn({ err }, 'could not renew the scheduling leases');
    }
  }

  async #failMissed(): Promise<void> {
    const now = this.#d.clock();
    const cutoff = new Date(now.getTime() - this.#o.graceSeconds * 1000);
    const missed = await this.#d.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const rows = await tx
        .update(scheduledPosts)
        .set({ status: 'failed', errorMessage: `Missed: this post was due at the scheduled time but no worker ran until more than ${this.#o.graceSeconds} s later (HERALD_SCHEDULE_GRACE_SECONDS). Reschedule it or publish it now.`, updatedAt: now })
        .where(and(eq(scheduledPosts.status, 'scheduled'), lt(scheduledPosts.scheduledTime, cutoff)))
        .returning();
      for (const r of rows) await this.#d.store.event(tx, r.id, 'scheduled', 'failed', `missed: due ${r.scheduledTime.toISOString()}, found at ${now.toISOString()}, past the grace period`);
      return rows;
    });
    for (const r of missed) this.metrics.failure(r.platform);
  }

  async #claim(only: string[] | undefined, limit: number): Promise<ScheduledRow[]> {
    if (limit <= 0) return [];
    const now = this.#d.clock();
    const cutoff = new Date(now.getTime() - this.#o.graceSeconds * 1000);
    const due = and(eq(scheduledPosts.status, 'scheduled'), lte(scheduledPosts.scheduledTime, now), gte(scheduledPosts.scheduledTime, cutoff));
    // A 'publishing' row whose lease passed: its worker died, or it waits for a retry after backoff.
    const stale = and(eq(scheduledPosts.status, 'publishing'), or(isNull(scheduledPosts.claimedUntil), lt(scheduledPosts.claimedUntil, now)));
    return this.#d.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      // Never an entry this process is already publishing (its lease may have lapsed while the event loop was busy).
      const mine = this.#inFlight.size ? notInArray(scheduledPosts.id, [...this.#inFlight.keys()]) : undefined;
      const pick = tx.select({ id: scheduledPosts.id }).from(scheduledPosts).where(and(or(due, stale), only ? inArray(scheduledPosts.id, only) : undefined, mine)).orderBy(scheduledPosts.scheduledTime).limit(limit).for('update', { skipLocked: true });
      const before = await pick;
      if (!before.length) return [];
      const ids = before.map((b) => b.id);
      const prior = new Map((await tx.select({ id: scheduledPosts.id, status: scheduledPosts.status }).from(scheduledPosts).where(inArray(scheduledPosts.id, ids))).map((r) => [r.id, r.status]));
      const rows = await tx
        .update(scheduledPosts)
        .set({ status: 'publishing', claimedBy: this.id, claimedUntil: new Date(now.getTime() + this.#o.leaseMs), attempts: sql`${scheduledPosts.attempts} + 1`, updatedAt: now })
        .where(and(inArray(scheduledPosts.id, ids), or(due, stale)))
        .returning();
      for (const r of rows) {
        const from = prior.get(r.id) ?? 'scheduled';
        await this.#d.store.event(tx, r.id, from, 'publishing', from === 'scheduled' ? `due; claimed by ${this.id} (${only ? 'queue' : 'scan'})` : `attempt ${r.attempts}: claimed by ${this.id} (${only ? 'queue' : 'scan'}) after the previous claim expired or its retry time came`);
      }
      return rows;
    });
  }

  /** Publishes one claimed row to the end (published, failed, or released for a retry). */
  async execute(claimed: ScheduledRow): Promise<void> {
    let row = claimed;
    const log = this.#d.logger.child({ scheduledPost: row.id, platform: row.platform });
    this.metrics.attempt(row.platform);
    let postId = row.postId;
    try {
      if (postId && (await this.#nothingReachedANetwork(postId))) {
        // A retry of an entry whose every target failed before any network step (not connected,
        // refused, credits): start over with a fresh ledger post, since the connection or content may be new.
        const [cleared] = await this.#d.db.update(scheduledPosts).set({ postId: null }).where(and(eq(scheduledPosts.id, row.id), eq(scheduledPosts.claimedBy, row.claimedBy ?? ''))).returning({ id: scheduledPosts.id });
        if (!cleared) return;
        postId = null;
        row = { ...row, postId: null };
      }
      if (!postId) {
        const ws = await this.#d.workspaces.byId(row.workspaceId);
        if (!ws) return;
        const p: Principal = { kind: 'api_key', user: null, workspaceId: ws.id, planId: ws.planId, role: null, scope: fullScope(this.#d.slugs), keyId: null };
        // Validation and media again: the plan, the media or the limits may have changed since scheduling.
        const { targets } = await this.#d.publishing.prepare(p, row.postType as PostType, row.postData as PostBody);
        const created = await buildLedger({ ...this.#d, ledger: this.#d.publishing.ledger }, p, row, this.id, targets);
        if (!created) return log.info('claim lost before the ledger was written; another actor has this post');
        postId = created;
      }
      await this.afterLedger?.(row);
      const current = await this.#d.store.byId(row.id);
      // The last check before the network: a cancellation (or another claim) wins if it came first.
      if (!current || current.status !== 'publishing' || current.claimedBy !== row.claimedBy) return log.info({ status: current?.status }, 'not publishing any more; stopped before the network call');
      const targets = await this.#d.publishing.ledger.targetsOf(postId);
      await this.#chargeRetries(row, targets);
      const results = await Promise.all(
        targets.map(async (t) => (t.state === 'published' ? { platform: t.platform, success: true, message: 'published', post: { platform: t.platform, post_id: t.platformPostId, permalink: t.permalink } } as TargetResult : this.#d.publishing.runner.run(t.id))),
      );
      await this.#finish(row, results);
    } catch (err) {
      const permanent = err instanceof AppError && err.code !== 'internal';
      if (!permanent) log.error({ err }, 'scheduled publish crashed');
      await this.#failOrRetry(row, err instanceof Error ? err.message : String(err), !permanent);
    }
  }

  async #nothingReachedANetwork(postId: string): Promise<boolean> {
    const targets = await this.#d.publishing.ledger.targetsOf(postId);
    return targets.length > 0 && targets.every((t) => t.state === 'failed' && Object.keys(t.journal as object).length === 0);
  }

  /** A target refunded after a failed attempt is charged again before it is retried (a shortfall throws 402 → failed). */
  async #chargeRetries(row: ScheduledRow, targets: TargetRow[]): Promise<void> {
    const unpaid = targets.filter((t) => t.state !== 'published' && !t.creditSpent && t.connectionId);
    // Usually none (a first attempt's targets were paid in the ledger transaction): no workspace read then.
    if (!unpaid.length) return;
    const ws = await this.#d.workspaces.byId(row.workspaceId);
    if (!ws) return;
    for (const t of unpaid) {
      await this.#d.credits.spend({ workspaceId: t.workspaceId, planId: ws.planId, type: 'posts', amount: 1, reason: 'scheduled_retry', reference: t.id });
      await this.#d.publishing.ledger.update(t.id, { creditSpent: true });
    }
  }

  async #finish(row: ScheduledRow, results: TargetResult[]): Promise<void> {
    const failed = results.filter((r) => !r.success);
    const first = results.find((r) => r.success && r.post);
    if (!failed.length) {
      const current = await this.#d.store.byId(row.id);
      const late = current?.status === 'cancelled';
      await this.#d.store.transition(row.id, ['publishing', 'cancelled'], 'published', late ? 'published: the cancellation came too late, the network had already accepted the post' : 'published', {
        publishedPostId: first?.post?.post_id ?? null,
        publishedPostUrl: first?.post?.permalink ?? null,
        publishedAt: this.#d.clock(),
        errorMessage: null,
        claimedUntil: null,
      });
      return;
    }
    if (first) await this.#d.db.update(scheduledPosts).set({ publishedPostId: first.post?.post_id ?? null, publishedPostUrl: first.post?.permalink ?? null }).where(eq(scheduledPosts.id, row.id));
    const message = failed.map((f) => `${f.message}${f.error ? ` (${f.error})` : ''}`).join('; ');
    // The network's Retry-After (rate limits) is a floor under the backoff.
    const retryAfter = Math.max(0, ...failed.map((f) => f.retry_after_seconds ?? 0));
    await this.#failOrRetry(row, message, failed.every((f) => TRANSIENT.has(f.error ?? '')), retryAfter * 1000);
  }

  async #failOrRetry(row: ScheduledRow, message: string, transient: boolean, minDelayMs = 0): Promise<void> {
    const now = this.#d.clock();
    if (transient && row.attempts < this.#o.maxAttempts) {
      // Exponential backoff from 30 s, capped at 30 min; the row stays 'publishing' and its lease is the retry time.
      const delay = Math.max(Math.min(30_000 * 2 ** (row.attempts - 1), 30 * 60_000), minDelayMs);
      const at = new Date(now.getTime() + delay);
      const moved = await this.#d.store.transition(row.id, ['publishing'], 'publishing', `attempt ${row.attempts} failed, retry at ${at.toISOString()}: ${message}`, { claimedUntil: at, claimedBy: null, retryAt: at, errorMessage: `Retrying at ${at.toISOString()}: ${message}` });
      // The lease ends at the retry time; the wake-up is a few ms later so the claim finds it expired.
      if (moved) await this.#d.queue?.send(row.id, new Date(at.getTime() + 10));
      return;
    }
    this.metrics.failure(row.platform);
    await this.#d.store.transition(row.id, ['publishing'], 'failed', transient ? `gave up after ${row.attempts} attempts: ${message}` : message, { errorMessage: message, claimedUntil: null, claimedBy: null });
  }
}
