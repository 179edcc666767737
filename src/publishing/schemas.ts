// The unified post body, one zod schema per route, shared by REST, OpenAPI and (later) the tool layer.
import { z } from 'zod';

const id = z.string().min(1).max(200);
const ids = z.array(id);
const pageMap = z.record(z.string(), z.string());
const isoTime = z.string().max(64);

export const linkedinOverride = z.object({
  linkedin_text: z.string().optional(),
  linkedin_image_id: z.string().optional(),
  linkedin_image_url: z.string().optional(),
  linkedin_page_ids: ids.optional(),
  post_to_personal: z.boolean().optional(),
  linkedin_page_texts: pageMap.optional(),
  linkedin_page_images: pageMap.optional(),
  visibility: z.enum(['PUBLIC', 'CONNECTIONS']).optional(),
  scheduled_time: isoTime.optional(),
  image_id: z.string().optional(),
  image_url: z.string().optional(),
  image_ids: ids.optional(),
  video_id: z.string().optional(),
  video_url: z.string().optional(),
  thumbnail_image_id: z.string().optional(),
  generate_thumbnail_from_content: z.boolean().optional(),
});

export const facebookOverride = z.object({
  facebook_page_ids: ids.optional(),
  facebook_page_texts: pageMap.optional(),
  facebook_page_images: pageMap.optional(),
  scheduled_time: isoTime.optional(),
});

export const instagramOverride = z.object({
  instagram_text: z.string().optional(),
  instagram_image_id: z.string().optional(),
  instagram_image_url: z.string().optional(),
  scheduled_time: isoTime.optional(),
});

export const threadsOverride = z.object({
  threads_text: z.string().min(1, 'threads_text must not be empty when set').optional(),
  threads_image_id: z.string().optional(),
  threads_image_url: z.string().optional(),
  scheduled_time: isoTime.optional(),
});

export const TIKTOK_PRIVACY = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;

export const tiktokOverride = z.object({
  tiktok_text: z.string().optional(),
  tiktok_title: z.string().optional(),
  tiktok_image_id: z.string().optional(),
  tiktok_image_url: z.string().optional(),
  scheduled_time: isoTime.optional(),
  privacy_level: z.enum(TIKTOK_PRIVACY).optional(),
  disable_comment: z.boolean().optional(),
  auto_add_music: z.boolean().optional(),
  brand_content_toggle: z.boolean().optional(),
  brand_organic_toggle: z.boolean().optional(),
  cover_index: z.number().int().min(0).optional(),
});

export const youtubeOverride = z.object({
  youtube_title: z.string().optional(),
  youtube_description: z.string().optional(),
  youtube_playlist_id: z.string().optional(),
  thumbnail_image_id: z.string().optional(),
  generate_thumbnail_from_content: z.boolean().optional(),
  scheduled_time: isoTime.optional(),
});

export const pinterestOverride = z.object({
  board_id: z.string().optional(),
  pinterestBoardId: z.string().optional(),
  pinterest_text: z.string().optional(),
  pinterest_description: z.string().optional(),
  pinterest_image_id: z.string().optional(),
  scheduled_time: isoTime.optional(),
});

const common = {
  platforms: z.array(z.string()),
  default_text: z.string().max(3000).optional(),
  visibility: z.enum(['PUBLIC', 'CONNECTIONS']).optional(),
  scheduled_time: isoTime.optional(),
  draft: z.boolean().optional(),
  draft_platforms: z.array(z.string()).optional(),
  board_id: z.string().optional(),
  pinterestBoardId: z.string().optional(),
  linkedin: linkedinOverride.optional(),
  facebook: facebookOverride.optional(),
  instagram: instagramOverride.optional(),
  threads: threadsOverride.optional(),
  tiktok: tiktokOverride.optional(),
  youtube: youtubeOverride.optional(),
  pinterest: pinterestOverride.optional(),
};

export const textPostBody = z.object({ ...common, default_text: z.string().min(1).max(3000) });
export const imagePostBody = z.object({
  ...common,
  default_image_id: z.string().optional(),
  default_image_url: z.string().optional(),
  linkedin_image: z.string().optional(),
});
export const carouselPostBody = z.object({ ...common, image_ids: z.array(z.string()).min(2).max(20) });
export const videoPostBody = z.object({ ...common, video_id: z.string().optional(), video_url: z.string().optional() });

export type PostBody = z.infer<typeof imagePostBody> & Partial<z.infer<typeof carouselPostBody>> & Partial<z.infer<typeof videoPostBody>>;

export const POST_BODIES = { text: textPostBody, image: imagePostBody, carousel: carouselPostBody, video: videoPostBody } as const;
