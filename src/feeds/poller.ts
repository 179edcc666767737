// The background feed poll: every HERALD_FEED_POLL_SECONDS, the feeds due are claimed (one guarded statement, so two
// processes never poll the same feed in one round) and polled a few at a time. With pg-boss (the default) one round
// is one job and each round enqueues the next, keyed by its time slot, as the comment sync does; without the queue
// (HERALD_SCHEDULER_QUEUE=scan) a timer runs the rounds under a database lock.
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { Locks } from '../db/locks.ts';
import type { ScheduleQueue } from '../scheduling/index.ts';
import { Rounds } from '../scheduling/rounds.ts';
import type { FeedService } from './service.ts';

export const FEED_POLL_QUEUE = 'herald-feed-poll';

export interface FeedRoundResult {
  feeds: number;
  notModified: number;
  failed: number;
  posted: number;
}

export interface FeedPollerDeps {
  feeds: FeedService;
  locks: Locks;
  queue: ScheduleQueue | undefined;
  clock: () => Date;
  logger: Logger;
  intervalSeconds: number;
  /** Feeds fetched at once. */
  concurrency?: number;
  /** Feeds claimed per batch of a round. */
  batchSize?: number;
}

export class FeedPoller {
  readonly #d: FeedPollerDeps;
  readonly #rounds: Rounds<FeedRoundResult>;

  constructor(deps: FeedPollerDeps) {
    this.#d = deps;
    this.#rounds = new Rounds({
      queueName: FEED_POLL_QUEUE,
      lockName: 'feed-poll',
      label: 'feed poll',
      queue: deps.queue,
      locks: deps.locks,
      clock: deps.clock,
      logger: deps.logger,
      intervalSeconds: deps.intervalSeconds,
      round: () => this.round(),
      log: (r) => (r.feeds ? deps.logger.info(r, 'feed poll round') : undefined),
    });
  }

  /** One round: every feed due, claimed batch by batch, polled to the end (the job, the timer, tests and the bench). */
  async round(): Promise<FeedRoundResult> {
    const out: FeedRoundResult = { feeds: 0, notModified: 0, failed: 0, posted: 0 };
    const limit = pLimit(this.#d.concurrency ?? 8);
    // A feed is due once the interval has passed since its last claim (a second less, so a round that starts a
    // moment early does not skip a feed for a whole interval); a feed claimed in this round is not due again in it.
    const before = new Date(this.#d.clock().getTime() - Math.max(0, this.#d.intervalSeconds * 1000 - 1000));
    for (;;) {
      const batch = await this.#d.feeds.store.claimDue(before, this.#d.batchSize ?? 50);
      if (!batch.length) return out;
      out.feeds += batch.length;
      await Promise.all(
        batch.map((f) =>
          limit(async () => {
            const r = await this.#d.feeds.poll(f);
            if (r.status === 'not_modified') out.notModified++;
            if (r.status === 'failed') out.failed++;
            out.posted += r.posted;
          }),
        ),
      );
    }
  }

  /** Starts the rounds (no-op when the interval is 0): src/scheduling/rounds.ts. */
  start(): void {
    this.#rounds.start();
  }

  stop(): Promise<void> {
    return this.#rounds.stop();
  }
}
