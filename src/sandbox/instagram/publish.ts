// POST /{ig-user-id}/media_publish?creation_id= turns a FINISHED container into a post (refusing unfinished,
// failed, expired and already-published ones, and enforcing the rolling 24-hour quota);
// GET /{ig-user-id}/content_publishing_limit; GET /{ig-user-id}/media; media and container nodes for GET /{id}.
import { metricsOf } from '../core/engagement.ts';
import { graphList, project, requestedFields, sendProjected } from '../core/graph.ts';
import type { NodeType } from '../core/graph.ts';
import { queryParams } from '../core/http.ts';
import { DAY_MS, graphInput, graphTime, metaMediaId, param, shortcode } from '../core/meta-publish.ts';
import { findObject, objectsOf, postsWithin, putPost, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import type { PlatformSlice } from '../core/store.ts';
import type { AccountRecord, JsonObject, JsonValue, ObjectRecord } from '../core/types.ts';
import { BASIC_SCOPE, expired, igActor, igError, notReady, PUBLISH_SCOPE } from './actor.ts';
import { containerNow, STATUS_TEXT } from './containers.ts';

const READ_TYPE: Record<string, string> = {
  IMAGE: 'IMAGE',
  VIDEO: 'VIDEO',
  REELS: 'VIDEO',
  STORIES: 'IMAGE',
  CAROUSEL: 'CAROUSEL_ALBUM',
};

function quotaTotal(call: Call): number {
  return call.ctx.store.config.publishLimits.instagram ?? 50;
}

/** As Instagram's web links, on the simulator's own base (`web`). */
function permalink(web: string, account: AccountRecord, type: string, code: string, mediaId: string): string {
  if (type === 'REELS') return `${web}/reel/${code}/`;
  if (type === 'STORIES') return `${web}/stories/${account.username}/${mediaId}/`;
  return `${web}/p/${code}/`;
}

function containerNode(c: ObjectRecord): NodeType {
  return {
    typeName: 'ShadowIGMediaBuilder',
    defaults: ['id'],
    fields: { id: () => c.id, status_code: () => c.status_code ?? null, status: () => c.status ?? null },
  };
}

function childNode(child: JsonObject): NodeType {
  return {
    typeName: 'IGMedia',
    defaults: ['id'],
    fields: {
      id: () => child.id ?? null,
      media_type: () => child.media_type ?? null,
      media_url: () => child.media_url ?? null,
      thumbnail_url: () => (child.media_type === 'VIDEO' ? `${text(child.media_url ?? null)}#thumbnail` : undefined),
      timestamp: () => child.timestamp ?? null,
    },
  };
}

function mediaNode(post: ObjectRecord, slice: PlatformSlice): NodeType {
  const metrics = metricsOf(slice, post);
  const children = Array.isArray(post.children)
    ? post.children.filter((c): c is JsonObject => typeof c === 'object' && c !== null && !Array.isArray(c))
    : [];
  const media = Array.isArray(post.media) ? post.media : [];
  return {
    typeName: 'IGMedia',
    defaults: ['id'],
    fields: {
      id: () => post.id,
      caption: () => text(post.text),
      media_type: () => post.media_type ?? null,
      media_product_type: () => post.media_product_type ?? null,
      media_url: () => (post.media_type === 'CAROUSEL_ALBUM' ? undefined : (media[0] ?? null)),
      thumbnail_url: () => (post.media_type === 'VIDEO' ? `${text(media[0] as JsonValue)}#thumbnail` : undefined),
      permalink: () => post.permalink ?? null,
      shortcode: () => post.shortcode ?? null,
      timestamp: () => graphTime(post.createdAt),
      username: () => post.username ?? null,
      owner: () => ({ id: text(post.author) }),
      like_count: () => metrics.likes,
      comments_count: () => metrics.comments,
      is_comment_enabled: () => true,
      children: (sel) => ({ data: children.map((c) => project(childNode(c), sel.sub)) }),
    },
  };
}

/** The node of a container or published media of this account, for GET /{id}. */
export function publishingNode(call: Call, accountId: string, id: string): NodeType | null {
  const post = findObject(call, 'posts', id);
  if (post && post.accountId === accountId) return mediaNode(post, call.slice);
  const container = findObject(call, 'containers', id);
  if (container && container.accountId === accountId) return containerNode(containerNow(call, container));
  return null;
}

export function registerInstagramPublish(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/:version/:id/media_publish',
    ops: ['publish'],
    surface: 'api',
    handler: (req, reply, call) => {
      const actor = igActor(req, reply, call, PUBLISH_SCOPE, 'post');
      if (!actor) return reply;
      const creationId = param(graphInput(req), 'creation_id');
      if (!creationId) return sendAnswer(reply, igError(100, 0, 'The parameter creation_id is required.'));
      const found = findObject(call, 'containers', creationId);
      if (!found || found.accountId !== actor.account.id) {
        return sendAnswer(
          reply,
          igError(24, 2207006, `The media with id ${creationId} cannot be found.`, 'Media not found'),
        );
      }
      const container = containerNow(call, found);
      if (container.is_carousel_item === true)
        return sendAnswer(
          reply,
          igError(100, 0, 'A carousel item cannot be published on its own; publish its CAROUSEL container.'),
        );
      switch (container.status_code) {
        case 'IN_PROGRESS':
          return sendAnswer(reply, notReady());
        case 'ERROR':
          return sendAnswer(
            reply,
            igError(-1, 2207032, 'Create media has failed, please try recreating the media container.'),
          );
        case 'EXPIRED':
          return sendAnswer(reply, expired());
        case 'PUBLISHED':
          return sendAnswer(
            reply,
            igError(
              100,
              0,
              `The media container ${creationId} has already been published as ${text(container.published_id)}.`,
            ),
          );
        default:
      }
      const used = postsWithin(call, actor.account.id, DAY_MS);
      if (used >= quotaTotal(call)) {
        return sendAnswer(
          reply,
          igError(
            9,
            2207042,
            `The account has reached its limit of ${quotaTotal(call)} API-published posts in 24 hours.`,
            'Max posts reached',
          ),
        );
      }
      const type = text(container.media_type);
      const mediaId = metaMediaId();
      const code = shortcode();
      const at = graphTime(call.ctx.now().toISOString());
      const children = (Array.isArray(container.children) ? container.children : []).map((id) =>
        findObject(call, 'containers', String(id)),
      );
      const childMedia: JsonObject[] = children.map((c) => ({
        id: metaMediaId(),
        media_type: READ_TYPE[text(c?.media_type)] ?? 'IMAGE',
        media_url: c?.media_url ?? null,
        timestamp: at,
      }));
      for (const c of children)
        if (c) Object.assign(c, { status_code: 'PUBLISHED', status: STATUS_TEXT.PUBLISHED ?? '' });
      const media = type === 'CAROUSEL' ? childMedia.map((c) => text(c.media_url)) : [text(container.media_url)];
      putPost(
        call,
        req,
        {
          id: mediaId,
          accountId: actor.account.id,
          author: actor.igUserId,
          text: text(container.caption),
          media,
          permalink: permalink(call.ctx.base('instagram'), actor.account, type, code, mediaId),
        },
        {
          shortcode: code,
          username: actor.account.username,
          media_type: READ_TYPE[type] ?? 'IMAGE',
          media_product_type: type === 'REELS' ? 'REELS' : type === 'STORIES' ? 'STORY' : 'FEED',
          containerId: container.id,
          children: childMedia,
        },
      );
      Object.assign(container, {
        status_code: 'PUBLISHED',
        status: STATUS_TEXT.PUBLISHED ?? '',
        published_id: mediaId,
      });
      return reply.send({ id: mediaId });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/:version/:id/content_publishing_limit',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const actor = igActor(req, reply, call, PUBLISH_SCOPE, 'get');
      if (!actor) return reply;
      const sinceRaw = Number(queryParams(req).since);
      const window =
        Number.isFinite(sinceRaw) && sinceRaw > 0 ? Math.min(DAY_MS, call.ctx.nowMs() - sinceRaw * 1000) : DAY_MS;
      const usage = postsWithin(call, actor.account.id, window);
      const node: NodeType = {
        typeName: 'ContentPublishingLimit',
        defaults: ['quota_usage'],
        fields: { quota_usage: () => usage, config: () => ({ quota_total: quotaTotal(call), quota_duration: 86_400 }) },
      };
      return sendProjected(reply, () => ({ data: [project(node, requestedFields(req))] }));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/:version/:id/media',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const actor = igActor(req, reply, call, BASIC_SCOPE, 'get');
      if (!actor) return reply;
      const posts = objectsOf(call, 'posts', actor.account.id).reverse();
      return sendProjected(reply, () =>
        graphList(
          posts.map((p) => project(mediaNode(p, call.slice), requestedFields(req))),
          queryParams(req).limit,
        ),
      );
    },
  });
}
