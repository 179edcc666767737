// Posts published under a provisional id (TikTok's public id comes after moderation, sometimes hours later): every
// HERALD_FOLLOW_UP_SECONDS, each such post of the last week is asked about again (TargetRunner.followUp), and its
// final id and permalink replace the stand-in as soon as the network gives them. One process at a time, under a
// database lock; the posts are few (only those a network published without their final id).
import type { Logger } from 'pino';
import type { Locks } from '../db/locks.ts';
import type { Ledger } from './ledger.ts';
import type { TargetRunner } from './runner.ts';
import { FOLLOW_UP_STEP } from './runner.ts';
import { PlatformError } from '../platforms/types.ts';

const WEEK_MS = 7 * 86_400_000;

export interface FollowUpDeps {
  ledger: Ledger;
  runner: TargetRunner;
  locks: Locks;
  clock: () => Date;
  logger: Logger;
  intervalSeconds: number;
}

export class FollowUps {
  readonly #d: FollowUpDeps;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<unknown> | undefined;

  constructor(deps: FollowUpDeps) {
    this.#d = deps;
  }

  /** One pass over the provisional posts of the last week; how many got their final id. */
  async round(): Promise<{ checked: number; updated: number }> {
    const rows = await this.#d.ledger.provisional(FOLLOW_UP_STEP, new Date(this.#d.clock().getTime() - WEEK_MS), 200);
    let updated = 0;
    for (const row of rows) {
      try {
        if ((await this.#d.runner.followUp(row)) === 'done') updated++;
      } catch (err) {
        // The next round asks again; a network that refuses now (throttled, expired token) is no reason to stop.
        if (!(err instanceof PlatformError)) throw err;
        this.#d.logger.warn(
          { platform: row.platform, target: row.id, kind: err.kind },
          'asking for a final post id failed',
        );
      }
    }
    return { checked: rows.length, updated };
  }

  start(): void {
    if (this.#timer || this.#d.intervalSeconds <= 0) return;
    this.#timer = setInterval(() => {
      this.#round ??= this.#d.locks
        .withLock('publishing-follow-ups', () => this.round())
        .catch((err: unknown) => this.#d.logger.warn({ err }, 'follow-up round failed'))
        .finally(() => {
          this.#round = undefined;
        });
    }, this.#d.intervalSeconds * 1000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#round;
  }
}
