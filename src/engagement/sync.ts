// The background comment sync: every HERALD_COMMENT_SYNC_INTERVAL_SECONDS, the comments of each workspace's recent
// posts are read from the networks, so the inbox is fresh before anyone asks. With pg-boss (the default) one round
// is one job; each round enqueues the next, keyed by its time slot, so several processes never run the same round
// twice at once. Without the queue (HERALD_SCHEDULER_QUEUE=scan) a timer runs the rounds under a database lock.
// Workspaces run a few at a time; within one, each network keeps to HERALD_ENGAGEMENT_CONCURRENCY calls in flight
// and stops for the round when it throttles (WorkspaceSync.syncWorkspace).
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { PlanCatalog } from '../auth/plans.ts';
import type { Db } from '../db/client.ts';
import type { Locks } from '../db/locks.ts';
import { eq, sql } from '../db/orm.ts';
import { platformConnections } from '../db/schema-connections.ts';
import { workspaces } from '../db/schema.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { ScheduleQueue } from '../scheduling/index.ts';
import { Rounds } from '../scheduling/rounds.ts';
import type { EngagementReads } from './reads.ts';

export const COMMENT_SYNC_QUEUE = 'herald-comment-sync';

export interface RoundResult {
  workspaces: number;
  posts: number;
  comments: number;
  failures: number;
}

export interface CommentSyncDeps {
  db: Db;
  engagement: WorkspaceSync;
  plans: PlanCatalog;
  locks: Locks;
  queue: ScheduleQueue | undefined;
  clock: () => Date;
  logger: Logger;
  intervalSeconds: number;
  /** Workspaces synced at once. */
  workspaceConcurrency?: number;
}

export class CommentSync {
  readonly #d: CommentSyncDeps;
  readonly #rounds: Rounds<RoundResult>;

  constructor(deps: CommentSyncDeps) {
    this.#d = deps;
    this.#rounds = new Rounds({
      queueName: COMMENT_SYNC_QUEUE,
      lockName: 'comment-sync',
      label: 'comment sync',
      queue: deps.queue,
      locks: deps.locks,
      clock: deps.clock,
      logger: deps.logger,
      intervalSeconds: deps.intervalSeconds,
      round: () => this.round(),
      log: (r) => (r.workspaces ? deps.logger.info(r, 'comment sync round') : undefined),
    });
  }

  /** Workspaces whose plan has the inbox and that have a connected account. */
  async #workspaces(): Promise<string[]> {
    const rows = await this.#d.db
      .selectDistinct({ id: workspaces.id, planId: workspaces.planId })
      .from(workspaces)
      .innerJoin(platformConnections, eq(platformConnections.workspaceId, workspaces.id))
      .where(sql`${platformConnections.status} = 'connected'`);
    return rows
      .filter((r) => this.#d.plans.has(r.planId) && this.#d.plans.get(r.planId).features.inbox_enabled)
      .map((r) => r.id);
  }

  /** One round over every eligible workspace, awaited to the end (the job, the timer, tests and the benchmark). */
  async round(): Promise<RoundResult> {
    const ids = await this.#workspaces();
    const limit = pLimit(this.#d.workspaceConcurrency ?? 4);
    const out: RoundResult = { workspaces: ids.length, posts: 0, comments: 0, failures: 0 };
    await Promise.all(
      ids.map((id) =>
        limit(async () => {
          try {
            const r = await this.#d.engagement.syncWorkspace(id);
            out.posts += r.posts;
            out.comments += r.comments;
            out.failures += r.failures;
          } catch (err) {
            out.failures++;
            this.#d.logger.warn({ err, workspace: id }, 'comment sync of a workspace failed');
          }
        }),
      ),
    );
    return out;
  }

  /** Starts the rounds (no-op when the interval is 0): src/scheduling/rounds.ts. */
  start(): void {
    this.#rounds.start();
  }

  stop(): Promise<void> {
    return this.#rounds.stop();
  }
}

/** One workspace's comment sync (a round runs it for each workspace), and what it stored. */
export class WorkspaceSync {
  readonly #r: EngagementReads;

  constructor(reads: EngagementReads) {
    this.#r = reads;
  }

  /**
   * Keeps one workspace's comments fresh: for each connected network with comments, its recent posts (refreshed when
   * stale) and their comments, at most `concurrency` calls in flight per network. A network that throttles stops for
   * this round. Counts what it wrote.
   */
  async syncWorkspace(workspaceId: string): Promise<{ posts: number; comments: number; failures: number }> {
    const rows = await this.#r.d.connections.list(workspaceId);
    const platforms = [...new Set(rows.filter((r) => r.status === 'connected').map((r) => r.platform as Platform))];
    const totals = { posts: 0, comments: 0, failures: 0 };
    await Promise.all(
      platforms.map(async (platform) => {
        const comments = this.#r.comments(platform);
        const engagement = this.#r.d.registry.get(platform).engagement;
        const row = rows.find((r) => r.platform === platform && r.status === 'connected')!;
        if (!engagement || !comments) return;
        const plan = this.#r.plan(platform, row, engagement, {});
        const known =
          (
            await this.#r.d.store.recentPostsOf(
              workspaceId,
              [{ platform, sources: plan.sources }],
              this.#r.d.config.syncPosts,
            )
          ).get(platform) ?? [];
        if (
          this.#r.stale(
            this.#r.lastListed(workspaceId, platform, plan.sources, known),
            this.#r.d.config.postsFreshSeconds,
          )
        ) {
          const failure = await this.#r.refreshPosts(workspaceId, platform, plan, this.#r.d.config.syncPosts);
          if (failure?.kind === 'rate_limited' || failure?.kind === 'reauth_required') {
            totals.failures++;
            return;
          }
        }
        const posts = (
          (
            await this.#r.d.store.recentPostsOf(
              workspaceId,
              [{ platform, sources: plan.sources }],
              this.#r.d.config.syncPosts,
            )
          ).get(platform) ?? []
        ).filter((p) => !p.commentsDisabled);
        totals.posts += posts.length;
        const limiter = pLimit(this.#r.d.config.concurrency);
        let throttled = false;
        await Promise.all(
          posts.map((p) =>
            limiter(async () => {
              if (throttled) return;
              const err = await this.#r.syncPost(workspaceId, platform, row, comments, p, 50);
              if (err) {
                totals.failures++;
                if (err.kind === 'rate_limited' || err.kind === 'reauth_required') throttled = true;
              }
            }),
          ),
        );
        totals.comments += await this.#r.d.store.commentCount(
          workspaceId,
          posts.map((p) => p.id),
        );
      }),
    );
    return totals;
  }

  /** How many comments and replies of one post this workspace has stored (no network call). */
  async storedCommentCount(workspaceId: string, platform: Platform, postId: string): Promise<number> {
    const post = await this.#r.d.store.post(workspaceId, platform, postId);
    return post ? this.#r.d.store.commentCount(workspaceId, [post.id]) : 0;
  }
}
