// The read side on graph.instagram.com: GET /{media-id}/insights (views, reach, shares, saved, likes, comments,
// total_interactions; the retired impressions / plays / video_views are refused), GET /{media-id}/comments (top-level
// comments, newest first, replies inline through `replies{…}`), GET /{comment-id}/replies, and
// POST /{comment-id}/replies?message= (instagram_business_manage_comments; one level deep: a reply to a reply lands
// under the top-level comment; hidden comments take no reply; 2,200 characters at most), and POST
// /{media-id}/comments?message= (a top-level comment, as the account: a post's first comment). Comment ids are numeric.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { str } from '../core/accounts.ts';
import {
  commentsDisabled,
  commentsOn,
  declareEngagement,
  metricsOf,
  putComment,
  repliesTo,
} from '../core/engagement.ts';
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
import { graphInput, graphTime, metaMediaId, param } from '../core/meta-publish.ts';
import { findObject, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import type { PlatformSlice } from '../core/store.ts';
import type { JsonObject, JsonValue, ObjectRecord } from '../core/types.ts';
import { SANDBOX_APPS } from '../apps.ts';
import { BASIC_SCOPE, igError, versioned } from './actor.ts';
import type { IgActor } from './actor.ts';

export const MAX_COMMENT = 2200;
const COMMENTS_SCOPE = 'instagram_business_manage_comments';
const INSIGHTS_SCOPE = 'instagram_business_manage_insights';
const METRICS = ['views', 'reach', 'shares', 'saved', 'likes', 'comments', 'total_interactions'];

/** The actor of a read or reply on the media or comment `id`: a token with instagram_business_basic and `scope`. */
function objectActor(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  scope: string,
): { actor: IgActor; id: string } | null {
  if (!versioned(req, reply)) return null;
  const token = graphAuth(call, req, reply, {
    kinds: ['short', 'long'],
    appId: SANDBOX_APPS.instagram.clientId,
    aboutMe: false,
  });
  if (!token) return null;
  const account = call.slice.accounts.get(token.accountId);
  const id = (req.params as { id: string }).id;
  if (!account) {
    sendAnswer(reply, unsupportedGet(id));
    return null;
  }
  const missing = [BASIC_SCOPE, scope].find((s) => !token.scopes.includes(s));
  if (missing) {
    sendAnswer(reply, missingPermission(missing));
    return null;
  }
  return { actor: { token, account, igUserId: str(account.fields.user_id) }, id };
}

function commentNode(slice: PlatformSlice, c: ObjectRecord, withReplies: boolean): NodeType {
  const fields: NodeType['fields'] = {
    id: () => c.id,
    text: () => text(c.text),
    timestamp: () => graphTime(c.createdAt),
    username: () => text(c.authorName),
    from: () => ({ id: text(c.authorId), username: text(c.authorName) }),
    like_count: () => c.likeCount ?? 0,
    hidden: () => c.hidden === true,
    parent_id: () => (typeof c.parentId === 'string' ? c.parentId : undefined),
    media: () => ({ id: text(c.postId) }),
  };
  if (withReplies)
    fields.replies = (sel) => ({
      data: repliesTo(slice, c.id).map((r) => project(commentNode(slice, r, false), sel.sub)),
    });
  return { typeName: 'IGComment', defaults: ['id', 'text', 'timestamp'], fields };
}

function insightsAnswer(slice: PlatformSlice, post: ObjectRecord, names: string[]): JsonObject {
  const m = metricsOf(slice, post);
  // Every view here is by a different account: reach equals views.
  const values: Record<string, number> = {
    views: m.impressions,
    reach: m.impressions,
    shares: m.shares,
    saved: 0,
    likes: m.likes,
    comments: m.comments,
    total_interactions: m.likes + m.comments + m.shares,
  };
  return {
    data: names.map(
      (name): JsonValue => ({
        name,
        period: 'lifetime',
        values: [{ value: values[name] ?? 0 }],
        title: name,
        description: name,
        id: `${post.id}/insights/${name}/lifetime`,
      }),
    ),
  };
}

export function registerInstagramEngagement(sim: Simulator): void {
  declareEngagement(sim.ctx, 'instagram', {
    commentId: () => metaMediaId(),
    userId: (n) => `17841${String(n + 1).padStart(12, '0')}`,
  });

  const mediaOf = (call: Call, actor: IgActor, id: string): ObjectRecord | undefined => {
    const post = findObject(call, 'posts', id);
    return post && post.accountId === actor.account.id ? post : undefined;
  };
  const commentOf = (call: Call, actor: IgActor, id: string): ObjectRecord | undefined => {
    const comment = call.slice.comments.get(id);
    return comment && comment.accountId === actor.account.id ? comment : undefined;
  };

  addRoute(sim, {
    method: 'GET',
    url: '/:version/:id/insights',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const found = objectActor(req, reply, call, INSIGHTS_SCOPE);
      if (!found) return reply;
      const post = mediaOf(call, found.actor, found.id);
      if (!post) return sendAnswer(reply, unsupportedGet(found.id));
      const names = (queryParams(req).metric ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = names.length === 0 ? 0 : names.findIndex((n) => !METRICS.includes(n));
      if (bad >= 0)
        return sendAnswer(
          reply,
          igError(100, 0, `(#100) metric[${bad}] must be one of the following values: ${METRICS.join(', ')}`),
        );
      return sendProjected(reply, () => insightsAnswer(call.slice, post, names));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/:version/:id/comments',
    ops: ['comments'],
    surface: 'api',
    handler: (req, reply, call) => {
      const found = objectActor(req, reply, call, COMMENTS_SCOPE);
      if (!found) return reply;
      const post = mediaOf(call, found.actor, found.id);
      if (!post) return sendAnswer(reply, unsupportedGet(found.id));
      const list = commentsOn(call.slice, post.id);
      return sendProjected(reply, () =>
        graphList(
          list.map((c) => project(commentNode(call.slice, c, true), requestedFields(req))),
          queryParams(req).limit,
        ),
      );
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/:version/:id/comments',
    ops: ['reply'],
    surface: 'api',
    handler: (req, reply, call) => {
      const found = objectActor(req, reply, call, COMMENTS_SCOPE);
      if (!found) return reply;
      const post = mediaOf(call, found.actor, found.id);
      if (!post) return sendAnswer(reply, unsupportedGet(found.id, 'post'));
      const message = param(graphInput(req), 'message') ?? '';
      if (!message.trim()) return sendAnswer(reply, igError(100, 0, 'The parameter message is required.'));
      if (message.length > MAX_COMMENT)
        return sendAnswer(
          reply,
          igError(100, 0, `(#100) The comment is too long: it must be at most ${MAX_COMMENT} characters`),
        );
      if (commentsDisabled(post))
        return sendAnswer(reply, igError(100, 0, '(#100) Comments are disabled for this media.'));
      const account = found.actor.account;
      const created = putComment(sim.ctx, 'instagram', post, undefined, {
        text: message,
        author: { id: found.actor.igUserId, name: account.username, avatarUrl: str(account.avatarUrl) || null },
        fromAccount: true,
      });
      return reply.send({ id: created.id });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/:version/:id/replies',
    ops: ['comments'],
    surface: 'api',
    handler: (req, reply, call) => {
      const found = objectActor(req, reply, call, COMMENTS_SCOPE);
      if (!found) return reply;
      const comment = commentOf(call, found.actor, found.id);
      if (!comment) return sendAnswer(reply, unsupportedGet(found.id));
      const list = repliesTo(call.slice, comment.id);
      return sendProjected(reply, () =>
        graphList(
          list.map((c) => project(commentNode(call.slice, c, false), requestedFields(req))),
          queryParams(req).limit,
        ),
      );
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/:version/:id/replies',
    ops: ['reply'],
    surface: 'api',
    handler: (req, reply, call) => {
      const found = objectActor(req, reply, call, COMMENTS_SCOPE);
      if (!found) return reply;
      const target = commentOf(call, found.actor, found.id);
      if (!target) return sendAnswer(reply, unsupportedGet(found.id, 'post'));
      const message = param(graphInput(req), 'message') ?? '';
      if (!message.trim()) return sendAnswer(reply, igError(100, 0, 'The parameter message is required.'));
      if (message.length > MAX_COMMENT)
        return sendAnswer(
          reply,
          igError(100, 0, `(#100) The comment is too long: it must be at most ${MAX_COMMENT} characters`),
        );
      // One level of replies: a reply to a reply joins the top-level comment.
      const parent = typeof target.parentId === 'string' ? call.slice.comments.get(target.parentId) : target;
      if (!parent) return sendAnswer(reply, unsupportedGet(found.id, 'post'));
      if (parent.hidden === true)
        return sendAnswer(reply, igError(100, 0, '(#100) You cannot reply to a hidden comment.'));
      const post = findObject(call, 'posts', text(parent.postId));
      if (!post) return sendAnswer(reply, unsupportedGet(found.id, 'post'));
      const account = found.actor.account;
      const created = putComment(sim.ctx, 'instagram', post, parent, {
        text: message,
        author: { id: found.actor.igUserId, name: account.username, avatarUrl: str(account.avatarUrl) || null },
        fromAccount: true,
      });
      return reply.send({ id: created.id });
    },
  });
}
