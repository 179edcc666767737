// Pins: POST /v5/pins (board_id of one of the user's boards; media_source image_url, image_base64,
// multiple_image_urls / multiple_image_base64 (2–5 images) or video_id with a cover), GET /v5/pins/{id},
// GET /v5/pins and DELETE /v5/pins/{id}.
import { createHash } from 'node:crypto';
import { assetsOf, findAsset } from '../core/accounts.ts';
import { metricsOf } from '../core/engagement.ts';
import { isObj, jsonBody, queryParams } from '../core/http.ts';
import type { Obj } from '../core/http.ts';
import { randomDigits } from '../core/ids.ts';
import { inspectUrl, sniff } from '../core/media.ts';
import { findObject, num, objectsOf, putPost, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import type { AccountRecord, JsonObject, ObjectRecord } from '../core/types.ts';
import { authed } from './api.ts';
import { pinError } from './errors.ts';

const WRITE_SCOPES = ['boards:read', 'boards:write', 'pins:read', 'pins:write'];
const LIMITS: Record<string, number> = { title: 100, description: 800, link: 2048, alt_text: 500 };
const URL_FORMATS = ['image/bmp', 'image/jpeg', 'image/png', 'image/tiff', 'image/gif', 'image/webp'];
const BASE64_FORMATS = ['image/jpeg', 'image/png'];
const SOURCE_TYPES = [
  'image_url',
  'image_base64',
  'multiple_image_urls',
  'multiple_image_base64',
  'video_id',
  'pin_url',
];

const invalid = (message: string): ErrorAnswer => pinError(400, 1, `Invalid request: ${message}`);

function images(seed: string): JsonObject {
  const hash = createHash('sha1').update(seed).digest('hex');
  const url = (size: string) =>
    `https://i.pinimg.com/${size}/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash.slice(4, 6)}/${hash}.jpg`;
  return {
    '150x150': { width: 150, height: 150, url: url('150x150') },
    '400x300': { width: 400, height: 300, url: url('400x300') },
    '600x': { width: 600, height: 900, url: url('600x') },
    '1200x': { width: 1200, height: 1800, url: url('1200x') },
  };
}

function imageUrlProblem(url: unknown, path: string): ErrorAnswer | null {
  const media = typeof url === 'string' ? inspectUrl(url) : null;
  if (!media) return invalid(`'${String(url)}' is not a 'uri' - '${path}'`);
  if (!media.reachable) return pinError(400, 1, `Unable to reach the URL: ${String(url)}`);
  if (media.corrupt || (media.mime !== null && !URL_FORMATS.includes(media.mime)))
    return pinError(400, 1, `Invalid image: the file at ${String(url)} is not a supported image`);
  return null;
}

function base64Problem(item: Obj, path: string): ErrorAnswer | null {
  const type = item.content_type;
  if (typeof type !== 'string' || !BASE64_FORMATS.includes(type))
    return invalid(`'${String(type)}' is not one of ['image/jpeg', 'image/png'] - '${path}.content_type'`);
  const data = typeof item.data === 'string' ? item.data : '';
  const bytes = /^[A-Za-z0-9+/=\s]+$/.test(data) ? Buffer.from(data, 'base64') : Buffer.alloc(0);
  if (bytes.length === 0 || sniff(bytes) !== type)
    return pinError(400, 1, `Invalid image data in '${path}.data': it must be base64 ${type} without a data: prefix`);
  return null;
}

type Source = { type: string; refs: string[]; media: JsonObject; creative: string } | ErrorAnswer;

function checkSource(call: Call, account: AccountRecord, source: unknown): Source {
  if (!isObj(source)) return invalid("'media_source' is a required property");
  const type = source.source_type;
  if (typeof type !== 'string' || !SOURCE_TYPES.includes(type))
    return invalid(`'${String(type)}' is not one of ${JSON.stringify(SOURCE_TYPES)} - 'media_source.source_type'`);
  if (type === 'image_url') {
    return (
      imageUrlProblem(source.url, 'media_source.url') ?? {
        type,
        refs: [String(source.url)],
        media: { media_type: 'image', images: images(String(source.url)) },
        creative: 'REGULAR',
      }
    );
  }
  if (type === 'image_base64') {
    return (
      base64Problem(source, 'media_source') ?? {
        type,
        refs: [`base64:${String(source.content_type)}`],
        media: { media_type: 'image', images: images(String(source.data)) },
        creative: 'REGULAR',
      }
    );
  }
  if (type === 'multiple_image_urls' || type === 'multiple_image_base64') {
    const items = source.items;
    if (!Array.isArray(items) || items.length < 2)
      return invalid(`the carousel ${JSON.stringify(items ?? [])} is too short (2 to 5 images) - 'media_source.items'`);
    if (items.length > 5) return invalid(`the carousel has ${items.length} items, more than 5 - 'media_source.items'`);
    for (const [i, item] of items.entries()) {
      const path = `media_source.items[${i}]`;
      if (!isObj(item)) return invalid(`items must be objects - '${path}'`);
      const problem =
        type === 'multiple_image_urls' ? imageUrlProblem(item.url, `${path}.url`) : base64Problem(item, path);
      if (problem) return problem;
    }
    const index = source.index ?? 0;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= items.length)
      return invalid(`${String(index)} is not a valid index - 'media_source.index'`);
    const refs = items.map((item, i) =>
      type === 'multiple_image_urls' && isObj(item) ? String(item.url) : `base64:${i}`,
    );
    return {
      type,
      refs,
      media: { media_type: 'multiple_images', items: refs.map((r) => ({ item_type: 'image', images: images(r) })) },
      creative: 'CAROUSEL',
    };
  }
  if (type === 'pin_url') return pinError(400, 1, 'media_source.source_type pin_url is not supported by the sandbox');
  const id = typeof source.media_id === 'string' ? source.media_id : '';
  const media = findObject(call, 'media', id);
  if (!media || media.accountId !== account.id) return pinError(404, 404, `Media upload ${id} not found.`);
  if (media.status !== 'succeeded')
    return pinError(400, 1, `Media upload ${id} is not ready: its status is ${text(media.status)}`);
  const hasCover =
    typeof source.cover_image_url === 'string' ||
    (typeof source.cover_image_content_type === 'string' && typeof source.cover_image_data === 'string') ||
    typeof source.cover_image_key_frame_time === 'number';
  if (!hasCover)
    return invalid(
      "a video pin needs a cover: cover_image_url or cover_image_content_type and cover_image_data, or cover_image_key_frame_time - 'media_source'",
    );
  const cover =
    typeof source.cover_image_url === 'string'
      ? source.cover_image_url
      : `https://i.pinimg.com/videos/thumbnails/originals/${id}.jpg`;
  return {
    type,
    refs: [id],
    media: {
      media_type: 'video',
      cover_image_url: cover,
      video_url: null,
      duration: 0,
      height: 1280,
      width: 720,
      images: images(id),
    },
    creative: 'VIDEO',
  };
}

/** The pin_metrics object of GET /v5/pins?pin_metrics=true (all figures lifetime; the 90-day ones the same here). */
export function pinMetrics(call: Call, pin: ObjectRecord): JsonObject {
  const m = metricsOf(call.slice, pin);
  return {
    '90d': { impression: m.impressions, pin_click: 0, clickthrough: 0 },
    lifetime_metrics: {
      impression: m.impressions,
      pin_click: 0,
      clickthrough: 0,
      reaction: m.likes,
      comment: m.comments,
    },
  };
}

function pageSize(raw: string | undefined): number | ErrorAnswer {
  const size = Number(raw ?? 25);
  if (!Number.isInteger(size) || size < 1 || size > 250)
    return pinError(400, 1, `Invalid page_size: ${raw ?? ''}. Must be between 1 and 250.`);
  return size;
}

/** One page of pins, newest first; the bookmark is opaque (here: the offset). */
export function pinPage(
  pins: ObjectRecord[],
  q: Record<string, string | undefined>,
): { page: ObjectRecord[]; bookmark: string | null } | ErrorAnswer {
  const size = pageSize(q.page_size);
  if (typeof size !== 'number') return size;
  const offset = q.bookmark ? Number(Buffer.from(q.bookmark, 'base64url').toString()) : 0;
  if (!Number.isInteger(offset) || offset < 0) return pinError(400, 1, 'Invalid bookmark.');
  // Newest first; pins made in the same instant in the reverse order they were made.
  const sorted = pins
    .map((pin, i) => ({ pin, i }))
    .sort((a, b) => Date.parse(b.pin.createdAt) - Date.parse(a.pin.createdAt) || b.i - a.i)
    .map((x) => x.pin);
  const next = offset + size < sorted.length ? Buffer.from(String(offset + size)).toString('base64url') : null;
  return { page: sorted.slice(offset, offset + size), bookmark: next };
}

export function pinView(call: Call, pin: ObjectRecord, owner: string, metrics: boolean): JsonObject {
  return {
    id: pin.id,
    created_at: pin.createdAt,
    link: pin.link ?? null,
    title: pin.title ?? null,
    description: pin.description ?? null,
    dominant_color: pin.dominant_color ?? null,
    alt_text: pin.alt_text ?? null,
    creative_type: pin.creative_type ?? 'REGULAR',
    board_id: pin.board_id ?? null,
    board_section_id: pin.board_section_id ?? null,
    board_owner: { username: owner },
    is_owner: true,
    media: pin.pinMedia ?? null,
    parent_pin_id: null,
    is_standard: true,
    has_been_promoted: false,
    note: '',
    pin_metrics: metrics ? pinMetrics(call, pin) : null,
  };
}

function fieldsProblem(body: Obj): ErrorAnswer | null {
  for (const [key, max] of Object.entries(LIMITS)) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return invalid(`${JSON.stringify(value)} is not of type 'string' - '${key}'`);
    if (value.length > max)
      return invalid(`'${value.slice(0, 20)}…' is too long (maximum ${max} characters) - '${key}'`);
  }
  if (typeof body.link === 'string' && !inspectUrl(body.link)) return invalid(`'${body.link}' is not a 'uri' - 'link'`);
  if (body.dominant_color !== undefined && !/^#[0-9A-Fa-f]{6}$/.test(String(body.dominant_color)))
    return invalid(`'${String(body.dominant_color)}' does not match '^#[0-9a-fA-F]{6}$' - 'dominant_color'`);
  return null;
}

export function registerPinterestPins(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/v5/pins',
    ops: ['publish'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = authed(req, reply, call, WRITE_SCOPES);
      if (!account) return reply;
      const body = jsonBody(req);
      if (!body) return sendAnswer(reply, invalid('the body must be a JSON object'));
      const boardId = body.board_id;
      if (boardId === undefined) return sendAnswer(reply, invalid("'board_id' is a required property"));
      if (typeof boardId !== 'string' || !/^\d+$/.test(boardId))
        return sendAnswer(reply, invalid(`'${String(boardId)}' does not match '^\\d+$' - 'board_id'`));
      const board = assetsOf(account, 'board').find((b) => b.id === boardId);
      if (!board) {
        const elsewhere = findAsset(call.slice, boardId);
        return sendAnswer(
          reply,
          elsewhere
            ? pinError(403, 7, 'Not authorized to access board or Pin.')
            : pinError(404, 40, 'Board not found.'),
        );
      }
      if (body.board_section_id !== undefined && body.board_section_id !== null)
        return sendAnswer(reply, pinError(404, 40, 'Board section not found.'));
      const problem = fieldsProblem(body);
      if (problem) return sendAnswer(reply, problem);
      const source = checkSource(call, account, body.media_source);
      if ('status' in source) return sendAnswer(reply, source);
      const id = randomDigits(18);
      const str = (k: string) => (typeof body[k] === 'string' ? body[k] : null);
      const pin = putPost(
        call,
        req,
        {
          id,
          accountId: account.id,
          author: account.id,
          text: str('description') ?? str('title') ?? '',
          media: source.refs,
          permalink: `${call.ctx.base('pinterest')}/pin/${id}/`,
        },
        {
          board_id: board.id,
          board_section_id: null,
          title: str('title'),
          description: str('description'),
          link: str('link'),
          alt_text: str('alt_text'),
          dominant_color: str('dominant_color'),
          creative_type: source.creative,
          source_type: source.type,
          pinMedia: source.media,
        },
      );
      board.fields.pin_count = num(board.fields.pin_count) + 1;
      account.fields.pin_count = num(account.fields.pin_count) + 1;
      return reply.code(201).send(pinView(call, pin, account.username, false));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v5/pins/:id',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = authed(req, reply, call, ['pins:read']);
      if (!account) return reply;
      const pin = findObject(call, 'posts', (req.params as { id: string }).id);
      if (!pin || pin.accountId !== account.id) return sendAnswer(reply, pinError(404, 50, 'Pin not found.'));
      return reply.send(pinView(call, pin, account.username, queryParams(req).pin_metrics === 'true'));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v5/pins',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = authed(req, reply, call, ['pins:read']);
      if (!account) return reply;
      const q = queryParams(req);
      const out = pinPage(objectsOf(call, 'posts', account.id), q);
      if ('status' in out) return sendAnswer(reply, out);
      return reply.send({
        items: out.page.map((p) => pinView(call, p, account.username, q.pin_metrics === 'true')),
        bookmark: out.bookmark,
      });
    },
  });

  addRoute(sim, {
    method: 'DELETE',
    url: '/v5/pins/:id',
    ops: ['delete'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = authed(req, reply, call, ['pins:write']);
      if (!account) return reply;
      const id = (req.params as { id: string }).id;
      const pin = findObject(call, 'posts', id);
      if (!pin || pin.accountId !== account.id) return sendAnswer(reply, pinError(404, 50, 'Pin not found.'));
      call.slice.posts.delete(id);
      const board = assetsOf(account, 'board').find((b) => b.id === pin.board_id);
      if (board) board.fields.pin_count = Math.max(0, num(board.fields.pin_count) - 1);
      return reply.code(204).send();
    },
  });
}
