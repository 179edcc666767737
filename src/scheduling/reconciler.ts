// The reconciler: nothing stays stuck. Every HERALD_RECONCILE_SECONDS it looks for
//   - queue entries due for longer than HERALD_STUCK_AFTER_SECONDS that no worker claimed (a lost wake-up, a job
//     deleted from the queue, a worker that was down), and entries whose claim expired that long ago (a worker
//     killed mid-publish): it hands them to this process's worker, which resumes them through their journal;
//   - ledger targets left pending or processing past the publish deadline by a request whose process died: it runs
//     them again through their journal (never a second copy), or fails them with the reason once they used up their
//     attempts.
// Each finding is a `post.stuck` event (what was found, and whether it was resumed or failed) and a log line;
// /metrics counts what is stuck now (herald_posts_stuck).
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { CreditService } from '../auth/credits.ts';
import type { Db } from '../db/client.ts';
import { sql } from '../db/orm.ts';
import { rowsOf } from '../db/raw.ts';
import { eventRow, recordEvents } from '../events/index.ts';
import type { Ledger, TargetRow, TargetRunner } from '../publishing/index.ts';
import type { ScheduleWorker } from './worker.ts';

export interface ReconcilerDeps {
  db: Db;
  ledger: Ledger;
  runner: TargetRunner;
  credits: CreditService;
  worker: Pick<ScheduleWorker, 'resume' | 'freeSlots'>;
  clock: () => Date;
  logger: Logger;
}

export interface ReconcilerOptions {
  everyMs: number;
  /** How long past its time (or its lease) an entry may wait before it counts as stuck. */
  stuckAfterMs: number;
  /**
   * How long a request may run its targets (HERALD_PUBLISH_WAIT_SECONDS): a target untouched past it plus stuckAfterMs
   * is overdue.
   */
  publishWaitMs: number;
  /** The entry's grace period: older due entries are failed as missed by the worker instead. */
  graceSeconds: number;
  maxAttempts: number;
}

export interface StuckCounts {
  due_not_claimed: number;
  lease_expired: number;
  target_overdue: number;
}

const utc = (col: string) => sql`to_char(${sql.raw(col)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

export class Reconciler {
  readonly #d: ReconcilerDeps;
  readonly #o: ReconcilerOptions;
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<unknown> | undefined;

  constructor(deps: ReconcilerDeps, opts: ReconcilerOptions) {
    this.#d = deps;
    this.#o = opts;
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.#pass ??= this.pass()
        .catch((err: unknown) => this.#d.logger.error({ err }, 'reconciler pass failed'))
        .finally(() => {
          this.#pass = undefined;
        });
    }, this.#o.everyMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#pass;
  }

  #cutoffs() {
    const now = this.#d.clock();
    return {
      now,
      due: new Date(now.getTime() - this.#o.stuckAfterMs),
      grace: new Date(now.getTime() - this.#o.graceSeconds * 1000),
      target: new Date(now.getTime() - this.#o.publishWaitMs - this.#o.stuckAfterMs),
    };
  }

  /** What is stuck now (for /metrics), by kind. */
  async count(): Promise<StuckCounts> {
    const c = this.#cutoffs();
    const [entries] = rowsOf(
      await this.#d.db.execute(sql`
        select count(*) filter (where status = 'scheduled' and not held and scheduled_time < ${c.due.toISOString()}::timestamptz
            and scheduled_time >= ${c.grace.toISOString()}::timestamptz)::int as due,
          count(*) filter (where status = 'publishing' and claimed_until < ${c.due.toISOString()}::timestamptz)::int as lease
        from scheduled_posts where status in ('scheduled', 'publishing')`),
    );
    const overdue = await this.#d.ledger.overdue(c.target, c.now, 10_000);
    return {
      due_not_claimed: Number(entries?.due ?? 0),
      lease_expired: Number(entries?.lease ?? 0),
      target_overdue: overdue.length,
    };
  }

  /**
   * One pass: finds what is stuck, records it, and resumes or fails it. Returns what it found.
   *
   * Queue entries are handed to this process's worker only as many as it has free slots: while every slot is busy,
   * entries due a while ago are a backlog, not stuck (the worker claims them oldest first as its runs finish, and so
   * does every other worker), and taking them would start more runs than HERALD_SCHEDULER_CONCURRENCY and report each
   * as a post.stuck event.
   */
  async pass(): Promise<StuckCounts> {
    const c = this.#cutoffs();
    const room = Math.min(500, this.#d.worker.freeSlots());
    // The stuck entries and their post.stuck events, in one statement.
    const found = !room
      ? []
      : rowsOf(
          await this.#d.db.execute(sql`
        with stuck as (
          select id, workspace_id, post_id, platform,
            case when status = 'scheduled'
              then 'due at ' || ${utc('scheduled_time')} || ' and not picked up by a worker'
              else 'claim expired at ' || ${utc('claimed_until')} || ' (its worker stopped mid-publish)' end as reason,
            status
          from scheduled_posts
          where (status = 'scheduled' and not held and scheduled_time < ${c.due.toISOString()}::timestamptz
              and scheduled_time >= ${c.grace.toISOString()}::timestamptz)
            or (status = 'publishing' and claimed_until < ${c.due.toISOString()}::timestamptz)
          order by scheduled_time limit ${room}
        ),
        ev as (
          insert into events (workspace_id, type, post_id, platform, data, occurred_at)
          select workspace_id, 'post.stuck', post_id, platform,
            jsonb_build_object('post_id', post_id, 'scheduled_post_id', id, 'target_id', null, 'platform', platform,
              'reason', reason, 'action', 'resumed'),
            ${c.now.toISOString()}::timestamptz
          from stuck
        )
        select id, platform, status, reason from stuck`),
        );
    for (const r of found)
      this.#d.logger.warn({ scheduledPost: r.id, network: r.platform, reason: r.reason }, 'stuck post resumed');
    if (found.length) await this.#d.worker.resume(found.map((r) => String(r.id)));
    const targets = await this.#d.ledger.overdue(c.target, c.now, 100);
    await Promise.all(targets.map((t) => this.#target(t, c.target)));
    return {
      due_not_claimed: found.filter((r) => r.status === 'scheduled').length,
      lease_expired: found.filter((r) => r.status === 'publishing').length,
      target_overdue: targets.length,
    };
  }

  /** An overdue target: resumed through its journal, or failed with the reason once its attempts are spent. */
  async #target(t: TargetRow, cutoff: Date): Promise<void> {
    const reason = `${t.state} since ${t.updatedAt.toISOString()}: the run publishing it stopped`;
    const giveUp = t.attempts >= this.#o.maxAttempts;
    const claimed = await this.#d.ledger.claimOverdue(t.id, cutoff);
    if (!claimed) return; // another reconciler took it
    const line = { network: t.platform, post: t.postId, target: t.id, attempt: claimed.attempts, reason };
    await recordEvents(this.#d.db, [
      eventRow(
        t.workspaceId,
        'post.stuck',
        {
          post_id: t.postId,
          scheduled_post_id: null,
          target_id: t.id,
          platform: t.platform,
          reason,
          action: giveUp ? 'failed' : 'resumed',
        },
        { at: this.#d.clock() },
      ),
    ]);
    if (giveUp) {
      this.#d.logger.warn(line, 'stuck target failed');
      await this.#d.ledger.transaction(async (tx) => {
        await this.#d.ledger.settle(
          t.id,
          {
            state: 'failed',
            errorCode: 'STUCK',
            errorMessage: `Herald gave up after ${t.attempts} attempts: ${reason}.`,
            creditSpent: false,
          },
          'reconciler',
          tx,
        );
        if (t.creditSpent)
          await this.#d.credits.refund(
            { workspaceId: t.workspaceId, type: 'posts', amount: 1, reason: 'publish_failed', reference: t.id },
            tx,
          );
      });
    } else {
      this.#d.logger.warn(line, 'stuck target resumed');
      await this.#d.runner.run(claimed, { attemptRecorded: true, source: 'reconciler' });
    }
    await this.#d.ledger.closeRetry(t.postId);
  }

  /** herald_posts_stuck{kind}: read from the database when scraped, right whichever process reconciles. */
  register(registry: Registry): void {
    const count = () => this.count();
    new Gauge({
      name: 'herald_posts_stuck',
      help: 'Posts stuck now: due entries no worker claimed, claims expired long ago, targets left mid-publish',
      labelNames: ['kind'] as const,
      registers: [registry],
      async collect() {
        const s = await count();
        for (const [kind, n] of Object.entries(s)) this.set({ kind }, n);
      },
    });
  }
}
