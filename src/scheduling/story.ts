// The story of a post (GET /unified/posts/{id}/timeline) and its retry (POST /unified/posts/{id}/retry), whether
// it was published now (a ledger post) or from the queue (its entries, one per network, and their ledger posts).
import { z } from 'zod';
import type { Principal } from '../auth/authenticate.ts';
import { assertPlatformsAllowed } from '../auth/scopes.ts';
import { asc, eq } from '../db/orm.ts';
import { postAttempts } from '../db/schema-events.ts';
import { scheduledPosts } from '../db/schema-scheduling.ts';
import { notFound } from '../errors.ts';
import { eventSchema, type EventStore, toWire as eventToWire } from '../events/index.ts';
import {
  firstCommentOfTarget,
  firstCommentSchema,
  type PublishingService,
  type TargetOutcome,
  type TargetRow,
} from '../publishing/index.ts';
import type { ScheduledRow, ScheduledStore } from './store.ts';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const timelineSchema = z.object({
  post_id: z.uuid().nullable().describe("Herald's ledger post (null for a queue entry that never ran)"),
  post_type: z.string(),
  created_at: z.string(),
  targets: z.array(
    z.object({
      target_id: z.uuid(),
      platform: z.string(),
      platform_user_id: z.string().nullable(),
      state: z.string().describe('pending | processing | published | failed | draft'),
      platform_post_id: z.string().nullable(),
      permalink: z.string().nullable(),
      error_code: z.string().nullable(),
      error_message: z.string().nullable().describe("The network's error text, sanitized"),
      next_retry_at: z.string().nullable().describe('When Herald tries again on its own (queued posts), if it will'),
      first_comment: firstCommentSchema
        .nullable()
        .describe(
          "The post's first comment at this network: posted (its id, and its permalink where the network gives one), failed (the network's reason, sanitized) or pending; null when none was asked for",
        ),
      attempts: z.array(
        z.object({
          attempt: z.number().int(),
          at: z.string(),
          outcome: z.string().describe('published | failed | processing'),
          error_code: z.string().nullable(),
          error_message: z.string().nullable(),
          source: z.string().describe('request | worker | retry | reconciler'),
        }),
      ),
    }),
  ),
  queue: z.array(
    z.object({
      scheduled_post_id: z.uuid(),
      platform: z.string(),
      status: z.string(),
      scheduled_time: z.string(),
      attempts: z.number().int(),
      next_retry_at: z.string().nullable(),
      error_message: z.string().nullable(),
      history: z.array(
        z.object({ from_status: z.string().nullable(), to_status: z.string(), reason: z.string(), at: z.string() }),
      ),
    }),
  ),
  events: z.array(eventSchema),
});
export type Timeline = z.infer<typeof timelineSchema>;

export interface StoryDeps {
  publishing: PublishingService;
  store: ScheduledStore;
  events: EventStore;
  clock: () => Date;
  /** Runs a failed queue entry again now (scheduling's publish-now). */
  publishNow: (workspaceId: string, entryId: string) => Promise<unknown>;
}

export class PostStory {
  readonly #d: StoryDeps;

  constructor(deps: StoryDeps) {
    this.#d = deps;
  }

  /** `id` is a ledger post's or a queue entry's; 404 when neither is this workspace's. */
  async #find(p: Principal, id: string) {
    const ledger = this.#d.publishing.ledger;
    const db = this.#d.store.db;
    let post = await ledger.ownedPost(p.workspaceId, id);
    const entries: ScheduledRow[] = await db
      .select()
      .from(scheduledPosts)
      .where(post ? eq(scheduledPosts.postId, post.id) : eq(scheduledPosts.id, id))
      .then((rows) => rows.filter((r) => r.workspaceId === p.workspaceId));
    if (!post && entries[0]?.postId) post = await ledger.ownedPost(p.workspaceId, entries[0].postId);
    if (!post && !entries.length) throw notFound('Post not found');
    const targets = post ? await ledger.targetsOf(post.id) : [];
    assertPlatformsAllowed(p.scope, [...new Set([...targets, ...entries].map((r) => r.platform))]);
    return { post, entries, targets };
  }

  async timeline(p: Principal, id: string): Promise<Timeline> {
    const { post, entries, targets } = await this.#find(p, id);
    const db = this.#d.store.db;
    const attempts = post
      ? await db.select().from(postAttempts).where(eq(postAttempts.postId, post.id)).orderBy(asc(postAttempts.seq))
      : [];
    const now = this.#d.clock();
    const retryOf = (platform: string) => {
      const e = entries.find((x) => x.platform === platform);
      return e?.status === 'publishing' && e.retryAt && e.retryAt > now ? e.retryAt : null;
    };
    const history = await Promise.all(entries.map((e) => this.#d.store.events(e.id)));
    const events = await this.#d.events.ofPost(
      p.workspaceId,
      post?.id ?? null,
      entries.map((e) => e.id),
    );
    return {
      post_id: post?.id ?? null,
      post_type: post?.postType ?? entries[0]!.postType,
      created_at: (post?.createdAt ?? entries[0]!.createdAt).toISOString(),
      targets: targets
        .filter((t) => t.state !== 'draft')
        .map((t: TargetRow) => ({
          target_id: t.id,
          platform: t.platform,
          platform_user_id: t.platformUserId,
          state: t.state,
          platform_post_id: t.platformPostId,
          permalink: t.permalink,
          error_code: t.errorCode,
          error_message: t.errorMessage,
          next_retry_at: t.state === 'published' ? null : iso(retryOf(t.platform)),
          first_comment: firstCommentOfTarget(t) ?? null,
          attempts: attempts
            .filter((a) => a.targetId === t.id)
            .map((a) => ({
              attempt: a.attempt,
              at: a.at.toISOString(),
              outcome: a.outcome,
              error_code: a.errorCode,
              error_message: a.errorMessage,
              source: a.source,
            })),
        })),
      queue: entries.map((e, i) => ({
        scheduled_post_id: e.id,
        platform: e.platform,
        status: e.status,
        scheduled_time: e.scheduledTime.toISOString(),
        attempts: e.attempts,
        next_retry_at: iso(retryOf(e.platform)),
        error_message: e.errorMessage,
        history: history[i]!.map((h) => ({
          from_status: h.fromStatus,
          to_status: h.toStatus,
          reason: h.reason,
          at: h.at.toISOString(),
        })),
      })),
      events: events.map(eventToWire) as Timeline['events'],
    };
  }

  /**
   * Retries what failed, now: a failed queue entry runs again (its published targets are kept), a post published now
   * has its failed targets sent again. Nothing failed: nothing is done (a second retry, or one while another runs).
   */
  async retry(p: Principal, id: string): Promise<{ retried: number; results: TargetOutcome[] }> {
    const { post, entries } = await this.#find(p, id);
    const failedEntries = entries.filter((e) => e.status === 'failed');
    if (entries.length) {
      for (const e of failedEntries) await this.#d.publishNow(p.workspaceId, e.id);
      const after = await this.#find(p, id);
      return {
        retried: failedEntries.length,
        results: failedEntries.length
          ? after.targets.filter((t) => t.state !== 'draft').map((t) => this.#d.publishing.resultOf(t))
          : [],
      };
    }
    const results = post ? await this.#d.publishing.retry(p, post) : [];
    return { retried: results.length, results };
  }
}
