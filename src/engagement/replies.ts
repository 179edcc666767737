// Replies: the replies under one synced comment, and answering a comment this workspace has synced.
import { AppError } from '../errors.ts';
import { readTargetId } from '../platforms/contract.ts';
import type { RemoteComment } from '../platforms/engagement.ts';
import type { Platform } from '../platforms/slugs.ts';
import { PlatformError, type TextLimit } from '../platforms/types.ts';
import { countText } from '../publishing/index.ts';
import { accountAuthor, commentTree } from './inbox.ts';
import type { EngagementReads } from './reads.ts';
import { notConnected, wireError, type CommentRecord } from './types.ts';

export class EngagementReplies {
  readonly #r: EngagementReads;

  constructor(reads: EngagementReads) {
    this.#r = reads;
  }

  /** GET /unified/comments/replies: the replies under one synced comment, refreshed when asked or stale. */
  async list(
    workspaceId: string,
    platform: Platform,
    commentId: string,
    q: { postId?: string | undefined; limit: number; forceRefresh: boolean },
  ) {
    const comments = this.#r.requireComments(platform);
    const found = await this.#r.d.store.comment(workspaceId, platform, commentId);
    if (!found || (q.postId !== undefined && found.post.platformPostId !== q.postId)) {
      throw new AppError('not_found', {
        error: 'COMMENT_NOT_FOUND',
        message: `No synced ${this.#r.name(platform)} comment "${commentId}" in this workspace.`,
      });
    }
    const row = await this.#r.connection(workspaceId, platform);
    if (!row)
      throw new AppError('bad_request', { error: 'NOT_CONNECTED', message: notConnected(this.#r.name(platform)) });
    let failure: PlatformError | null = null;
    if (q.forceRefresh || this.#r.stale(found.comment.syncedAt, this.#r.d.config.commentsFreshSeconds)) {
      const reads = this.#r.reads(platform);
      const destination =
        found.post.sourcePageId !== null && reads ? { kind: reads.kind, id: found.post.sourcePageId } : undefined;
      try {
        const list = await this.#r.d.tokens.use(row, (t) =>
          comments.replies(t, {
            destination,
            postId: found.post.platformPostId,
            commentId,
            refs: found.comment.refs as Record<string, string>,
            limit: q.limit,
          }),
        );
        await this.#r.d.store.saveComments(
          workspaceId,
          platform,
          found.post,
          list.map((r) => ({ ...r, parentId: r.parentId ?? commentId })),
          this.#r.d.clock(),
          { markSynced: false, ownAuthor: accountAuthor(row) },
        );
      } catch (err) {
        if (!(err instanceof PlatformError)) throw err;
        failure = err;
      }
    }
    const all = await this.#r.d.store.commentsOf(workspaceId, [found.post.id]);
    const tree = commentTree(all, Number.MAX_SAFE_INTEGER, accountAuthor(row));
    const find = (list: CommentRecord[]): CommentRecord | undefined => {
      for (const c of list) {
        if (c.id === commentId) return c;
        const inner = find(c.replies);
        if (inner) return inner;
      }
      return undefined;
    };
    return {
      post_id: found.post.platformPostId,
      page_id: found.post.sourcePageId,
      replies: (find(tree)?.replies ?? []).slice(0, q.limit),
      ...(failure ? { message: `${this.#r.name(platform)}: ${failure.message}`, error: wireError(failure) } : {}),
    };
  }

  /**
   * POST /unified/comments/reply: answers a comment this workspace has synced, as the connected account (or the
   * page / organization the post belongs to). The text is checked against the network's comment limit first.
   */
  async reply(
    workspaceId: string,
    platform: Platform,
    input: { commentId: string; postId?: string | undefined; pageId?: string | undefined; text: string },
  ): Promise<{ replyId: string }> {
    const comments = this.#r.requireComments(platform);
    if (!input.text.trim())
      throw new AppError('bad_request', { error: 'VALIDATION_ERROR', message: 'text must not be empty.' });
    const over = overLimit(input.text, comments.textLimit);
    if (over)
      throw new AppError('bad_request', {
        error: 'VALIDATION_ERROR',
        message: `${this.#r.name(platform)} comments are limited to ${over}.`,
      });
    const found = await this.#r.d.store.comment(workspaceId, platform, input.commentId);
    if (!found || (input.postId !== undefined && input.postId !== found.post.platformPostId)) {
      throw new AppError('not_found', {
        error: 'COMMENT_NOT_FOUND',
        message: `No synced ${this.#r.name(platform)} comment "${input.commentId}" in this workspace. Sync comments first (GET /unified/comments).`,
      });
    }
    const reads = this.#r.reads(platform);
    const page = found.post.sourcePageId;
    if (page !== null && reads?.replyParam) {
      if (input.pageId === undefined)
        throw new AppError('bad_request', {
          error: 'VALIDATION_ERROR',
          message: `${reads.replyParam} is required to reply on a ${this.#r.name(platform)} ${reads.kind}'s post.`,
        });
      const given = readTargetId(reads, input.pageId);
      if (given !== page)
        throw new AppError('not_found', {
          error: 'COMMENT_NOT_FOUND',
          message: `No synced ${this.#r.name(platform)} comment "${input.commentId}" on ${reads.kind} ${given}.`,
        });
    }
    const row = await this.#r.connection(workspaceId, platform);
    if (!row)
      throw new AppError('bad_request', { error: 'NOT_CONNECTED', message: notConnected(this.#r.name(platform)) });
    const destination = page !== null && reads ? { kind: reads.kind, id: page } : undefined;
    const { replyId } = await this.#r.call(platform, row, (t) =>
      comments.reply(t, {
        destination,
        postId: found.post.platformPostId,
        commentId: input.commentId,
        refs: found.comment.refs as Record<string, string>,
        text: input.text,
      }),
    );
    const author =
      page !== null
        ? (((row.destinations ?? []) as { id: string; name: string }[]).find((d) => d.id === page)?.name ??
          row.displayName)
        : row.displayName;
    const reply: RemoteComment = {
      id: replyId,
      parentId: input.commentId,
      text: input.text,
      authorName: author,
      authorId: page ?? row.accountId,
      authorAvatarUrl: row.avatarUrl,
      createdAt: this.#r.d.clock().toISOString(),
      likeCount: 0,
      replyCount: 0,
    };
    // Sent from Herald: the account's own, no comment.received.
    await this.#r.d.store.saveComments(workspaceId, platform, found.post, [reply], this.#r.d.clock(), {
      markSynced: false,
      ownAuthor: () => true,
    });
    return { replyId };
  }
}

/** The limit a text breaks, in words ("1,250 characters"), or null when it fits. */
export function overLimit(text: string, limit: TextLimit): string | null {
  const unit = limit.unit === 'bytes' ? 'bytes' : 'characters';
  if (countText(text, limit.unit) > limit.max) return `${limit.max.toLocaleString('en')} ${unit}`;
  if (limit.maxBytes !== undefined && Buffer.byteLength(text, 'utf8') > limit.maxBytes)
    return `${limit.maxBytes.toLocaleString('en')} bytes`;
  return null;
}
