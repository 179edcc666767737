// POST /v1.0/{threads-user-id}/threads_publish?creation_id= (FINISHED containers only, 250 posts / 1000 replies per
// rolling 24 h), the post and container nodes for GET /v1.0/{id}, GET /v1.0/{user}/threads,
// GET /v1.0/{user}/threads_publishing_limit and DELETE /v1.0/{media-id}.
import type { FastifyRequest } from 'fastify';
import { graphList, project, requestedFields, sendProjected } from '../core/graph.ts';
import type { NodeType } from '../core/graph.ts';
import { queryParams, sendJson } from '../core/http.ts';
import { DAY_MS, graphInput, graphTime, metaMediaId, param, shortcode } from '../core/meta-publish.ts';
import { findObject, objectsOf, postsWithin, putPost, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { containerNow, notReady, threadsActor, threadsError } from './actor.ts';
import { publishReplyToReply, repliesWithin } from './engagement.ts';
import type { ThreadsActor } from './actor.ts';

const READ_TYPE: Record<string, string> = {
  TEXT: 'TEXT_POST',
  IMAGE: 'IMAGE',
  VIDEO: 'VIDEO',
  CAROUSEL: 'CAROUSEL_ALBUM',
};
const REPLY_LIMIT = 1000;

const isReply = (p: ObjectRecord): boolean => typeof p.reply_to_id === 'string';

export function publishContainer(
  call: Call,
  req: FastifyRequest,
  actor: ThreadsActor,
  found: ObjectRecord,
): ErrorAnswer | { id: string } {
  const container = containerNow(call, found);
  if (container.is_carousel_item === true)
    return threadsError('(#100) A carousel item cannot be published on its own; publish its CAROUSEL container.');
  if (container.status === 'IN_PROGRESS') return notReady();
  if (container.status === 'ERROR')
    return threadsError(`(#100) The media container failed processing: ${text(container.error_message)}`);
  if (container.status === 'EXPIRED') return threadsError('(#100) The media container has expired; create a new one.');
  if (container.status === 'PUBLISHED')
    return threadsError(`(#100) The media container has already been published as ${text(container.published_id)}.`);
  const reply = typeof container.reply_to_id === 'string';
  const limit = reply ? REPLY_LIMIT : (call.ctx.store.config.publishLimits.threads ?? 250);
  const used =
    postsWithin(call, actor.account.id, DAY_MS, (p) => isReply(p) === reply) +
    (reply ? repliesWithin(call, actor.account.id, DAY_MS) : 0);
  if (used >= limit) {
    return threadsError(
      `(#9) The ${reply ? 'reply' : 'post'} publishing limit of ${limit} per 24 hours has been reached.`,
      9,
    );
  }
  const underReply = publishReplyToReply(call, actor, container);
  if (underReply) return underReply;
  const id = metaMediaId();
  const code = shortcode();
  const children = (Array.isArray(container.children) ? container.children : []).map((c) =>
    findObject(call, 'containers', String(c)),
  );
  const childMedia: JsonObject[] = children.map((c) => ({
    id: metaMediaId(),
    media_type: READ_TYPE[text(c?.media_type)] ?? 'IMAGE',
    media_url: c?.media_url ?? null,
  }));
  for (const c of children) if (c) c.status = 'PUBLISHED';
  const media =
    container.media_type === 'CAROUSEL'
      ? childMedia.map((c) => text(c.media_url))
      : container.media_url
        ? [text(container.media_url)]
        : [];
  const permalink = `${call.ctx.base('threads')}/@${actor.account.username}/post/${code}`;
  putPost(
    call,
    req,
    { id, accountId: actor.account.id, author: actor.account.id, text: text(container.text), media, permalink },
    {
      shortcode: code,
      username: actor.account.username,
      media_type: READ_TYPE[text(container.media_type)] ?? 'TEXT_POST',
      reply_to_id: container.reply_to_id ?? null,
      quote_post_id: container.quote_post_id ?? null,
      link_attachment: container.link_attachment ?? null,
      topic_tag: container.topic_tag ?? null,
      containerId: container.id,
      children: childMedia,
    },
  );
  Object.assign(container, { status: 'PUBLISHED', published_id: id });
  return { id };
}

function postNode(post: ObjectRecord): NodeType {
  const children = Array.isArray(post.children) ? (post.children as JsonObject[]) : [];
  const media = Array.isArray(post.media) ? post.media : [];
  return {
    typeName: 'ThreadsMedia',
    defaults: ['id'],
    fields: {
      id: () => post.id,
      media_product_type: () => 'THREADS',
      media_type: () => post.media_type ?? null,
      media_url: () => (post.media_type === 'IMAGE' || post.media_type === 'VIDEO' ? (media[0] ?? null) : undefined),
      thumbnail_url: () => (post.media_type === 'VIDEO' ? `${text(media[0] ?? null)}#thumbnail` : undefined),
      permalink: () => post.permalink ?? null,
      shortcode: () => post.shortcode ?? null,
      owner: () => ({ id: text(post.author) }),
      username: () => post.username ?? null,
      text: () => text(post.text),
      timestamp: () => graphTime(post.createdAt),
      is_quote_post: () => typeof post.quote_post_id === 'string',
      is_reply: () => isReply(post),
      replied_to: () => (isReply(post) ? { id: text(post.reply_to_id) } : undefined),
      link_attachment_url: () => post.link_attachment ?? undefined,
      topic_tag: () => post.topic_tag ?? undefined,
      children: (sel) => ({
        data: children.map((c) =>
          project(
            {
              typeName: 'ThreadsMedia',
              defaults: ['id'],
              fields: {
                id: () => c.id ?? null,
                media_type: () => c.media_type ?? null,
                media_url: () => c.media_url ?? null,
                thumbnail_url: () => (c.media_type === 'VIDEO' ? `${text(c.media_url ?? null)}#thumbnail` : undefined),
              },
            },
            sel.sub,
          ),
        ),
      }),
    },
  };
}

/** GET /v1.0/{id} of a post or container of this account. */
export function publishingNode(call: Call, accountId: string, id: string): NodeType | null {
  const post = findObject(call, 'posts', id);
  if (post && post.accountId === accountId) return postNode(post);
  const container = findObject(call, 'containers', id);
  if (!container || container.accountId !== accountId) return null;
  const c = containerNow(call, container);
  return {
    typeName: 'ThreadsMediaContainer',
    defaults: ['id'],
    fields: { id: () => c.id, status: () => c.status ?? null, error_message: () => c.error_message ?? undefined },
  };
}

export function registerThreadsPublish(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/v1.0/:id/threads_publish',
    ops: ['publish', 'reply'],
    // Publishing a reply container is reply creation.
    opsFor: (req) => {
      const id = param(graphInput(req), 'creation_id');
      return typeof (id ? sim.ctx.store.slices.threads.containers.get(id)?.reply_to_id : null) === 'string'
        ? ['reply']
        : ['publish'];
    },
    surface: 'api',
    handler: (req, reply, call) => {
      const actor = threadsActor(req, reply, call, ['threads_content_publish'], 'post');
      if (!actor) return reply;
      const creationId = param(graphInput(req), 'creation_id');
      if (!creationId) return sendAnswer(reply, threadsError('(#100) The parameter creation_id is required.'));
      const container = findObject(call, 'containers', creationId);
      if (!container || container.accountId !== actor.account.id) return sendAnswer(reply, notReady());
      const published = publishContainer(call, req, actor, container);
      return 'status' in published ? sendAnswer(reply, published) : reply.send(published);
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v1.0/:id/threads',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const actor = threadsActor(req, reply, call, [], 'get');
      if (!actor) return reply;
      const posts = objectsOf(call, 'posts', actor.account.id).reverse();
      return sendProjected(reply, () =>
        graphList(
          posts.map((p) => project(postNode(p), requestedFields(req))),
          queryParams(req).limit,
        ),
      );
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v1.0/:id/threads_publishing_limit',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const actor = threadsActor(req, reply, call, [], 'get');
      if (!actor) return reply;
      const usage = (reply: boolean) =>
        postsWithin(call, actor.account.id, DAY_MS, (p) => isReply(p) === reply) +
        (reply ? repliesWithin(call, actor.account.id, DAY_MS) : 0);
      const config = (total: number) => ({ quota_total: total, quota_duration: 86_400 });
      const node: NodeType = {
        typeName: 'ThreadsPublishingLimit',
        defaults: ['quota_usage', 'config'],
        fields: {
          quota_usage: () => usage(false),
          config: () => config(call.ctx.store.config.publishLimits.threads ?? 250),
          reply_quota_usage: () => usage(true),
          reply_config: () => config(REPLY_LIMIT),
        },
      };
      return sendProjected(reply, () => ({ data: [project(node, requestedFields(req))] }));
    },
  });

  addRoute(sim, {
    method: 'DELETE',
    url: '/v1.0/:id',
    ops: ['delete'],
    surface: 'api',
    handler: (req, reply, call) => {
      const actor = threadsActor(req, reply, call, ['threads_delete'], 'delete');
      if (!actor) return reply;
      const id = (req.params as { id: string }).id;
      const post = findObject(call, 'posts', id);
      if (!post || post.accountId !== actor.account.id) return sendAnswer(reply, notReady());
      call.slice.posts.delete(id);
      return sendJson(reply, 200, { success: true, deleted_id: id });
    },
  });
}
