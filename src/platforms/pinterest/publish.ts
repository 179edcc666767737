// Pinterest publishing: POST /v5/pins on the destination board, with the image URL (Pinterest fetches it), 2–5
// image URLs for a carousel, or an uploaded video (media.ts) once its processing succeeded. POST /v5/pins has no
// idempotency key, so a create whose answer was lost is looked for among the account's newest pins before retrying.
import type { Journal, PublishMedia, PublishOutcome, PublishRequest, Publisher } from '../publishing.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { PinterestContext } from './context.ts';
import { readApi } from './errors.ts';
import { mediaStatus, registerVideo, uploadVideo } from './media.ts';
import type { MediaStatus } from './media.ts';

type Obj = Record<string, unknown>;

export const PINTEREST_STEPS = {
  mediaId: 'pinterest.media_id',
  /** When a pin create was last sent (ISO time): its answer may have been lost, so look before creating again. */
  pinRequested: 'pinterest.pin_requested',
  pinId: 'pinterest.pin_id',
} as const;

/** How far back (ms) before the recorded request a matching pin still counts: clocks of Herald and Pinterest differ. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** The newest pins looked through for a lost create; it is at most minutes old. */
const LOOKBACK_PINS = 25;

const invalid = (message: string): PlatformError => new PlatformError('pinterest', 'invalid_content', message);
export const pinUrl = (ctx: PinterestContext, id: string): string => `${ctx.webBase}/pin/${encodeURIComponent(id)}/`;
const published = (ctx: PinterestContext, id: string): PublishOutcome => ({
  state: 'published',
  postId: id,
  permalink: pinUrl(ctx, id),
});

function boardOf(req: PublishRequest): string {
  const d = req.destination;
  if (d?.kind !== 'board' || !d.id) throw invalid('A Pinterest pin needs a destination board');
  return d.id;
}

/** The pin's fields besides media_source. The pin title is the title; the caption is the description. */
function pinFields(req: PublishRequest): Obj {
  const description = req.description ?? req.text;
  const fields: Obj = { board_id: boardOf(req) };
  if (req.title) fields.title = req.title;
  if (description) fields.description = description;
  if (typeof req.options.link === 'string' && req.options.link) fields.link = req.options.link;
  return fields;
}

function imageSource(req: PublishRequest): Obj {
  if (req.media.some((m) => m.kind !== 'image')) throw invalid('A Pinterest image pin takes images only');
  if (req.postType === 'image') {
    const image = req.media[0];
    if (req.media.length !== 1 || !image) throw invalid('A Pinterest image pin takes exactly one image');
    return { source_type: 'image_url', url: image.url };
  }
  if (req.media.length < 2 || req.media.length > 5)
    throw invalid(`A Pinterest carousel takes 2 to 5 images, not ${req.media.length}`);
  return { source_type: 'multiple_image_urls', items: req.media.map((m) => ({ url: m.url })) };
}

/** A video pin needs a cover: the thumbnail when there is one, else a frame of the video (seconds in). */
function videoSource(req: PublishRequest, mediaId: string): Obj {
  const source: Obj = { source_type: 'video_id', media_id: mediaId };
  if (req.thumbnail) source.cover_image_url = req.thumbnail.url;
  else
    source.cover_image_key_frame_time =
      typeof req.options.cover_key_frame_time === 'number' ? req.options.cover_key_frame_time : 0;
  return source;
}

function videoOf(req: PublishRequest): PublishMedia {
  const video = req.media[0];
  if (req.media.length !== 1 || !video || video.kind !== 'video')
    throw invalid('A Pinterest video pin takes exactly one video');
  return video;
}

const same = (a: unknown, b: unknown): boolean => (a ?? null) === (b ?? null);

/** A pin of the account that this create made, among its newest: same board, title and description, made after it. */
async function findCreated(
  ctx: PinterestContext,
  tokens: TokenSet,
  fields: Obj,
  requestedAt: string,
): Promise<string | null> {
  const res = await ctx.deps.http.request('pinterest', {
    url: `${ctx.apiBase}/v5/pins`,
    query: { page_size: LOOKBACK_PINS },
    headers: bearer(tokens.accessToken),
  });
  const items = readApi(res, 'pin list').items;
  const since = Date.parse(requestedAt) - CLOCK_SKEW_MS;
  for (const raw of Array.isArray(items) ? items : []) {
    const pin = raw && typeof raw === 'object' ? (raw as Obj) : {};
    const created = typeof pin.created_at === 'string' ? Date.parse(pin.created_at) : NaN;
    if (typeof pin.id !== 'string' || !(created >= since)) continue;
    if (
      same(pin.board_id, fields.board_id) &&
      same(pin.title, fields.title) &&
      same(pin.description, fields.description)
    )
      return pin.id;
  }
  return null;
}

async function createPin(
  ctx: PinterestContext,
  tokens: TokenSet,
  journal: Journal,
  fields: Obj,
  source: Obj,
): Promise<PublishOutcome> {
  const requested = journal.steps[PINTEREST_STEPS.pinRequested];
  if (requested) {
    const found = await findCreated(ctx, tokens, fields, requested);
    if (found) {
      await journal.record(PINTEREST_STEPS.pinId, found);
      return published(ctx, found);
    }
  }
  await journal.record(PINTEREST_STEPS.pinRequested, ctx.deps.clock().toISOString());
  const res = await ctx.deps.http.request('pinterest', {
    method: 'POST',
    url: `${ctx.apiBase}/v5/pins`,
    headers: bearer(tokens.accessToken),
    json: { ...fields, media_source: source },
  });
  const pin = readApi(res, 'pin create');
  const id = typeof pin.id === 'string' ? pin.id : '';
  if (!id)
    throw new PlatformError('pinterest', 'transient', 'Pinterest created a pin without an id', { status: res.status });
  await journal.record(PINTEREST_STEPS.pinId, id);
  return published(ctx, id);
}

/**
 * The journaled upload, or a new one. A journaled media still `registered` never got its bytes (the upload URL is
 * not kept and expires), so it is abandoned for a fresh registration, which posts nothing.
 */
async function ensureVideo(
  ctx: PinterestContext,
  tokens: TokenSet,
  req: PublishRequest,
  journal: Journal,
): Promise<{ mediaId: string; status: MediaStatus }> {
  const video = videoOf(req);
  const known = journal.steps[PINTEREST_STEPS.mediaId];
  if (known) {
    const status = await mediaStatus(ctx, tokens, known).catch((err: unknown) => {
      if (err instanceof PlatformError && err.kind === 'not_found') return 'registered' as const;
      throw err;
    });
    if (status !== 'registered') return { mediaId: known, status };
  }
  const reg = await registerVideo(ctx, tokens);
  await journal.record(PINTEREST_STEPS.mediaId, reg.mediaId);
  await uploadVideo(ctx, reg, video);
  return { mediaId: reg.mediaId, status: await mediaStatus(ctx, tokens, reg.mediaId) };
}

/** What a video's processing state means: pin it, wait, or give up. */
async function afterProcessing(
  ctx: PinterestContext,
  tokens: TokenSet,
  req: PublishRequest,
  journal: Journal,
  mediaId: string,
  status: MediaStatus,
): Promise<PublishOutcome> {
  if (status === 'failed')
    throw new PlatformError(
      'pinterest',
      'invalid_content',
      'Pinterest could not process the video (unsupported or corrupt file)',
      { code: 'media_failed' },
    );
  if (status !== 'succeeded') return { state: 'processing', handle: mediaId };
  return createPin(ctx, tokens, journal, pinFields(req), videoSource(req, mediaId));
}

export function pinterestPublisher(ctx: PinterestContext): Publisher {
  return {
    async publish(tokens, req, journal) {
      const done = journal.steps[PINTEREST_STEPS.pinId];
      if (done) return published(ctx, done);
      if (req.postType === 'text')
        throw new PlatformError('pinterest', 'unsupported', 'Pinterest has no text-only pins');
      const fields = pinFields(req);
      if (req.postType !== 'video') return createPin(ctx, tokens, journal, fields, imageSource(req));
      const { mediaId, status } = await ensureVideo(ctx, tokens, req, journal);
      return afterProcessing(ctx, tokens, req, journal, mediaId, status);
    },

    async checkStatus(tokens, handle, req, journal) {
      const done = journal.steps[PINTEREST_STEPS.pinId];
      if (done) return published(ctx, done);
      return afterProcessing(ctx, tokens, req, journal, handle, await mediaStatus(ctx, tokens, handle));
    },

    async reconcile(tokens, req, journal) {
      const id = journal.steps[PINTEREST_STEPS.pinId];
      if (id) {
        const res = await ctx.deps.http.request('pinterest', {
          url: `${ctx.apiBase}/v5/pins/${encodeURIComponent(id)}`,
          headers: bearer(tokens.accessToken),
        });
        if (res.status === 404) return null;
        readApi(res, 'pin read');
        return { postId: id, permalink: pinUrl(ctx, id) };
      }
      const requested = journal.steps[PINTEREST_STEPS.pinRequested];
      if (!requested) return null;
      const found = await findCreated(ctx, tokens, pinFields(req), requested);
      if (!found) return null;
      await journal.record(PINTEREST_STEPS.pinId, found);
      return { postId: found, permalink: pinUrl(ctx, found) };
    },
  };
}
