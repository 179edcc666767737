// The scheduling worker: claims due queue entries with a guarded UPDATE (FOR UPDATE SKIP LOCKED, so
// several workers on one PostgreSQL never take the same row), creates the ledger post and targets in
// one transaction linked to the entry, then publishes through TargetRunner. A claim is a lease: a
// worker that dies leaves the row 'publishing' until the lease passes, and the next claim resumes the
// same ledger targets, whose journals make the retry safe.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { SchedulerMetrics } from './metrics.ts';
import type { ScheduleQueue } from './queue.ts';
import { ScheduledRun, type RunDeps } from './run.ts';
import type { ScheduledRow, ScheduledStore } from './store.ts';

/** Everything the worker uses, given at construction: the ledger, the target runner, a validator for a workspace and plan. */
export interface WorkerDeps extends RunDeps {
  store: ScheduledStore;
  clock: () => Date;
  logger: Logger;
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

export class ScheduleWorker {
  // The pid tells operators (and the chaos test) which process holds a claim.
  readonly id = `worker-${process.pid}-${randomUUID().slice(0, 4)}`;
  readonly metrics = new SchedulerMetrics();
  readonly deps: WorkerDeps;
  readonly #run: ScheduledRun;
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
    this.deps = deps;
    this.#d = deps;
    this.#o = opts;
    this.#run = new ScheduledRun(deps, opts, this.metrics, this.id);
  }

  /** Tests: called once the ledger targets exist, before any network call (simulated crashes). */
  get afterLedger(): ((row: ScheduledRow) => void | Promise<void>) | undefined {
    return this.#run.afterLedger;
  }

  set afterLedger(fn: ((row: ScheduledRow) => void | Promise<void>) | undefined) {
    this.#run.afterLedger = fn;
  }

  /** Publishes one claimed row to the end (publish-now uses it directly). */
  execute(row: ScheduledRow): Promise<void> {
    return this.#run.execute(row);
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
      await this.#d.store.renewLeases(ids, this.id, new Date(this.#d.clock().getTime() + this.#o.leaseMs));
    } catch (err) {
      this.#d.logger.warn({ err }, 'could not renew the scheduling leases');
    }
  }

  async #failMissed(): Promise<void> {
    const now = this.#d.clock();
    const grace = this.#o.graceSeconds;
    const missed = await this.#d.store.failMissed(
      new Date(now.getTime() - grace * 1000),
      `Missed: this post was due at the scheduled time but no worker ran until more than ${grace} s later (HERALD_SCHEDULE_GRACE_SECONDS). Reschedule it or publish it now.`,
      (r) => `missed: due ${r.scheduledTime.toISOString()}, found at ${now.toISOString()}, past the grace period`,
    );
    for (const r of missed) this.metrics.failure(r.platform);
  }

  async #claim(only: string[] | undefined, limit: number): Promise<ScheduledRow[]> {
    if (limit <= 0) return [];
    const cutoff = new Date(this.#d.clock().getTime() - this.#o.graceSeconds * 1000);
    // Never an entry this process is already publishing (its lease may have lapsed while the event loop was busy).
    return this.#d.store.claim({ workerId: this.id, only, exclude: [...this.#inFlight.keys()], limit, cutoff, leaseMs: this.#o.leaseMs });
  }
}
