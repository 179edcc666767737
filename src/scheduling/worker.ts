// The scheduling worker: claims due queue entries with a guarded UPDATE (FOR UPDATE SKIP LOCKED, so
// several workers on one PostgreSQL never take the same row), creates the ledger post and targets in
// one transaction linked to the entry, then publishes through TargetRunner. A claim is a lease: a
// worker that dies leaves the row 'publishing' until the lease passes, and the next claim resumes the
// same ledger targets, whose journals make the retry safe.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ConnectionStore } from '../connections/store.ts';
import { SchedulerMetrics } from './metrics.ts';
import type { ScheduleQueue } from './queue.ts';
import { ScheduledRun, type Prefetched, type RunDeps } from './run.ts';
import type { ScheduledRow, ScheduledStore } from './store.ts';

/**
 * Everything the worker uses, given at construction: the ledger, the target runner, a validator for a workspace and
 * plan.
 */
export interface WorkerDeps extends RunDeps {
  store: ScheduledStore;
  clock: () => Date;
  logger: Logger;
  /** pg-boss wake-ups at each entry's time; without it the scan below does everything. */
  queue?: ScheduleQueue | undefined;
  /** The plans of several workspaces in one read (once per claimed batch). */
  plansOf: (workspaceIds: string[]) => Promise<Map<string, string>>;
  /** The connections of several workspaces in one read (once per claimed batch). */
  connections: Pick<ConnectionStore, 'listMany'>;
}

/** Entries this process finished lately: a wake-up for one of them is not worth a claim. */
const RECENT = 10_000;

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
  readonly options: WorkerOptions;
  readonly #run: ScheduledRun;
  readonly #d: WorkerDeps;
  readonly #o: WorkerOptions;
  /** Entries this process is publishing now: never claimed again here, and their leases are renewed. */
  readonly #inFlight = new Map<string, Promise<void>>();
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  /** More was due than there were free slots: finishing runs wake the loop instead of waiting for the poll. */
  #backlog = false;
  /** When the missed posts were last failed (once per scan interval is enough: the grace period is hours). */
  #missedAt = -Infinity;
  /** Ids finished here lately (insertion order = age), for skipping their stale wake-ups. */
  readonly #recent = new Set<string>();
  #pulling: Promise<void> | undefined;

  constructor(deps: WorkerDeps, opts: WorkerOptions) {
    this.deps = deps;
    this.options = opts;
    this.#d = deps;
    this.#o = opts;
    this.#run = new ScheduledRun(deps, opts, this.metrics, this.id);
  }

  /** Publishes one claimed row to the end (publish-now uses it directly). */
  execute(row: ScheduledRow): Promise<void> {
    return this.#run.execute(row);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    const queue = this.#d.queue;
    if (queue) this.#pulling = this.#pull(queue);
    // With pg-boss waking us at each entry's time the scan is only the backstop (entries created while
    // no queue ran, expired leases, a backlog larger than the free slots), so it runs less often.
    const every = this.#every();
    this.#loop = (async () => {
      while (this.#running) {
        let more = false;
        try {
          more = await this.#round();
        } catch (err) {
          this.#d.logger.error({ err }, 'scheduler tick failed');
        }
        // A full claim with slots left means there may be more due right now: claim again without waiting.
        if (!more && this.#running)
          await new Promise<void>((r) => {
            this.#wake = r;
            setTimeout(r, every).unref();
          });
      }
    })();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    await this.#pulling;
    await this.#d.queue?.stop();
    // Runs in flight finish (their claims would otherwise wait out the lease); the caller bounds the wait.
    await Promise.allSettled(this.#inFlight.values());
  }

  /**
   * One round, awaited to the end (tests and tools): fail what was missed, claim what is due, publish it. Returns how
   * many were claimed.
   */
  async tick(): Promise<number> {
    await this.#failMissed();
    const rows = await this.#claim(undefined, this.#free());
    const pre = await this.#prefetch(rows);
    await Promise.all(rows.map((r) => this.#launch(r, pre)));
    return rows.length;
  }

  #free(): number {
    return Math.max(0, Math.min(this.#o.batchSize, this.freeSlots()));
  }

  /** Runs this worker could start now (HERALD_SCHEDULER_CONCURRENCY less the runs in flight). */
  freeSlots(): number {
    return Math.max(0, this.#o.concurrency - this.#inFlight.size);
  }

  /** The loop's round: claims up to the free slots and starts them without waiting. True when more may be due now. */
  async #round(): Promise<boolean> {
    if (this.#d.clock().getTime() - this.#missedAt >= this.#every()) await this.#failMissed();
    const limit = this.#free();
    if (limit === 0) {
      this.#backlog = true;
      return false;
    }
    const rows = await this.#claim(undefined, limit);
    const pre = await this.#prefetch(rows);
    for (const r of rows) void this.#launch(r, pre);
    this.#backlog = rows.length === limit;
    return this.#backlog && this.#free() >= this.#refill();
  }

  /** How often the scan runs: the poll interval, or every 5 s when pg-boss wakes the worker at each entry's time. */
  #every(): number {
    return this.#d.queue ? Math.max(this.#o.pollMs, 5000) : this.#o.pollMs;
  }

  /**
   * With a backlog, the loop claims again once this many slots are free (a fifth of them), not at every
   * finished run: one claim statement then serves several posts.
   */
  #refill(): number {
    return Math.max(1, Math.min(this.#o.batchSize, Math.floor(this.#o.concurrency / 5)));
  }

  /** The plans and connections of the batch's workspaces, read once for all its entries. */
  async #prefetch(rows: ScheduledRow[]): Promise<Map<string, Prefetched>> {
    const ids = [...new Set(rows.filter((r) => !r.postId).map((r) => r.workspaceId))];
    if (!ids.length) return new Map();
    const [plans, conns] = await Promise.all([this.#d.plansOf(ids), this.#d.connections.listMany(ids)]);
    return new Map(ids.map((id) => [id, { planId: plans.get(id), connections: conns.get(id) ?? [] }]));
  }

  #launch(row: ScheduledRow, pre: Map<string, Prefetched>): Promise<void> {
    const run = this.#run
      .execute(row, pre.get(row.workspaceId))
      .catch((err: unknown) =>
        this.#d.logger.error(
          { err, scheduledPost: row.id },
          'scheduled publish could not be finished; its lease will expire and it will be resumed',
        ),
      )
      .finally(() => {
        this.#inFlight.delete(row.id);
        this.#recent.add(row.id);
        if (this.#recent.size > RECENT) this.#recent.delete(this.#recent.values().next().value!);
        if (!this.#inFlight.size) {
          clearInterval(this.#heartbeat);
          this.#heartbeat = undefined;
        }
        if (this.#backlog && this.#free() >= this.#refill()) this.#wake?.();
      });
    this.#inFlight.set(row.id, run);
    // The heartbeat runs while anything is in flight.
    if (!this.#heartbeat) {
      this.#heartbeat = setInterval(() => void this.#renewLeases(), Math.max(Math.floor(this.#o.leaseMs / 3), 100));
      this.#heartbeat.unref();
    }
    return run;
  }

  /**
   * The pg-boss wake-ups, fetched by this loop only while there are free slots and no backlog (the scan
   * then claims in due order anyway): never a fetch whose jobs could not be claimed. A full fetch is
   * followed by another at once; otherwise the next comes after pg-boss's polling interval.
   */
  async #pull(queue: ScheduleQueue): Promise<void> {
    try {
      await queue.start();
    } catch (err) {
      this.#d.logger.error({ err }, 'job queue did not start; the scan alone publishes');
      return;
    }
    while (this.#running) {
      let full = false;
      const limit = this.#backlog ? 0 : this.#free();
      if (limit > 0) {
        try {
          const ids = await queue.pull(limit);
          full = ids.length >= limit;
          if (ids.length) await this.#runQueued(ids);
        } catch (err) {
          this.#d.logger.warn({ err }, 'fetching wake-ups from the job queue failed; the scan publishes meanwhile');
        }
      }
      if (!full && this.#running) await new Promise<void>((r) => setTimeout(r, queue.pollMs).unref());
    }
  }

  /**
   * Wake-ups fetched from pg-boss: claim these entries if they are (still) due, and start them. The job is only a
   * wake-up, so it ended already.
   */
  async #runQueued(ids: string[]): Promise<void> {
    const wanted = ids.filter((id) => !this.#inFlight.has(id) && !this.#recent.has(id));
    const limit = Math.min(this.#free(), wanted.length);
    const rows = limit > 0 ? await this.#claim(wanted, limit) : [];
    const pre = await this.#prefetch(rows);
    for (const r of rows) void this.#launch(r, pre);
    // More due than free slots: let the scan claim the rest as soon as it can.
    if (rows.length < wanted.length && this.#free() === 0) this.#backlog = true;
  }

  /**
   * Heartbeat: a claim stays ours while we publish it, so a short lease only bounds how long a dead worker's posts
   * wait.
   */
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
    this.#missedAt = now.getTime();
    const grace = this.#o.graceSeconds;
    const missed = await this.#d.store.failMissed(
      new Date(now.getTime() - grace * 1000),
      `Missed: this post was due at the scheduled time but no worker ran until more than ${grace} s later (HERALD_SCHEDULE_GRACE_SECONDS). Reschedule it or publish it now.`,
    );
    for (const r of missed) this.metrics.failure(r.platform);
  }

  /**
   * The reconciler's hand-over: claims these entries now (if they are still due, or their lease passed) and publishes
   * them to the end. Returns how many it claimed. The reconciler hands over no more than freeSlots().
   */
  async resume(ids: string[]): Promise<number> {
    const rows = await this.#claim(
      ids.filter((id) => !this.#inFlight.has(id)),
      ids.length,
    );
    const pre = await this.#prefetch(rows);
    await Promise.all(rows.map((r) => this.#launch(r, pre)));
    return rows.length;
  }

  async #claim(only: string[] | undefined, limit: number): Promise<ScheduledRow[]> {
    if (limit <= 0) return [];
    const cutoff = new Date(this.#d.clock().getTime() - this.#o.graceSeconds * 1000);
    // Never an entry this process is already publishing (its lease may have lapsed while the event loop was busy).
    return this.#d.store.claim({
      workerId: this.id,
      only,
      exclude: [...this.#inFlight.keys()],
      limit,
      cutoff,
      leaseMs: this.#o.leaseMs,
    });
  }
}
