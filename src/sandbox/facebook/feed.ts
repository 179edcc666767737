// Page publishing on graph.facebook.com: POST /{page-id}/feed (message, link, attached_media, scheduling) and
// POST /{page-id}/photos (url or multipart `source`; `published=false` keeps the photo for a multi-photo feed post).
import type { FastifyRequest } from 'fastify';
import { graphError } from '../core/graph.ts';
import { isObj, queryParams } from '../core/http.ts';
import type { Obj } from '../core/http.ts';
import { randomDigits } from '../core/ids.ts';
import { inspectUrl, MB, parseMultipart, peekMultipartField, sniff, UPLOAD_BODY_LIMIT } from '../core/media.ts';
import { reachMedia } from '../core/strict.ts';
import type { MultipartFile } from '../core/media.ts';
import { flag, graphInput, param } from '../core/meta-publish.ts';
import { findObject, putObject, putPost } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import type { JsonObject } from '../core/types.ts';
import { invalidParam, pageActor } from './page-actor.ts';
import type { PageActor } from './page-actor.ts';

const MAX_MESSAGE = 63_206;
const MAX_PHOTO_BYTES = 4 * MB;
const PHOTO_FORMATS = ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff'];
const MIN_SCHEDULE_S = 10 * 60;
const MAX_SCHEDULE_S = 30 * 86_400;

/** Where a Page post lives on the web: `{web}/{page-id}/posts/{id}`, the web being the simulator's own base. */
export function postPermalink(web: string, pageId: string, postId: string): string {
  return `${web}/${pageId}/posts/${postId.split('_')[1] ?? postId}`;
}

/** The call's parameters: query, then the JSON / form body or a multipart body's fields. */
export async function pageInput(req: FastifyRequest): Promise<{ input: Obj; files: Record<string, MultipartFile> }> {
  const multipart = await parseMultipart(req);
  if (!multipart) return { input: graphInput(req), files: {} };
  return { input: { ...queryParams(req), ...multipart.fields }, files: multipart.files };
}

/** `attached_media` as a JSON array, a JSON string, or form fields `attached_media[0]={"media_fbid":"…"}`. */
function attachedMedia(input: Obj): string[] | 'invalid' | undefined {
  const indexed = Object.keys(input)
    .filter((k) => /^attached_media\[\d+\]$/.test(k))
    .sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]));
  let items: unknown[];
  if (indexed.length > 0) items = indexed.map((k) => input[k]);
  else if (input.attached_media === undefined) return undefined;
  else if (Array.isArray(input.attached_media)) items = input.attached_media;
  else {
    try {
      const parsed: unknown = JSON.parse(String(input.attached_media));
      if (!Array.isArray(parsed)) return 'invalid';
      items = parsed;
    } catch {
      return 'invalid';
    }
  }
  const ids: string[] = [];
  for (const item of items) {
    let obj: unknown = item;
    if (typeof item === 'string') {
      try {
        obj = JSON.parse(item);
      } catch {
        return 'invalid';
      }
    }
    const id = isObj(obj) ? obj.media_fbid : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') return 'invalid';
    ids.push(String(id));
  }
  return ids;
}

/** `scheduled_publish_time` as unix seconds or an ISO date; must lie 10 minutes to 30 days ahead. */
function scheduledTime(call: Call, raw: string): number | null {
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Math.floor(Date.parse(raw) / 1000);
  const ahead = seconds - Math.floor(call.ctx.nowMs() / 1000);
  return Number.isFinite(seconds) && ahead >= MIN_SCHEDULE_S && ahead <= MAX_SCHEDULE_S ? seconds : null;
}

function wantsPermalink(req: FastifyRequest): boolean {
  return (queryParams(req).fields ?? '').split(',').includes('permalink_url');
}

function photoProblem(
  url: string | undefined,
  file: MultipartFile | undefined,
): ErrorAnswer | { mime: string | null; bytes: number | null } {
  const tooBig = invalidParam('(#100) Invalid image', {
    subcode: 1366046,
    userTitle: "Can't Read Files",
    userMsg:
      "Your photos couldn't be uploaded. Photos should be less than 4 MB and saved as JPG, PNG, GIF, TIFF, HEIF or WebP files.",
  });
  if (file) {
    const mime = sniff(file.bytes);
    if (!mime) return invalidParam('(#324) Missing or invalid image file');
    if (file.bytes.length > MAX_PHOTO_BYTES || !PHOTO_FORMATS.includes(mime)) return tooBig;
    return { mime, bytes: file.bytes.length };
  }
  const media = inspectUrl(url);
  if (!media) return invalidParam('url should represent a valid URL');
  if (!media.reachable || media.corrupt) return invalidParam('(#324) Missing or invalid image file');
  if (media.mime && !PHOTO_FORMATS.includes(media.mime)) return tooBig;
  return { mime: media.mime ?? 'image/jpeg', bytes: null };
}

function createFeedPost(
  call: Call,
  req: FastifyRequest,
  actor: PageActor,
  input: Obj,
): ErrorAnswer | { body: JsonObject } {
  const pageId = actor.page.id;
  const message = param(input, 'message');
  const link = param(input, 'link');
  const attached = attachedMedia(input);
  if (attached === 'invalid') return invalidParam('param attached_media must be an array');
  if (!message && !link && !attached?.length)
    return invalidParam('Param message, link, attached_media or place must be specified');
  if (message && message.length > MAX_MESSAGE)
    return invalidParam(`Param message must be at most ${MAX_MESSAGE} characters long`);
  if (link !== undefined) {
    const media = inspectUrl(link);
    if (!media) return invalidParam('Param link must be a valid URL');
    if (!media.reachable)
      return graphError(400, { message: 'Error Posting Link: the link could not be scraped', code: 1609005 });
  }
  const published = flag(input, 'published') ?? true;
  const scheduleRaw = param(input, 'scheduled_publish_time');
  let scheduled: number | null = null;
  if (scheduleRaw !== undefined) {
    if (published) return invalidParam('Cannot specify a scheduled publish time on a published post');
    scheduled = scheduledTime(call, scheduleRaw);
    if (scheduled === null) return invalidParam('The specified scheduled publish time is invalid.');
  }
  const photos = (attached ?? []).map((id) => findObject(call, 'media', id));
  const bad = photos.findIndex(
    (p) => p?.kind !== 'photo' || p.pageId !== pageId || p.published !== false || p.attachedTo,
  );
  if (bad >= 0) return invalidParam(`param attached_media[${bad}] has an invalid media_fbid: ${attached?.[bad] ?? ''}`);
  const id = `${pageId}_${randomDigits(16)}`;
  const permalink = postPermalink(call.ctx.base('facebook'), pageId, id);
  const statusType = photos.length ? 'added_photos' : link ? 'shared_story' : 'mobile_status_update';
  putPost(
    call,
    req,
    { id, accountId: actor.account.id, author: pageId, text: message ?? '', media: attached ?? [], permalink },
    { pageId, link: link ?? null, is_published: published, scheduled_publish_time: scheduled, status_type: statusType },
  );
  for (const photo of photos) if (photo) photo.attachedTo = id;
  return { body: { id, ...(wantsPermalink(req) ? { permalink_url: permalink } : {}) } };
}

export function registerFacebookFeed(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/:version/:pageId/feed',
    ops: ['publish'],
    surface: 'api',
    handler: async (req, reply, call) => {
      const { input } = await pageInput(req);
      const actor = pageActor(req, reply, call, input);
      if (!actor) return reply;
      const result = createFeedPost(call, req, actor, input);
      return 'status' in result ? sendAnswer(reply, result) : reply.send(result.body);
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/:version/:pageId/photos',
    ops: ['publish', 'upload'],
    // An unpublished photo is a media upload for a later multi-photo post; a published one is a post.
    opsFor: (req) => {
      const published =
        queryParams(req).published ??
        peekMultipartField(req, 'published') ??
        (isObj(req.body) ? String(req.body.published ?? '') : '');
      return published === 'false' || published === '0' ? ['upload'] : ['publish'];
    },
    surface: 'api',
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: async (req, reply, call) => {
      const { input, files } = await pageInput(req);
      const actor = pageActor(req, reply, call, input);
      if (!actor) return reply;
      const pageId = actor.page.id;
      const url = param(input, 'url');
      const file = files.source;
      if (!url && !file) return sendAnswer(reply, invalidParam('(#324) Requires upload file'));
      const photo = photoProblem(url, file);
      if ('status' in photo) return sendAnswer(reply, photo);
      // Strict public_media_only: Facebook's servers fetch the url, so a loopback or private host fails.
      const reach = url && !file ? await reachMedia(call.ctx, url) : { ok: true as const };
      if (!reach.ok)
        return sendAnswer(
          reply,
          invalidParam(`(#324) Missing or invalid image file: the url could not be fetched (${reach.detail})`),
        );
      const published = flag(input, 'published') ?? true;
      const caption = param(input, 'caption') ?? param(input, 'message') ?? '';
      const photoId = randomDigits(16);
      const postId = published ? `${pageId}_${photoId}` : null;
      putObject(call, 'media', {
        id: photoId,
        accountId: actor.account.id,
        kind: 'photo',
        pageId,
        url: url ?? null,
        bytes: photo.bytes,
        mimeType: photo.mime,
        caption,
        published,
        attachedTo: postId,
      });
      if (!postId) return reply.send({ id: photoId });
      putPost(
        call,
        req,
        {
          id: postId,
          accountId: actor.account.id,
          author: pageId,
          text: caption,
          media: [photoId],
          permalink: postPermalink(call.ctx.base('facebook'), pageId, postId),
        },
        { pageId, link: null, is_published: true, scheduled_publish_time: null, status_type: 'added_photos' },
      );
      return reply.send({ id: photoId, post_id: postId });
    },
  });
}
