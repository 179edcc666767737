// The unified post body, one zod schema per route, shared by REST, OpenAPI and (later) the tool layer.
// Every string, list and map is capped here, so no body Herald stores or lists can grow without bound;
// each network's own text limits are checked later (plan.ts) with the message the interface gives.
import { z } from 'zod';
import { isRealDateTime } from '../date-time.ts';

/** Above every network's caption limit (Facebook: 63,206); the networks' own limits are checked in plan.ts. */
const MAX_TEXT = 65_536;
/** A media id, or the https URL a media field may hold instead. */
const MAX_REF = 4096;
/** Pages, organizations or media ids one list or map may name. */
const MAX_ITEMS = 100;

const id = z.string().min(1).max(200);
/** An optional name or id where an empty string has always meant "none". */
const name = z.string().max(200);
const ids = z.array(id).max(MAX_ITEMS);
const ref = z.string().max(MAX_REF);

// Anything but white space, invisible format characters (zero-width space and joiners, BOM, Hangul
// fillers…) and control characters: a caption of only those shows up as an empty post.
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}]/u;
export const hasVisibleText = (s: string): boolean => VISIBLE.test(s);

/** A text field: when given (and not empty) it must show something. */
export const postText = (max = MAX_TEXT) =>
  z.string().max(max).refine((s) => s === '' || hasVisibleText(s), 'Text must contain visible characters: white space and zero-width characters alone are not text.');

/** The one date-time schema of every route that takes a scheduled_time (checked against the calendar). */
export const dateTime = z
  .string()
  .max(64)
  .refine(isRealDateTime, 'Input should be an ISO 8601 date-time with a UTC offset that exists on the calendar (e.g. 2026-01-31T09:00:00Z or 2026-01-31T10:00:00+01:00).')
  .describe('ISO 8601 date-time with a UTC offset, e.g. 2026-01-31T09:00:00Z');

const fewPages = [(o: Record<string, unknown>) => Object.keys(o).length <= MAX_ITEMS, `At most ${MAX_ITEMS} pages.`] as const;
const pageTexts = z.record(id, postText()).refine(...fewPages);
const pageImages = z.record(id, ref).refine(...fewPages);

export const linkedinOverride = z.object({
  linkedin_text: postText().optional(),
  linkedin_image_id: ref.optional(),
  linkedin_image_url: ref.optional(),
  linkedin_page_ids: ids.optional(),
  post_to_personal: z.boolean().optional(),
  linkedin_page_texts: pageTexts.optional(),
  linkedin_page_images: pageImages.optional(),
  visibility: z.enum(['PUBLIC', 'CONNECTIONS']).optional(),
  scheduled_time: dateTime.optional(),
  image_id: ref.optional(),
  image_url: ref.optional(),
  image_ids: ids.optional(),
  video_id: ref.optional(),
  video_url: ref.optional(),
  thumbnail_image_id: name.optional(),
  generate_thumbnail_from_content: z.boolean().optional(),
});

export const facebookOverride = z.object({
  facebook_page_ids: ids.optional(),
  facebook_page_texts: pageTexts.optional(),
  facebook_page_images: pageImages.optional(),
  scheduled_time: dateTime.optional(),
});

export const instagramOverride = z.object({
  instagram_text: postText().optional(),
  instagram_image_id: ref.optional(),
  instagram_image_url: ref.optional(),
  scheduled_time: dateTime.optional(),
});

export const threadsOverride = z.object({
  threads_text: postText().min(1, 'threads_text must not be empty when set').optional(),
  threads_image_id: ref.optional(),
  threads_image_url: ref.optional(),
  scheduled_time: dateTime.optional(),
});

export const TIKTOK_PRIVACY = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;

export const tiktokOverride = z.object({
  tiktok_text: postText().optional(),
  tiktok_title: postText().optional(),
  tiktok_image_id: ref.optional(),
  tiktok_image_url: ref.optional(),
  scheduled_time: dateTime.optional(),
  privacy_level: z.enum(TIKTOK_PRIVACY).optional(),
  disable_comment: z.boolean().optional(),
  auto_add_music: z.boolean().optional(),
  brand_content_toggle: z.boolean().optional(),
  brand_organic_toggle: z.boolean().optional(),
  cover_index: z.number().int().min(0).optional(),
});

export const youtubeOverride = z.object({
  youtube_title: postText().optional(),
  youtube_description: postText().optional(),
  youtube_playlist_id: name.optional(),
  thumbnail_image_id: name.optional(),
  generate_thumbnail_from_content: z.boolean().optional(),
  scheduled_time: dateTime.optional(),
});

export const pinterestOverride = z.object({
  board_id: name.optional(),
  pinterestBoardId: name.optional(),
  pinterest_text: postText().optional(),
  pinterest_description: postText().optional(),
  pinterest_image_id: ref.optional(),
  scheduled_time: dateTime.optional(),
});

const common = {
  platforms: z.array(z.string().max(200)).max(20),
  default_text: postText(3000).optional(),
  visibility: z.enum(['PUBLIC', 'CONNECTIONS']).optional(),
  scheduled_time: dateTime.optional(),
  draft: z.boolean().optional(),
  draft_platforms: z.array(z.string().max(200)).max(20).optional(),
  board_id: name.optional(),
  pinterestBoardId: name.optional(),
  linkedin: linkedinOverride.optional(),
  facebook: facebookOverride.optional(),
  instagram: instagramOverride.optional(),
  threads: threadsOverride.optional(),
  tiktok: tiktokOverride.optional(),
  youtube: youtubeOverride.optional(),
  pinterest: pinterestOverride.optional(),
};

export const textPostBody = z.object({ ...common, default_text: postText(3000).min(1) });
export const imagePostBody = z.object({
  ...common,
  default_image_id: ref.optional(),
  default_image_url: ref.optional(),
  linkedin_image: ref.optional(),
});
export const carouselPostBody = z.object({ ...common, image_ids: z.array(id).min(2).max(20) });
export const videoPostBody = z.object({ ...common, video_id: ref.optional(), video_url: ref.optional() });

export type PostBody = z.infer<typeof imagePostBody> & Partial<z.infer<typeof carouselPostBody>> & Partial<z.infer<typeof videoPostBody>>;

export const POST_BODIES = { text: textPostBody, image: imagePostBody, carousel: carouselPostBody, video: videoPostBody } as const;
