// The read side of Page posts on graph.facebook.com, with the Page access token of the Page that owns them:
// GET /{page-id}/published_posts, the engagement fields of a post node (reactions / comments summaries, shares,
// attachments), GET /{post-id}/insights (post_media_view, post_total_media_view_unique; the retired post_impressions*
// metrics are refused), GET /{post-or-comment-id}/comments (filter, order, summary, limit) and
// POST /{post-or-comment-id}/comments as the Page (pages_manage_engagement). Comment ids are `{post-part}_{digits}`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import { findAsset } from '../core/accounts.ts';
import { commentsOn, declareEngagement, metricsOf, numericId, putComment, repliesTo } from '../core/engagement.ts';
import {
  graphAuth,
  graphError,
  graphList,
  missingPermission,
  project,
  requestedFields,
  sendProjected,
  unsupportedGet,
} from '../core/graph.ts';
import { queryParams } from '../core/http.ts';
import { graphInput, param } from '../core/meta-publish.ts';
import { findObject, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import type { PlatformSlice } from '../core/store.ts';
import type { AccountRecord, AssetRecord, JsonObject, JsonValue, ObjectRecord, TokenRecord } from '../core/types.ts';
import { postNode } from './objects.ts';
import { commentNode } from './post-nodes.ts';
import { versionOk } from './version.ts';

/** The longest comment the sandbox takes (Facebook's comment box limit; Graph documents none). */
export const MAX_COMMENT = 8000;
const READ_SCOPE = 'pages_read_engagement';
const USER_CONTENT_SCOPE = 'pages_read_user_content';
const ENGAGE_SCOPE = 'pages_manage_engagement';
const INSIGHTS_SCOPE = 'read_insights';

const RETIRED_METRIC = /^post_impressions/;
const METRICS = [
  'post_media_view',
  'post_total_media_view_unique',
  'post_clicks',
  'post_reactions_like_total',
  'post_reactions_by_type_total',
];

interface PageReader {
  token: TokenRecord;
  account: AccountRecord;
  page: AssetRecord;
}

/** A valid token of the Page `pageId`, carrying `scopes`; answers Graph's error itself and returns null otherwise. */
function pageReader(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  pageId: string,
  objectId: string,
  scopes: string[],
  method: 'get' | 'post',
): PageReader | null {
  if (!versionOk(req, reply)) return null;
  const token = graphAuth(call, req, reply, {
    kinds: ['short', 'long', 'page'],
    appId: SANDBOX_APPS.facebook.clientId,
    aboutMe: false,
  });
  if (!token) return null;
  const found = findAsset(call.slice, pageId);
  if (found?.asset.type !== 'page' || found.account.id !== token.accountId) {
    sendAnswer(reply, unsupportedGet(objectId, method));
    return null;
  }
  if (token.kind !== 'page' || token.assetId !== pageId) {
    sendAnswer(
      reply,
      graphError(403, { message: '(#210) A page access token is required to request this resource.', code: 210 }),
    );
    return null;
  }
  const missing = scopes.find((s) => !token.scopes.includes(s));
  if (missing) {
    sendAnswer(reply, missingPermission(missing));
    return null;
  }
  return { token, account: found.account, page: found.asset };
}

function insightsAnswer(slice: PlatformSlice, post: ObjectRecord, names: string[]): JsonObject {
  const m = metricsOf(slice, post);
  // Every view here is by a different person: reach equals views.
  const values: Record<string, JsonValue> = {
    post_media_view: m.impressions,
    post_total_media_view_unique: m.impressions,
    post_clicks: 0,
    post_reactions_like_total: m.likes,
    post_reactions_by_type_total: m.likes > 0 ? { like: m.likes } : {},
  };
  return {
    data: names.map((name) => ({
      name,
      period: 'lifetime',
      values: [{ value: values[name] ?? 0 }],
      title: name,
      description: `Lifetime ${name}`,
      id: `${post.id}/insights/${name}/lifetime`,
    })),
  };
}

/** The post or comment `id` names, and the Page that owns it. */
function target(call: Call, id: string): { post: ObjectRecord; comment: ObjectRecord | null; pageId: string } | null {
  const comment = call.slice.comments.get(id);
  const post = findObject(call, 'posts', comment ? text(comment.postId) : id);
  if (!post) return null;
  return { post, comment: comment ?? null, pageId: text(post.pageId) };
}

export function registerFacebookEngagement(sim: Simulator): void {
  declareEngagement(sim.ctx, 'facebook', {
    // A comment id is the post part of the post id and a number; a reply's id has the same form.
    commentId: (_ctx, post) => `${post.id.split('_')[1] ?? post.id}_${numericId(16)}`,
    userId: (n) => `1000${String(n + 1).padStart(11, '0')}`,
  });

  addRoute(sim, {
    method: 'GET',
    url: '/:version/:id/published_posts',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const pageId = (req.params as { id: string }).id;
      const reader = pageReader(req, reply, call, pageId, pageId, [READ_SCOPE], 'get');
      if (!reader) return reply;
      const posts = [...call.slice.posts.values()]
        .map((p) => findObject(call, 'posts', p.id)!)
        .filter((p) => p.pageId === pageId && p.is_published !== false)
        .reverse();
      const viewer = { call, token: reader.token, account: reader.account };
      return sendProjected(reply, () =>
        graphList(
          posts.map((p) => project(postNode(viewer, p), requestedFields(req))),
          queryParams(req).limit,
        ),
      );
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/:version/:id/insights',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const id = (req.params as { id: string }).id;
      const found = target(call, id);
      const pageId = found && !found.comment ? found.pageId : (findAsset(call.slice, id)?.asset.id ?? '');
      const reader = pageReader(req, reply, call, pageId, id, [READ_SCOPE, INSIGHTS_SCOPE], 'get');
      if (!reader) return reply;
      if (!found || found.comment)
        return sendAnswer(
          reply,
          graphError(400, { message: "(#100) Page insights are served in Herald's sandbox for posts only", code: 100 }),
        );
      const names = (queryParams(req).metric ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (names.length === 0) {
        return sendAnswer(
          reply,
          graphError(400, {
            message:
              'No metric was specified to be fetched. Please specify one or more metrics to be fetched and try again.',
            code: 3001,
            subcode: 1504028,
          }),
        );
      }
      const bad = names.find((n) => RETIRED_METRIC.test(n) || !METRICS.includes(n));
      if (bad)
        return sendAnswer(
          reply,
          graphError(400, { message: `(#100) The value must be a valid insights metric: ${bad}`, code: 100 }),
        );
      return sendProjected(reply, () => insightsAnswer(call.slice, found.post, names));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/:version/:id/comments',
    ops: ['comments'],
    surface: 'api',
    handler: (req, reply, call) => {
      const id = (req.params as { id: string }).id;
      const found = target(call, id);
      const reader = pageReader(req, reply, call, found?.pageId ?? '', id, [READ_SCOPE, USER_CONTENT_SCOPE], 'get');
      if (!reader) return reply;
      if (!found) return sendAnswer(reply, unsupportedGet(id));
      const q = queryParams(req);
      const order = q.order ?? 'chronological';
      if (!['chronological', 'reverse_chronological'].includes(order))
        return sendAnswer(
          reply,
          graphError(400, {
            message: '(#100) param order must be one of {chronological, reverse_chronological}',
            code: 100,
          }),
        );
      const filter = q.filter ?? 'toplevel';
      if (!['toplevel', 'stream'].includes(filter))
        return sendAnswer(
          reply,
          graphError(400, { message: '(#100) param filter must be one of {toplevel, stream}', code: 100 }),
        );
      const slice = call.slice;
      let list: ObjectRecord[];
      if (found.comment) list = repliesTo(slice, found.comment.id);
      else if (filter === 'stream') list = [...slice.comments.values()].filter((c) => c.postId === found.post.id);
      else list = commentsOn(slice, found.post.id).reverse();
      if (order === 'reverse_chronological') list = [...list].reverse();
      const total = list.length;
      return sendProjected(reply, () => {
        const page = graphList(
          list.map((c) => project(commentNode(slice, c), requestedFields(req))),
          q.limit,
        );
        return q.summary === 'true' || q.summary === '1'
          ? { ...page, summary: { order, total_count: total, can_comment: true } }
          : page;
      });
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/:version/:id/comments',
    ops: ['reply'],
    surface: 'api',
    handler: (req, reply, call) => {
      const id = (req.params as { id: string }).id;
      const found = target(call, id);
      const reader = pageReader(req, reply, call, found?.pageId ?? '', id, [READ_SCOPE, ENGAGE_SCOPE], 'post');
      if (!reader) return reply;
      if (!found) return sendAnswer(reply, unsupportedGet(id, 'post'));
      const message = param(graphInput(req), 'message') ?? '';
      if (!message.trim())
        return sendAnswer(reply, graphError(400, { message: '(#100) Missing message or attachment', code: 100 }));
      if (message.length > MAX_COMMENT)
        return sendAnswer(
          reply,
          graphError(400, {
            message: `(#100) Param message must be at most ${MAX_COMMENT} characters long`,
            code: 100,
          }),
        );
      const page = reader.page;
      const created = putComment(sim.ctx, 'facebook', found.post, found.comment ?? undefined, {
        text: message,
        author: {
          id: page.id,
          name: page.name,
          avatarUrl: typeof page.fields.picture === 'string' ? page.fields.picture : null,
        },
        fromAccount: true,
      });
      return reply.send({ id: created.id });
    },
  });
}
