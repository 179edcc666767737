// pg-boss over Herald's own database: one job per queue entry, due at its scheduled_time, that wakes a
// worker to claim that entry. The job is only a wake-up: the claim itself is the guarded UPDATE in
// worker.ts, so a stale job (rescheduled, cancelled, already published) finds nothing to claim and
// ends, and duplicated jobs cannot publish twice. The worker's own scan stays as the backstop for
// entries created while no queue ran.
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';

export const QUEUE = 'herald-scheduled-post';

export interface QueueOptions {
  /** Other queues on the same pg-boss (created at start, as PGlite requires), e.g. the comment sync's. */
  queues?: readonly string[];
  batchSize: number;
  pollingIntervalSeconds: number;
  /** A job still active after this is retried by pg-boss (its worker died); as long as a claim lease. */
  expireInSeconds: number;
}

export class ScheduleQueue {
  readonly #database: Database;
  readonly #url: string | undefined;
  readonly #logger: Logger;
  readonly #o: QueueOptions;
  #boss: PgBoss | undefined;
  #starting: Promise<PgBoss> | undefined;

  constructor(database: Database, databaseUrl: string | undefined, logger: Logger, opts: QueueOptions) {
    this.#database = database;
    this.#url = databaseUrl;
    this.#logger = logger;
    this.#o = opts;
  }

  get started(): boolean {
    return this.#boss !== undefined;
  }

  /**
   * Starts pg-boss and creates the queue up front (on PGlite a queue created later, inside a transaction, deadlocks).
   */
  start(): Promise<PgBoss> {
    this.#starting ??= (async () => {
      const d = this.#database;
      // Loaded here, once the server listens (main.ts starts the queue after listen): not on the way to /healthz.
      const { PgBoss, fromPglite } = await import('pg-boss');
      const boss =
        d.kind === 'postgres' && this.#url
          ? new PgBoss({ connectionString: this.#url, max: 4, application_name: 'herald-queue' })
          : new PgBoss({ db: fromPglite(d.pglite!), backend: 'pglite' });
      boss.on('error', (err: unknown) => this.#logger.error({ err }, 'job queue error'));
      await boss.start();
      await boss.createQueue(QUEUE, {
        retryLimit: 3,
        retryBackoff: true,
        retryDelay: 5,
        expireInSeconds: this.#o.expireInSeconds,
      });
      for (const name of this.#o.queues ?? [])
        await boss.createQueue(name, { retryLimit: 1, retryDelay: 60, expireInSeconds: 3600 });
      this.#boss = boss;
      return boss;
    })();
    return this.#starting;
  }

  /** Wakes a worker at `at` for this entry. Never called inside an application transaction. */
  async send(id: string, at: Date): Promise<void> {
    if (!this.#boss) return;
    try {
      // One job per entry and time: a reschedule adds a job for the new time; the old one finds nothing.
      await this.#boss.send(QUEUE, { id }, { startAfter: at, singletonKey: `${id}@${at.toISOString()}` });
    } catch (err) {
      // The worker's scan still finds the entry; a lost wake-up only costs a poll interval.
      this.#logger.warn({ err, id }, 'could not enqueue the scheduled post; the worker scan will pick it up');
    }
  }

  /** Wake-ups for many entries (a bulk import), a thousand per statement; like send(), a failure is only logged. */
  async sendAll(entries: readonly { id: string; scheduledTime: Date }[]): Promise<void> {
    if (!this.#boss) return;
    for (let i = 0; i < entries.length; i += 1000) {
      const chunk = entries.slice(i, i + 1000);
      try {
        await this.#boss.insert(
          QUEUE,
          chunk.map((e) => ({
            data: { id: e.id },
            startAfter: e.scheduledTime,
            singletonKey: `${e.id}@${e.scheduledTime.toISOString()}`,
          })),
        );
      } catch (err) {
        this.#logger.warn(
          { err, jobs: chunk.length },
          'could not enqueue the scheduled posts; the worker scan will pick them up',
        );
      }
    }
  }

  /** pg-boss's polling interval: how long the worker waits after a fetch that was not full. */
  get pollMs(): number {
    return this.#o.pollingIntervalSeconds * 1000;
  }

  /**
   * Fetches up to `limit` due wake-ups and completes them at once (a wake-up has no work of its own: the
   * claim is the guarded UPDATE, and the scan is the backstop), returning their entry ids. The worker
   * calls it only when it has that many free slots, so no fetched wake-up waits for a slot.
   */
  pull(limit: number): Promise<string[]> {
    return this.pullFrom(QUEUE, limit);
  }

  /** `pull` on one of the other queues whose jobs are wake-ups carrying a row id. */
  async pullFrom(name: string, limit: number): Promise<string[]> {
    const boss = await this.start();
    const jobs = await boss.fetch<{ id: string }>(name, { batchSize: limit });
    if (!jobs.length) return [];
    await boss.complete(
      name,
      jobs.map((j) => j.id),
    );
    return jobs.map((j) => j.data.id);
  }

  /** Many wake-ups on one of the other queues in one statement; a failure is logged, never thrown. */
  async sendMany(name: string, jobs: readonly { id: string; startAfter: Date; singletonKey: string }[]): Promise<void> {
    if (!jobs.length) return;
    const boss = await this.start();
    try {
      await boss.insert(
        name,
        jobs.map((j) => ({ data: { id: j.id }, startAfter: j.startAfter, singletonKey: j.singletonKey })),
      );
    } catch (err) {
      this.#logger.warn(
        { err, queue: name, jobs: jobs.length },
        'could not enqueue jobs; the worker scan will find them',
      );
    }
  }

  /**
   * A job on one of the other queues (`queues`); a failure is logged, never thrown. With `singletonSeconds`, a second
   * job of the same key sent within the same window of that many seconds is dropped (pg-boss's throttle: on a queue of
   * the standard policy a key alone does not make a job unique).
   */
  async sendTo(
    name: string,
    data: object,
    opts: { startAfter: Date; singletonKey: string; singletonSeconds?: number },
  ): Promise<void> {
    const boss = await this.start();
    try {
      await boss.send(name, data, opts);
    } catch (err) {
      this.#logger.warn({ err, queue: name }, 'could not enqueue a job');
    }
  }

  /** Works one of the other queues, one job at a time. */
  async workOn(name: string, handler: () => Promise<void>): Promise<void> {
    const boss = await this.start();
    await boss.work(
      name,
      { batchSize: 1, pollingIntervalSeconds: Math.max(this.#o.pollingIntervalSeconds, 2) },
      async () => {
        await handler();
      },
    );
  }

  async stop(): Promise<void> {
    const boss = this.#boss ?? (this.#starting ? await this.#starting.catch(() => undefined) : undefined);
    this.#boss = undefined;
    this.#starting = undefined;
    await boss?.stop({ graceful: true, close: true, timeout: 10_000 });
  }
}
