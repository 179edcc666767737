// A background job that runs in rounds, once per interval across every process: on the job queue (PostgreSQL), each
// round is a pg-boss job that enqueues the next one; without it (embedded PGlite, one process), a timer runs the round
// under an advisory lock. The comment sync and the feed poller run this way.
import type { Logger } from 'pino';
import type { Locks } from '../db/locks.ts';
import type { ScheduleQueue } from './queue.ts';

export interface RoundsOptions<T> {
  /** The job queue's name for the rounds (one of ScheduleQueue's `queues`). */
  queueName: string;
  /** The advisory lock the timer's round holds. */
  lockName: string;
  /** What the logs call it, e.g. "comment sync". */
  label: string;
  queue: ScheduleQueue | undefined;
  locks: Locks;
  clock: () => Date;
  logger: Logger;
  intervalSeconds: number;
  round: () => Promise<T>;
  /** Logs a round's result (e.g. only when it did something). */
  log: (result: T) => void;
}

export class Rounds<T> {
  readonly #o: RoundsOptions<T>;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #round: Promise<T | null> | undefined;

  constructor(options: RoundsOptions<T>) {
    this.#o = options;
  }

  /** The start of the interval `at` falls in. */
  #slotStart(at: Date): Date {
    const ms = this.#o.intervalSeconds * 1000;
    return new Date(Math.floor(at.getTime() / ms) * ms);
  }

  /**
   * A round's job for the slot starting at `slot`. Every process that runs the rounds starts one at boot and enqueues
   * the next one after each round: pg-boss's throttle window (singletonSeconds) as well as the round's key makes the
   * copies one job (on a queue of the standard policy a key alone does not make a job unique).
   */
  async #send(queue: ScheduleQueue, slot: Date, startAfter: Date): Promise<void> {
    await queue.sendTo(
      this.#o.queueName,
      {},
      { startAfter, singletonKey: `round@${slot.toISOString()}`, singletonSeconds: this.#o.intervalSeconds },
    );
  }

  /** Starts the rounds (no-op when the interval is 0). */
  start(): void {
    const o = this.#o;
    if (this.#running || o.intervalSeconds <= 0) return;
    this.#running = true;
    const queue = o.queue;
    if (queue) {
      void (async () => {
        await queue.workOn(o.queueName, async () => {
          try {
            o.log(await o.round());
          } finally {
            const next = new Date(this.#slotStart(o.clock()).getTime() + o.intervalSeconds * 1000);
            await this.#send(queue, next, next);
          }
        });
        await this.#send(queue, this.#slotStart(o.clock()), o.clock());
      })().catch((err: unknown) => o.logger.error({ err }, `${o.label} did not start on the job queue`));
      return;
    }
    const tick = () => {
      this.#round ??= o.locks
        .withLock(o.lockName, () => o.round())
        .then(
          (r) => {
            o.log(r);
            return r;
          },
          (err: unknown) => {
            o.logger.warn({ err }, `${o.label} round failed`);
            return null;
          },
        )
        .finally(() => {
          this.#round = undefined;
        });
    };
    this.#timer = setInterval(tick, o.intervalSeconds * 1000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer) clearInterval(this.#timer);
    await this.#round;
  }
}
