// From a unified post body to one planned target per network and destination, validated before
// anything is sent. Network-neutral: what each network needs is in rules.ts and the adapters' capabilities.
import type { Platform } from '../auth/scopes.ts';
import { isPlatform, PLATFORM_NAMES, PLATFORMS } from '../auth/scopes.ts';
import { AppError } from '../errors.ts';
import type { PostType, PublishDestination } from '../platforms/publishing.ts';
import type { TextLimit } from '../platforms/types.ts';
import { FIELD_LIMITS, ROUTE_PLATFORMS } from './rules.ts';
import { hasVisibleText, type PostBody } from './schemas.ts';
import { countText } from './text.ts';

/** Where in the body a value came from, e.g. ['linkedin', 'linkedin_image_url'] (for error `loc`s). */
export type FieldPath = (string | number)[];

/** A media reference as the body gave it: a Herald media id or a URL still to import, and its field. */
export type MediaRef = ({ id: string } | { url: string }) & { field?: FieldPath };

export interface PlannedTarget {
  platform: Platform;
  destination?: PublishDestination;
  text: string;
  title?: string;
  description?: string;
  media: MediaRef[];
  thumbnail?: MediaRef;
  visibility?: 'PUBLIC' | 'CONNECTIONS';
  options: Record<string, unknown>;
  draft: boolean;
  scheduledTime?: string;
}


const invalid = (message: string) => new AppError('validation', message);

export function assertLength(platform: Platform | string, text: string | undefined, limit: TextLimit, field: string): void {
  if (text === undefined) return;
  const n = countText(text, limit.unit);
  if (n > limit.max) {
    if (field === 'tiktok_title') {
      throw invalid(`Max TikTok Business photo title length is ${limit.max} UTF-16 code units. Received ${n} in tiktok_title.`);
    }
    throw invalid(`Max text character limit for ${platform} is ${limit.max}. Received ${n} characters in ${field}.`);
  }
  const bytes = limit.maxBytes === undefined ? 0 : countText(text, 'bytes');
  if (limit.maxBytes !== undefined && bytes > limit.maxBytes) {
    throw invalid(`Max text size for ${platform} is ${limit.maxBytes} UTF-8 bytes. Received ${bytes} bytes in ${field}.`);
  }
}

/** 400s of the interface: unknown platform, wrong route, empty list, draft_platforms not a subset. */
export function parseRoutePlatforms(postType: PostType, body: PostBody): { platforms: Platform[]; drafts: Set<Platform> } {
  const raw = body.platforms.flatMap((p) => p.split(',')).map((p) => p.trim().toLowerCase()).filter(Boolean);
  if (!raw.length) throw new AppError('bad_request', 'platforms must have at least one platform');
  for (const p of raw) {
    if (!isPlatform(p)) throw new AppError('bad_request', `Invalid or unsupported platform: '${p}'. Supported: ${PLATFORMS.join(', ')}`);
    if (!ROUTE_PLATFORMS[postType].includes(p)) throw new AppError('bad_request', `This platform does not support ${postType} posting.`);
  }
  const platforms = [...new Set(raw)] as Platform[];
  const draftRaw = (body.draft_platforms ?? []).map((p) => p.trim().toLowerCase());
  const notIn = draftRaw.filter((p) => !platforms.includes(p as Platform));
  if (notIn.length) throw new AppError('bad_request', `draft_platforms must be a subset of platforms. Invalid: ${notIn.join(', ')}.`);
  const drafts = new Set<Platform>(body.draft ? platforms : (draftRaw as Platform[]));
  return { platforms, drafts };
}

const ref = (value: string | undefined, field: FieldPath): MediaRef | undefined =>
  value === undefined || value === '' ? undefined : /^https?:\/\//i.test(value) ? { url: value, field } : { id: value, field };

/** A media field of an override object: its value and where it sits in the body. */
type Own = readonly [value: string | undefined, field: FieldPath];

function imageFor(postType: PostType, body: PostBody, own: Own[]): MediaRef[] {
  if (postType === 'carousel') return (body.image_ids ?? []).map((id, i) => ({ id, field: ['image_ids', i] }));
  if (postType === 'video') {
    const v = ref(body.video_id, ['video_id']) ?? ref(body.video_url, ['video_url']);
    return v ? [v] : [];
  }
  if (postType === 'image') {
    const r = own.map(([value, field]) => ref(value, field)).find(Boolean) ?? ref(body.default_image_id, ['default_image_id']) ?? ref(body.default_image_url, ['default_image_url']);
    return r ? [r] : [];
  }
  return [];
}

export interface PlanInput {
  postType: PostType;
  body: PostBody;
  /** The caption limit of each network (from the adapters' capabilities). */
  textLimit: (p: Platform) => TextLimit | undefined;
}

export function planTargets({ postType, body, textLimit }: PlanInput): PlannedTarget[] {
  const { platforms, drafts } = parseRoutePlatforms(postType, body);
  const base = body.default_text ?? '';
  const targets: PlannedTarget[] = [];
  const requireMedia = (p: Platform, media: MediaRef[]) => {
    if ((postType === 'image' || postType === 'video') && media.length === 0) {
      throw invalid(postType === 'image' ? `An image is required for ${PLATFORM_NAMES[p]}: set default_image_id or default_image_url.` : 'A video is required: set video_id or video_url.');
    }
  };
  const caption = (p: Platform, text: string, field: string) => {
    // The text route posts nothing but text: an override that empties it is as bad as no default_text.
    if (postType === 'text' && !hasVisibleText(text)) throw invalid(`A text post needs visible text: ${field} for ${PLATFORM_NAMES[p]} is empty.`);
    const limit = textLimit(p);
    if (limit) assertLength(p, text, limit, field);
  };
  for (const p of platforms) {
    const draft = drafts.has(p);
    const scheduled = (body[p as keyof PostBody] as { scheduled_time?: string } | undefined)?.scheduled_time ?? body.scheduled_time;
    const common = { draft, ...(scheduled ? { scheduledTime: scheduled } : {}) };
    switch (p) {
      case 'linkedin': {
        const o = body.linkedin ?? {};
        const text = o.linkedin_text ?? base;
        const lo = (f: string): FieldPath => ['linkedin', f];
        const media =
          postType === 'carousel' && o.image_ids?.length
            ? o.image_ids.map((id, i) => ({ id, field: ['linkedin', 'image_ids', i] }))
            : imageFor(postType, body, [[o.linkedin_image_id, lo('linkedin_image_id')], [o.linkedin_image_url, lo('linkedin_image_url')], [o.image_id, lo('image_id')], [o.image_url, lo('image_url')], [body.linkedin_image, ['linkedin_image']]]);
        if (postType === 'video' && (o.video_id || o.video_url)) media.splice(0, media.length, (o.video_id ? ref(o.video_id, lo('video_id')) : ref(o.video_url, lo('video_url')))!);
        const visibility = o.visibility ?? body.visibility;
        const shared = { platform: p, media, ...(visibility ? { visibility } : {}), options: {}, ...common, ...(o.thumbnail_image_id ? { thumbnail: { id: o.thumbnail_image_id, field: lo('thumbnail_image_id') } } : {}) };
        caption(p, text, o.linkedin_text !== undefined ? 'linkedin_text' : 'default_text');
        const pages = o.linkedin_page_ids ?? [];
        if (!pages.length || o.post_to_personal) {
          requireMedia(p, media);
          targets.push({ ...shared, text, destination: { kind: 'personal', id: 'me' } });
        }
        for (const page of pages) {
          const pageText = o.linkedin_page_texts?.[page] ?? text;
          if (o.linkedin_page_texts?.[page] !== undefined) caption(p, pageText, `linkedin_page_texts[${page}]`);
          const pageImage = ref(o.linkedin_page_images?.[page], lo('linkedin_page_images').concat(page));
          const pageMedia = postType === 'image' && pageImage ? [pageImage] : media;
          requireMedia(p, pageMedia);
          targets.push({ ...shared, media: pageMedia, text: pageText, destination: { kind: 'organization', id: page } });
        }
        break;
      }
      case 'facebook': {
        const o = body.facebook ?? {};
        const pages = o.facebook_page_ids ?? [];
        if (!pages.length) throw invalid('facebook.facebook_page_ids is required: Facebook posts go to Pages. Find Page ids with GET /unified/user-profiles/.');
        caption(p, base, 'default_text');
        for (const page of pages) {
          const text = o.facebook_page_texts?.[page] ?? base;
          if (o.facebook_page_texts?.[page] !== undefined) caption(p, text, `facebook_page_texts[${page}]`);
          const pageImage = ref(o.facebook_page_images?.[page], ['facebook', 'facebook_page_images', page]);
          const media = postType === 'image' && pageImage ? [pageImage] : imageFor(postType, body, []);
          requireMedia(p, media);
          targets.push({ platform: p, text, media, destination: { kind: 'page', id: page }, options: {}, ...common });
        }
        break;
      }
      case 'instagram': {
        const o = body.instagram ?? {};
        const text = o.instagram_text ?? base;
        caption(p, text, o.instagram_text !== undefined ? 'instagram_text' : 'default_text');
        const media = imageFor(postType, body, [[o.instagram_image_id, ['instagram', 'instagram_image_id']], [o.instagram_image_url, ['instagram', 'instagram_image_url']]]);
        requireMedia(p, media);
        targets.push({ platform: p, text, media, options: {}, ...common });
        break;
      }
      case 'threads': {
        const o = body.threads ?? {};
        const text = o.threads_text ?? base;
        caption(p, text, o.threads_text !== undefined ? 'threads_text' : 'default_text');
        const media = imageFor(postType, body, [[o.threads_image_id, ['threads', 'threads_image_id']], [o.threads_image_url, ['threads', 'threads_image_url']]]);
        requireMedia(p, media);
        targets.push({ platform: p, text, media, options: {}, ...common });
        break;
      }
      case 'tiktok': {
        const o = body.tiktok ?? {};
        const text = o.tiktok_text ?? base;
        caption(p, text, o.tiktok_text !== undefined ? 'tiktok_text' : 'default_text');
        if (postType !== 'video') assertLength(p, o.tiktok_title, FIELD_LIMITS.tiktok_title!, 'tiktok_title');
        const media = imageFor(postType, body, [[o.tiktok_image_id, ['tiktok', 'tiktok_image_id']], [o.tiktok_image_url, ['tiktok', 'tiktok_image_url']]]);
        requireMedia(p, media);
        if (o.cover_index !== undefined && o.cover_index >= Math.max(media.length, 1)) throw invalid(`tiktok.cover_index ${o.cover_index} is out of range for ${media.length} image(s).`);
        const options = Object.fromEntries(
          (['privacy_level', 'disable_comment', 'auto_add_music', 'brand_content_toggle', 'brand_organic_toggle', 'cover_index'] as const).filter((k) => o[k] !== undefined).map((k) => [k, o[k]]),
        );
        targets.push({ platform: p, text, ...(o.tiktok_title && postType !== 'video' ? { title: o.tiktok_title } : {}), media, options, ...common });
        break;
      }
      case 'youtube': {
        const o = body.youtube ?? {};
        const title = o.youtube_title ?? body.default_text;
        if (!title?.trim()) throw invalid('YouTube requires a title. Set default_text or youtube.youtube_title.');
        assertLength(p, title, FIELD_LIMITS.youtube_title!, o.youtube_title !== undefined ? 'youtube_title' : 'default_text');
        const description = o.youtube_description ?? base;
        assertLength(p, description, FIELD_LIMITS.youtube_description!, o.youtube_description !== undefined ? 'youtube_description' : 'default_text');
        const media = imageFor(postType, body, []);
        requireMedia(p, media);
        const thumb = o.thumbnail_image_id ? { thumbnail: { id: o.thumbnail_image_id, field: ['youtube', 'thumbnail_image_id'] } } : {};
        targets.push({ platform: p, text: description, title, description, media, options: o.youtube_playlist_id ? { playlist_id: o.youtube_playlist_id } : {}, ...thumb, ...common });
        break;
      }
      case 'pinterest': {
        const o = body.pinterest ?? {};
        const board = o.board_id ?? o.pinterestBoardId ?? body.board_id ?? body.pinterestBoardId;
        if (!board) throw new AppError('validation', 'Pinterest pin requires pinterest.board_id');
        if (postType === 'video' && !body.video_id) throw invalid('Pinterest requires video_id: upload the video first (POST /media/upload) and pass its media id.');
        assertLength(p, o.pinterest_text, FIELD_LIMITS.pinterest_text!, 'pinterest_text');
        const description = o.pinterest_description ?? base;
        assertLength(p, description, FIELD_LIMITS.pinterest_description!, o.pinterest_description !== undefined ? 'pinterest_description' : 'default_text');
        const media = imageFor(postType, body, [[o.pinterest_image_id, ['pinterest', 'pinterest_image_id']]]);
        requireMedia(p, media);
        targets.push({ platform: p, text: description, ...(o.pinterest_text ? { title: o.pinterest_text } : {}), description, media, destination: { kind: 'board', id: board }, options: {}, ...common });
        break;
      }
      case 'bluesky': {
        caption(p, base, 'default_text');
        const media = imageFor(postType, body, []);
        requireMedia(p, media);
        targets.push({ platform: p, text: base, media, options: {}, ...common });
        break;
      }
    }
  }
  return targets;
}
