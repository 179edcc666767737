// The read side of the TikTok simulator: the Display API's POST /v2/video/list/ and POST /v2/video/query/ (scope
// video.list, `fields` required in the query, max_count and video_ids up to 20, a millisecond create_time cursor).
// Like TikTok, they show the creator's public video posts only: a SELF_ONLY post (every post of an unaudited app) or a
// friends-only one is not listed, and photo posts are not videos. TikTok's public APIs offer no comment access and no
// way to delete a post, so the simulator keeps no comments and has no delete route.
import { createHash } from 'node:crypto';
import type { SandboxContext } from '../core/context.ts';
import { declareEngagement, metricsOf } from '../core/engagement.ts';
import { isObj, jsonBody, queryParams } from '../core/http.ts';
import { objectsOf, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { apiFail, ok } from './errors.ts';
import { creator } from './jobs.ts';

export const VIDEO_FIELDS = [
  'id',
  'create_time',
  'cover_image_url',
  'share_url',
  'video_description',
  'duration',
  'height',
  'width',
  'title',
  'embed_html',
  'embed_link',
  'like_count',
  'comment_count',
  'share_count',
  'view_count',
] as const;

const MAX_COUNT = 20;

export function declareTikTokEngagement(ctx: SandboxContext): void {
  // Herald keeps the publish_id as the post id until TikTok gives a public one (never, for SELF_ONLY posts).
  declareEngagement(ctx, 'tiktok', {
    findPost: (slice, postId) =>
      slice.posts.get(postId) ?? [...slice.posts.values()].find((p) => p.publishId === postId),
  });
}

/** What the Display API lists: the creator's public video posts. */
function listable(post: ObjectRecord): boolean {
  return post.privacy_level === 'PUBLIC_TO_EVERYONE' && !text(post.permalink).includes('/photo/');
}

function videoObject(call: Call, post: ObjectRecord, fields: readonly string[]): JsonObject {
  const m = metricsOf(call.slice, post);
  const caption = text(post.text);
  const hash = createHash('sha1').update(post.id).digest('hex');
  const expires = Math.floor(call.ctx.nowMs() / 1000) + 6 * 3600;
  const all: JsonObject = {
    id: post.id,
    create_time: Math.floor(Date.parse(post.createdAt) / 1000),
    // Signed CDN URLs that expire after six hours.
    cover_image_url: `https://p16-sign-va.tiktokcdn.com/obj/tos-maliva-p-0068/${hash}?x-expires=${expires}&x-signature=${hash.slice(0, 16)}`,
    share_url: `${call.ctx.base('tiktok')}/@${text(post.username)}/video/${post.id}`,
    video_description: caption,
    duration: 8,
    height: 1280,
    width: 720,
    title: caption.slice(0, 150),
    embed_html: `<blockquote class="tiktok-embed" cite="${call.ctx.base('tiktok')}/@${text(post.username)}/video/${post.id}" data-video-id="${post.id}"></blockquote>`,
    embed_link: `https://www.tiktok.com/player/v1/${post.id}`,
    like_count: m.likes,
    comment_count: m.comments,
    share_count: m.shares,
    view_count: m.impressions,
  };
  return Object.fromEntries(fields.map((f) => [f, all[f] ?? null]));
}

/** The `fields` query parameter, or the error answer. */
function fieldsOf(call: Call, raw: string | undefined): string[] | ReturnType<typeof apiFail> {
  const fields = (raw ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0) return apiFail(400, 'invalid_params', 'The fields parameter is required.', call.ctx.nowMs());
  const unknown = fields.find((f) => !(VIDEO_FIELDS as readonly string[]).includes(f));
  if (unknown) return apiFail(400, 'invalid_params', `Invalid field: ${unknown}.`, call.ctx.nowMs());
  return fields;
}

const intIn = (v: unknown, min: number, max: number): boolean =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

export function registerTikTokEngagement(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/v2/video/list/',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = creator(req, reply, call, ['video.list']);
      if (!who) return reply;
      const fields = fieldsOf(call, queryParams(req).fields);
      if (!Array.isArray(fields)) return sendAnswer(reply, fields);
      const body = jsonBody(req) ?? {};
      const max = body.max_count ?? 10;
      if (!intIn(max, 1, MAX_COUNT))
        return sendAnswer(
          reply,
          apiFail(400, 'invalid_params', `max_count must be between 1 and ${MAX_COUNT}.`, call.ctx.nowMs()),
        );
      const cursor = body.cursor;
      if (cursor !== undefined && !intIn(cursor, 0, Number.MAX_SAFE_INTEGER))
        return sendAnswer(
          reply,
          apiFail(400, 'invalid_params', 'cursor must be a UTC Unix timestamp in milliseconds.', call.ctx.nowMs()),
        );
      // Sorted by create_time, newest first; the cursor asks for videos posted before it.
      const videos = objectsOf(call, 'posts', who.account.id)
        .map((p, i) => ({ p, i }))
        .filter(({ p }) => listable(p) && (cursor === undefined || Date.parse(p.createdAt) < (cursor as number)))
        .sort((a, b) => Date.parse(b.p.createdAt) - Date.parse(a.p.createdAt) || b.i - a.i)
        .map(({ p }) => p);
      const page = videos.slice(0, max as number);
      const last = page[page.length - 1];
      return reply.send(
        ok(
          {
            videos: page.map((p) => videoObject(call, p, fields)),
            cursor: last ? Date.parse(last.createdAt) : (cursor ?? call.ctx.nowMs()),
            has_more: videos.length > page.length,
          },
          call.ctx.nowMs(),
        ),
      );
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/v2/video/query/',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = creator(req, reply, call, ['video.list']);
      if (!who) return reply;
      const fields = fieldsOf(call, queryParams(req).fields);
      if (!Array.isArray(fields)) return sendAnswer(reply, fields);
      const body = jsonBody(req) ?? {};
      const ids = isObj(body.filters) ? body.filters.video_ids : undefined;
      if (!Array.isArray(ids) || ids.length === 0 || ids.some((id) => typeof id !== 'string')) {
        return sendAnswer(
          reply,
          apiFail(400, 'invalid_params', 'filters.video_ids must be a non-empty list of video ids.', call.ctx.nowMs()),
        );
      }
      if (ids.length > MAX_COUNT)
        return sendAnswer(
          reply,
          apiFail(400, 'invalid_params', `filters.video_ids takes at most ${MAX_COUNT} ids.`, call.ctx.nowMs()),
        );
      // Ids that are not the creator's public videos (someone else's, private, deleted) are left out.
      const own = objectsOf(call, 'posts', who.account.id).filter(listable);
      const found = ids.map((id) => own.find((p) => p.id === id)).filter((p): p is ObjectRecord => !!p);
      return reply.send(ok({ videos: found.map((p) => videoObject(call, p, fields)) }, call.ctx.nowMs()));
    },
  });
}
