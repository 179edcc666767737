// The read side on graph.threads.net: GET /v1.0/{media-id}/insights (views, likes, replies, reposts, quotes, shares;
// threads_manage_insights), GET /v1.0/{media-id}/replies (top-level replies, newest first unless reverse=false;
// threads_read_replies), GET /v1.0/{media-id}/conversation (every reply at every depth), and replies to replies: a
// reply is a thread with `reply_to_id`, published like any container (threads_content_publish: Meta's "Create
// Replies" asks no more of the root post's owner); replies under a post live in the slice's `comments` map, the
// published reply's media id being the comment's id.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import { allCommentsOn, commentsOn, declareEngagement, metricsOf, putComment, repliesTo } from '../core/engagement.ts';
import {
  graphAuth,
  graphList,
  missingPermission,
  project,
  requestedFields,
  sendProjected,
  unsupportedGet,
} from '../core/graph.ts';
import type { NodeType } from '../core/graph.ts';
import { queryParams } from '../core/http.ts';
import { graphTime, metaMediaId, shortcode } from '../core/meta-publish.ts';
import { findObject, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import type { PlatformSlice } from '../core/store.ts';
import type { AccountRecord, JsonValue, ObjectRecord } from '../core/types.ts';
import { threadsError } from './actor.ts';
import type { ThreadsActor } from './actor.ts';

export const READ_REPLIES_SCOPE = 'threads_read_replies';
const INSIGHTS_SCOPE = 'threads_manage_insights';
const METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];

/** A token with threads_basic and `scope`, and the post or reply `id` names when it belongs to that token's profile. */
function reader(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  scope: string,
): { account: AccountRecord; id: string; post: ObjectRecord; comment: ObjectRecord | null } | null {
  const token = graphAuth(call, req, reply, {
    kinds: ['short', 'long'],
    appId: SANDBOX_APPS.threads.clientId,
    aboutMe: false,
  });
  if (!token) return null;
  const id = (req.params as { id: string }).id;
  const account = call.slice.accounts.get(token.accountId);
  const missing = ['threads_basic', scope].find((s) => !token.scopes.includes(s));
  if (missing) {
    sendAnswer(reply, missingPermission(missing));
    return null;
  }
  const comment = call.slice.comments.get(id) ?? null;
  const post = findObject(call, 'posts', comment ? text(comment.postId) : id);
  if (!account || !post || post.accountId !== account.id) {
    sendAnswer(reply, unsupportedGet(id));
    return null;
  }
  return { account, id, post, comment };
}

function replyNode(web: string, slice: PlatformSlice, c: ObjectRecord): NodeType {
  const username = text(c.authorName);
  return {
    typeName: 'ThreadsMedia',
    defaults: ['id'],
    fields: {
      id: () => c.id,
      text: () => text(c.text),
      username: () => username,
      permalink: () => `${web}/@${encodeURIComponent(username)}/post/${text(c.shortcode) || c.id}`,
      shortcode: () => text(c.shortcode) || undefined,
      timestamp: () => graphTime(c.createdAt),
      media_product_type: () => 'THREADS',
      media_type: () => 'TEXT_POST',
      is_quote_post: () => false,
      is_reply: () => true,
      has_replies: () => repliesTo(slice, c.id).length > 0,
      root_post: () => ({ id: text(c.postId) }),
      replied_to: () => ({ id: typeof c.parentId === 'string' ? c.parentId : text(c.postId) }),
      is_reply_owned_by_me: () => c.fromAccount === true,
      hide_status: () => (c.hidden === true ? 'HIDDEN' : 'NOT_HUSHED'),
      reply_audience: () => 'EVERYONE',
    },
  };
}

/** Every reply under `root` at any depth, oldest first. */
function descendants(slice: PlatformSlice, root: ObjectRecord): ObjectRecord[] {
  const out: ObjectRecord[] = [];
  const walk = (id: string): void => {
    for (const r of repliesTo(slice, id)) {
      out.push(r);
      walk(r.id);
    }
  };
  walk(root.id);
  return out;
}

/** `reverse` is true (newest first) unless the call says false. */
const newestFirst = (req: FastifyRequest): boolean => !['false', '0'].includes(queryParams(req).reverse ?? '');

/**
 * Publishes a reply container whose `reply_to_id` is a reply (not a post): the reply is stored under it in the
 * comments map. Null when the container answers a post, which publishing handles as before.
 */
export function publishReplyToReply(call: Call, actor: ThreadsActor, container: ObjectRecord): { id: string } | null {
  const parent = typeof container.reply_to_id === 'string' ? call.slice.comments.get(container.reply_to_id) : undefined;
  if (!parent) return null;
  const post = findObject(call, 'posts', text(parent.postId));
  if (!post) return null;
  const id = metaMediaId();
  putComment(call.ctx, 'threads', post, parent, {
    id,
    text: text(container.text),
    author: { id: actor.account.id, name: actor.account.username, avatarUrl: actor.account.avatarUrl },
    fromAccount: true,
    fields: { shortcode: shortcode(), containerId: container.id },
  });
  Object.assign(container, { status: 'PUBLISHED', published_id: id });
  return { id };
}

/** Replies the profile published into the comments map within the last `windowMs` (the reply quota). */
export function repliesWithin(call: Call, accountId: string, windowMs: number): number {
  const since = call.ctx.nowMs() - windowMs;
  return [...call.slice.comments.values()].filter(
    (c) => c.fromAccount === true && c.accountId === accountId && Date.parse(c.createdAt) > since,
  ).length;
}

export function registerThreadsEngagement(sim: Simulator): void {
  declareEngagement(sim.ctx, 'threads', {
    commentId: () => metaMediaId(),
    userId: (n) => `3${String(n + 1).padStart(15, '0')}`,
    extra: () => ({ shortcode: shortcode() }),
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v1.0/:id/insights',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const r = reader(req, reply, call, INSIGHTS_SCOPE);
      if (!r) return reply;
      const names = (queryParams(req).metric ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = names.length === 0 ? '' : names.find((n) => !METRICS.includes(n));
      if (bad !== undefined)
        return sendAnswer(reply, threadsError(`(#100) Param metric must be one of {${METRICS.join(', ')}}`));
      const m = metricsOf(call.slice, r.post);
      // A reply's own numbers are not tracked here: its metrics read 0 (its replies count its direct replies).
      const values: Record<string, number> = r.comment
        ? { replies: repliesTo(call.slice, r.comment.id).length }
        : { views: m.impressions, likes: m.likes, replies: m.comments, reposts: m.shares, quotes: 0, shares: 0 };
      return sendProjected(reply, () => ({
        data: names.map(
          (name): JsonValue => ({
            name,
            period: 'lifetime',
            values: [{ value: values[name] ?? 0 }],
            title: name,
            description: name,
            id: `${r.id}/insights/${name}/lifetime`,
          }),
        ),
      }));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v1.0/:id/replies',
    ops: ['comments'],
    surface: 'api',
    handler: (req, reply, call) => {
      const r = reader(req, reply, call, READ_REPLIES_SCOPE);
      if (!r) return reply;
      // commentsOn is newest first, repliesTo oldest first.
      let list = r.comment ? repliesTo(call.slice, r.comment.id).reverse() : commentsOn(call.slice, r.post.id);
      if (!newestFirst(req)) list = [...list].reverse();
      return sendProjected(reply, () =>
        graphList(
          list.map((c) => project(replyNode(call.ctx.base('threads'), call.slice, c), requestedFields(req))),
          queryParams(req).limit,
        ),
      );
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v1.0/:id/conversation',
    ops: ['comments'],
    surface: 'api',
    handler: (req, reply, call) => {
      const r = reader(req, reply, call, READ_REPLIES_SCOPE);
      if (!r) return reply;
      let list = r.comment ? descendants(call.slice, r.comment) : allCommentsOn(call.slice, r.post.id);
      if (newestFirst(req)) list = [...list].reverse();
      return sendProjected(reply, () =>
        graphList(
          list.map((c) => project(replyNode(call.ctx.base('threads'), call.slice, c), requestedFields(req))),
          queryParams(req).limit,
        ),
      );
    },
  });
}
