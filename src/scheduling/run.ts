// One claimed queue entry published to the end: its ledger post and targets (written once, in one
// transaction linked to the entry while the claim holds), the runs, and the outcome — published,
// failed, or released for a retry with backoff. The worker (worker.ts) decides what to claim and when.
import type { Logger } from 'pino';
import type { CreditService } from '../auth/credits.ts';
import type { ConnectionRow } from '../connections/store.ts';
import { AppError } from '../errors.ts';
import type { MediaRow } from '../media/records.ts';
import type { PostType } from '../platforms/publishing.ts';
import type {
  KnownTarget,
  Ledger,
  PlannedTarget,
  PostBody,
  PublishingService,
  TargetOutcome,
  TargetRow,
  TargetRunner,
  WithPublished,
} from '../publishing/index.ts';
import type { SchedulerMetrics } from './metrics.ts';
import type { ScheduleQueue } from './queue.ts';
import type { ScheduledRow, ScheduledStore } from './store.ts';

/** Checks a stored body again for its workspace and plan (limits, media, features may have changed). */
export type Validate = (
  owner: { workspaceId: string; planId: string },
  postType: PostType,
  body: PostBody,
) => Promise<{ targets: PlannedTarget[]; media: Map<string, MediaRow> }>;

export interface RunDeps {
  store: ScheduledStore;
  /** Publishing's ledger writer for a claimed entry. */
  publishing: Pick<PublishingService, 'recordScheduledRun'>;
  ledger: Ledger;
  runner: TargetRunner;
  validate: Validate;
  /** The workspace's current plan; undefined once the workspace is gone. */
  planOf: (workspaceId: string) => Promise<string | undefined>;
  credits: CreditService;
  clock: () => Date;
  logger: Logger;
  queue?: ScheduleQueue | undefined;
  /** Tests: called once the ledger targets exist, before any network call (simulated crashes). */
  afterLedger?: ((row: ScheduledRow) => void | Promise<void>) | undefined;
}

/**
 * What the worker read once for a whole claimed batch: the entry's workspace plan (undefined: gone) and its
 * connections.
 */
export interface Prefetched {
  planId: string | undefined;
  connections: ConnectionRow[];
}

export interface RunOptions {
  maxAttempts: number;
}

export class ScheduledRun {
  readonly #d: RunDeps;
  readonly #o: RunOptions;
  readonly #metrics: SchedulerMetrics;
  readonly #workerId: string;
  constructor(deps: RunDeps, opts: RunOptions, metrics: SchedulerMetrics, workerId: string) {
    this.#d = deps;
    this.#o = opts;
    this.#metrics = metrics;
    this.#workerId = workerId;
  }

  /**
   * Publishes one claimed row to the end (published, failed, or released for a retry). `pre`: what the worker read for
   * its batch.
   */
  async execute(claimed: ScheduledRow, pre?: Prefetched): Promise<void> {
    let row = claimed;
    const log = this.#d.logger.child({ scheduledPost: row.id, platform: row.platform });
    this.#metrics.attempt(row.platform);
    let postId = row.postId;
    const fresh = new Map<string, KnownTarget>();
    try {
      let targets = postId ? await this.#d.ledger.targetsOf(postId) : [];
      if (
        postId &&
        targets.length > 0 &&
        targets.every((t) => t.state === 'failed' && Object.keys(t.journal as object).length === 0)
      ) {
        // A retry of an entry whose every target failed before any network step (not connected,
        // refused, credits): start over with a fresh ledger post, since the connection or content may be new.
        if (!(await this.#d.store.unlinkPost(row.id, row.claimedBy ?? ''))) return;
        postId = null;
        row = { ...row, postId: null };
      }
      if (!postId) {
        const planId = pre ? pre.planId : await this.#d.planOf(row.workspaceId);
        if (!planId) return;
        const postType = row.postType as PostType;
        // Validation and media again: the plan, the media or the limits may have changed since scheduling.
        const { targets: planned, media } = await this.#d.validate(
          { workspaceId: row.workspaceId, planId },
          postType,
          row.postData as PostBody,
        );
        const created = await this.#writeLedger(row, planId, planned, pre?.connections);
        if (!created) return log.info('claim lost before the ledger was written; another actor has this post');
        ({ postId, rows: targets } = created);
        for (const [i, t] of targets.entries()) fresh.set(t.id, { postType, connection: created.conns[i], media });
      }
      await this.#d.afterLedger?.(row);
      const stopped = (status?: string) =>
        log.info({ status }, 'not publishing any more; stopped before the network call');
      const sending = targets.filter(
        (t) => t.state !== 'published' && (fresh.has(t.id) ? fresh.get(t.id)!.connection : t.connectionId),
      );
      // New targets were written started (attempt 1, 'processing') by the ledger transaction, which held the entry
      // under this claim: that commit was the last check before the network. A resumed run checks here instead.
      if (!fresh.size) {
        // The claim is checked before targets refunded by the last attempt are charged again.
        const current = await this.#d.store.byId(row.id);
        if (current?.status !== 'publishing' || current.claimedBy !== row.claimedBy) return stopped(current?.status);
        await this.#chargeRetries(row, targets, pre?.planId);
        // The last check before the network (a cancellation, or another claim, wins if it came first), in the
        // same statement that records the attempt of every target about to be sent.
        if (
          !(await this.#d.store.startIfStillMine(
            row.id,
            row.claimedBy,
            sending.map((t) => t.id),
          ))
        )
          return stopped();
      }
      // The one target still to publish (every other one is): its published state and the entry's are written in
      // one statement, so a post published at the network costs one commit for both, and no crash falls between.
      const last = sending.length === 1 && targets.every((t) => t === sending[0] || t.state === 'published');
      let settled = false;
      const withPublished: WithPublished = (post, target) => {
        settled = true;
        const first =
          targets[0] === sending[0] ? post : { postId: targets[0]!.platformPostId, permalink: targets[0]!.permalink };
        return this.#d.store.transitionSql(
          ...this.#published(row, first.postId, first.permalink, post.at),
          undefined,
          target,
        );
      };
      const results = await Promise.all(
        targets.map(async (t): Promise<TargetOutcome> => {
          if (t.state === 'published')
            return {
              platform: t.platform,
              success: true,
              message: 'published',
              post: { platform: t.platform, post_id: t.platformPostId, permalink: t.permalink },
              retryable: false,
            };
          const known = fresh.get(t.id);
          return this.#d.runner.run(t, {
            attemptRecorded: sending.includes(t),
            source: 'worker',
            ...(known ? { known } : {}),
            ...(last ? { withPublished } : {}),
          });
        }),
      );
      // Published, and the entry with it.
      if (settled && results.every((r) => r.success)) return;
      await this.#finish(row, results);
    } catch (err) {
      const permanent = err instanceof AppError && err.code !== 'internal';
      if (!permanent) log.error({ err }, 'scheduled publish crashed');
      await this.#failOrRetry(row, err instanceof Error ? err.message : String(err), !permanent);
    }
  }

  /**
   * The ledger post and targets of the entry, through publishing's one ledger writer, in ONE transaction with the
   * link (scheduled_posts.post_id), only while this claim still holds: never a second ledger post for one entry,
   * and a resumed run finds the same targets. Undefined when the claim was lost (cancelled, or taken over).
   * A post credit per target, as for publishing now; a shortfall fails the entry (402 message) before any call.
   */
  #writeLedger(row: ScheduledRow, planId: string, planned: PlannedTarget[], connections?: ConnectionRow[]) {
    return this.#d.publishing.recordScheduledRun(
      {
        entryId: row.id,
        workspaceId: row.workspaceId,
        planId,
        postType: row.postType as PostType,
        request: row.postData as PostBody,
        actor: `scheduler:${this.#workerId}`,
        planned,
        connections,
      },
      // The guarded link: only while this claim holds the entry and it has no ledger post yet (else roll back).
      (tx, postId) => this.#d.store.linkIfUnlinked(tx, row.id, row.claimedBy ?? this.#workerId, postId),
    );
  }

  /**
   * A target refunded after a failed attempt is charged again before it is retried (a shortfall throws 402 → failed).
   */
  async #chargeRetries(row: ScheduledRow, targets: TargetRow[], knownPlan?: string): Promise<void> {
    const unpaid = targets.filter((t) => t.state !== 'published' && !t.creditSpent && t.connectionId);
    if (!unpaid.length) return;
    const planId = knownPlan ?? (await this.#d.planOf(row.workspaceId));
    if (!planId) return;
    for (const t of unpaid) {
      await this.#d.credits.spend({
        workspaceId: t.workspaceId,
        planId,
        type: 'posts',
        amount: 1,
        reason: 'scheduled_retry',
        reference: t.id,
      });
      await this.#d.ledger.update(t.id, { creditSpent: true });
    }
  }

  /** The entry's change to published (from 'cancelled' too: the network already has the post, so the entry says so). */
  #published(row: ScheduledRow, postId: string | null, url: string | null, at: Date) {
    return [
      row.id,
      ['publishing', 'cancelled'],
      'published',
      (from: string) =>
        from === 'cancelled'
          ? 'published: the cancellation came too late, the network had already accepted the post'
          : 'published',
      { publishedPostId: postId, publishedPostUrl: url, publishedAt: at, errorMessage: null, claimedUntil: null },
    ] as const;
  }

  async #finish(row: ScheduledRow, results: TargetOutcome[]): Promise<void> {
    const failed = results.filter((r) => !r.success);
    const first = results.find((r) => r.success && r.post);
    if (!failed.length) {
      await this.#d.store.transition(
        ...this.#published(row, first?.post?.post_id ?? null, first?.post?.permalink ?? null, this.#d.clock()),
      );
      return;
    }
    if (first) await this.#d.store.notePublished(row.id, first.post?.post_id ?? null, first.post?.permalink ?? null);
    const message = failed.map((f) => `${f.message}${f.error ? ` (${f.error})` : ''}`).join('; ');
    // The network's Retry-After (rate limits) is a floor under the backoff.
    const retryAfter = Math.max(0, ...failed.map((f) => f.retry_after_seconds ?? 0));
    await this.#failOrRetry(
      row,
      message,
      failed.every((f) => f.retryable),
      retryAfter * 1000,
    );
  }

  async #failOrRetry(row: ScheduledRow, message: string, retryable: boolean, minDelayMs = 0): Promise<void> {
    const now = this.#d.clock();
    if (retryable && row.attempts < this.#o.maxAttempts) {
      // Exponential backoff from 30 s, capped at 30 min; the row stays 'publishing' and its lease is the retry time.
      const delay = Math.max(Math.min(30_000 * 2 ** (row.attempts - 1), 30 * 60_000), minDelayMs);
      const at = new Date(now.getTime() + delay);
      const moved = await this.#d.store.transition(
        row.id,
        ['publishing'],
        'publishing',
        `attempt ${row.attempts} failed, retry at ${at.toISOString()}: ${message}`,
        { claimedUntil: at, claimedBy: null, retryAt: at, errorMessage: `Retrying at ${at.toISOString()}: ${message}` },
      );
      // The lease ends at the retry time; the wake-up is a few ms later so the claim finds it expired.
      if (moved) {
        this.#d.logger.info(
          { network: row.platform, scheduledPost: row.id, post: row.postId, attempt: row.attempts, retryAt: at },
          'target will be retried',
        );
        await this.#d.queue?.send(row.id, new Date(at.getTime() + 10));
      }
      return;
    }
    this.#metrics.failure(row.platform);
    await this.#d.store.transition(
      row.id,
      ['publishing'],
      'failed',
      retryable ? `gave up after ${row.attempts} attempts: ${message}` : message,
      { errorMessage: message, claimedUntil: null, claimedBy: null },
    );
  }
}
