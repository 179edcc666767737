// The comments inbox: comments on the last posts of each network (stored; synced when stale or forced), and one
// post's comments refreshed from its network.
import pLimit from 'p-limit';
import type { ConnectionRow } from '../connections/store.ts';
import type { Comments } from '../platforms/engagement.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { PlatformError } from '../platforms/types.ts';
import type { EngagementReads } from './reads.ts';
import type { CommentView, PostRow, ReadRef } from './store.ts';
import {
  iso,
  notConnected,
  wireError,
  type CommentRecord,
  type CommentsPostEntry,
  type CommentsSlice,
  type DestinationFilter,
  type ReadPlan,
} from './types.ts';

export class EngagementInbox {
  readonly #r: EngagementReads;

  constructor(reads: EngagementReads) {
    this.#r = reads;
  }

  /** The comments this member has read here, the most recently read first: the inbox's "unread first" in any browser. */
  readBy(workspaceId: string, userId: string) {
    return this.#r.d.store.readComments(workspaceId, userId);
  }

  /** Marks comments read for this member (ids as the comments list gives them, per network). */
  markRead(workspaceId: string, userId: string, refs: readonly ReadRef[]) {
    return this.#r.d.store.markRead(workspaceId, userId, refs, this.#r.d.clock());
  }

  #entry(
    platform: Platform,
    post: PostRow,
    comments: CommentRecord[],
    failure: PlatformError | null,
  ): CommentsPostEntry {
    const reads = this.#r.reads(platform);
    return {
      post_id: post.platformPostId,
      page_id: post.sourcePageId,
      ...(reads?.replyParam && post.sourcePageId
        ? { [reads.replyParam.replace(/_organization_id$/, '_page_id')]: post.sourcePageId }
        : {}),
      comments_disabled: post.commentsDisabled,
      comment_status: failure ? 'error' : post.commentsDisabled ? 'disabled' : 'ok',
      comment_status_message: failure
        ? failure.message
        : post.commentsDisabled
          ? 'Comments are turned off on this post.'
          : null,
      comments,
    };
  }

  /**
   * GET /unified/comments: comments on the last `limit` posts per network. Served from the database in three
   * statements whatever the number of networks (connections, posts, comments); the networks are asked only for post
   * lists past their freshness window and comments past theirs (or all comments with `forceRefresh`).
   */
  async list(
    workspaceId: string,
    platforms: Platform[],
    q: { limit: number; perPost: number; forceRefresh: boolean; filter: DestinationFilter },
  ): Promise<Record<string, CommentsSlice>> {
    const out: Record<string, CommentsSlice> = {};
    const connections = await this.#r.d.connections.list(workspaceId);
    const plans = new Map<Platform, { plan: ReadPlan; comments: Comments }>();
    for (const platform of platforms) {
      const row = await this.#r.connection(workspaceId, platform, connections);
      if (!row) {
        out[platform] = {
          posts: [],
          last_updated: null,
          message: notConnected(this.#r.name(platform)),
          error: 'NOT_CONNECTED',
        };
        continue;
      }
      const engagement = this.#r.d.registry.get(platform).engagement;
      if (!engagement?.comments) {
        out[platform] = {
          posts: [],
          last_updated: null,
          message: engagement?.commentsUnavailable ?? `${this.#r.name(platform)} comments are not available.`,
          error: 'NOT_SUPPORTED',
        };
        continue;
      }
      plans.set(platform, { plan: this.#r.plan(platform, row, engagement, q.filter), comments: engagement.comments });
    }
    const wanted = (only?: Platform[]) =>
      [...plans]
        .filter(([p]) => !only || only.includes(p))
        .map(([platform, { plan }]) => ({ platform, sources: plan.sources }));
    const stored = await this.#r.d.store.recentPostsOf(workspaceId, wanted(), q.limit);
    // The post lists are read from the network only when past their freshness window: force_refresh refreshes comments
    // only.
    const listFailures = new Map<Platform, PlatformError>();
    const stale = [...plans]
      .filter(([p, { plan }]) =>
        this.#r.stale(
          this.#r.lastListed(workspaceId, p, plan.sources, stored.get(p) ?? []),
          this.#r.d.config.postsFreshSeconds,
        ),
      )
      .map(([p]) => p);
    if (stale.length) {
      await Promise.all(
        stale.map(async (p) => {
          const failure = await this.#r.refreshPosts(workspaceId, p, plans.get(p)!.plan, q.limit);
          if (failure) listFailures.set(p, failure);
        }),
      );
      for (const [p, rows] of await this.#r.d.store.recentPostsOf(workspaceId, wanted(stale), q.limit))
        stored.set(p, rows);
    }
    const failures = new Map<string, PlatformError>();
    let synced = false;
    await Promise.all(
      [...plans].map(async ([platform, { plan, comments }]) => {
        const limiter = pLimit(this.#r.d.config.concurrency);
        await Promise.all(
          (stored.get(platform) ?? []).map((p) =>
            limiter(async () => {
              if (p.commentsDisabled && !q.forceRefresh) return;
              if (!q.forceRefresh && !this.#r.stale(p.commentsSyncedAt, this.#r.d.config.commentsFreshSeconds)) return;
              synced = true;
              const err = await this.#r.syncPost(workspaceId, platform, plan.row, comments, p, q.perPost);
              if (err) failures.set(p.id, err);
            }),
          ),
        );
      }),
    );
    const allPosts = [...stored.values()].flat();
    // What a sync changed on the posts (when their comments were synced, whether comments are off).
    const fresh = synced
      ? new Map((await this.#r.d.store.postsByIds(allPosts.map((p) => p.id))).map((p) => [p.id, p]))
      : undefined;
    const byPost = new Map<string, CommentView[]>();
    for (const c of await this.#r.d.store.commentsOf(
      workspaceId,
      allPosts.map((p) => p.id),
    )) {
      const list = byPost.get(c.networkPostId);
      if (list) list.push(c);
      else byPost.set(c.networkPostId, [c]);
    }
    for (const [platform, { plan }] of plans) {
      const posts = (stored.get(platform) ?? []).map((p) => fresh?.get(p.id) ?? p);
      const slice: CommentsSlice = {
        posts: posts.map((p) =>
          this.#entry(
            platform,
            p,
            commentTree(byPost.get(p.id) ?? [], q.perPost, accountAuthor(plan.row)),
            failures.get(p.id) ?? null,
          ),
        ),
        last_updated: iso(
          posts.reduce<Date | null>(
            (a, p) => (p.commentsSyncedAt && (!a || p.commentsSyncedAt > a) ? p.commentsSyncedAt : a),
            null,
          ),
        ),
      };
      const firstFailure =
        listFailures.get(platform) ?? posts.map((p) => failures.get(p.id)).find((f) => f !== undefined) ?? null;
      const message = [
        firstFailure ? `${this.#r.name(platform)}: ${firstFailure.message}` : undefined,
        this.#r.unknownMessage(platform, plan.unknown),
      ]
        .filter(Boolean)
        .join(' ');
      if (message) slice.message = message;
      if (firstFailure) slice.error = wireError(firstFailure);
      out[platform] = slice;
    }
    return Object.fromEntries(platforms.map((p) => [p, out[p]!]));
  }

  /** GET /unified/comments/by-post: always refreshes this post's comments. */
  async byPost(
    workspaceId: string,
    platform: Platform,
    postId: string,
    perPost: number,
    pageId: string | undefined,
  ): Promise<CommentsPostEntry> {
    const comments = this.#r.requireComments(platform);
    const k = await this.#r.known(workspaceId, platform, postId, pageId);
    const stored = k.stored ?? (await this.#r.readPost(workspaceId, platform, postId, k));
    const failure = await this.#r.syncPost(workspaceId, platform, k.row, comments, stored, perPost);
    // The network failing answers 502 (429 when throttling) unless there is something synced to show; a grant that
    // may not read these comments (a LinkedIn member's post without r_member_social) is the post's comment status,
    // as in the inbox.
    if (failure && !stored.commentsSyncedAt && !grantRefusal(failure)) throw this.#r.platformFailure(platform, failure);
    const [fresh] = await this.#r.d.store.postsByIds([stored.id]);
    const rows = await this.#r.d.store.commentsOf(workspaceId, [stored.id]);
    return this.#entry(platform, fresh!, commentTree(rows, perPost, accountAuthor(k.row)), failure);
  }
}

/**
 * The network will not let this grant do it (a missing permission, a kind of object it cannot read): not a failure of
 * the network.
 */
const grantRefusal = (err: PlatformError): boolean => err.kind === 'permission' || err.kind === 'unsupported';

/**
 * Whether an author id is the connected account itself: its own id, or a page or organization it posts as (Facebook
 * Pages, LinkedIn organizations), as the network writes it (the id alone, or a URN ending in it).
 */
export function accountAuthor(
  row: Pick<ConnectionRow, 'accountId' | 'destinations'>,
): (authorId: string | null) => boolean {
  const ids = [row.accountId, ...((row.destinations ?? []) as { id?: unknown }[]).map((d) => d.id)].filter(
    (id): id is string => typeof id === 'string' && id !== '',
  );
  return (authorId) => authorId !== null && ids.some((id) => authorId === id || authorId.endsWith(`:${id}`));
}

/**
 * Comments as threads: newest top-level comments first, at most perPost of them. `byAccount` tells the connected
 * account's own authors: its comments (and the first comment Herald posted) are `own`, never unread.
 */
export function commentTree(
  rows: CommentView[],
  perPost: number,
  byAccount: (authorId: string | null) => boolean = () => false,
): CommentRecord[] {
  const record = (c: CommentView): CommentRecord => ({
    id: c.platformCommentId,
    type: c.parentCommentId ? 'reply' : 'comment',
    text: c.text,
    author_name: c.authorName,
    commentor_name: c.authorName,
    author_id: c.authorId,
    author_profile_image_url: c.authorAvatarUrl,
    created_at: iso(c.commentedAt),
    like_count: c.likeCount,
    reply_count: c.replyCount,
    parent_id: c.parentCommentId,
    replies: [],
    platform_meta: { is_hidden: c.hidden },
    own: c.firstComment === true || byAccount(c.authorId),
  });
  const byId = new Map(rows.map((c) => [c.platformCommentId, record(c)]));
  const top: CommentRecord[] = [];
  for (const c of rows) {
    const r = byId.get(c.platformCommentId)!;
    const parent = c.parentCommentId ? byId.get(c.parentCommentId) : undefined;
    if (parent) parent.replies.push(r);
    else if (!c.parentCommentId) top.push(r);
  }
  for (const r of byId.values()) r.reply_count = Math.max(r.reply_count, r.replies.length);
  // Newest top-level comments first; a thread's replies read oldest first.
  return top.reverse().slice(0, perPost);
}
