// TikTok's contract: Login Kit v2 for connecting, the Content Posting API (asynchronous) for posts.
import { z } from 'zod';
import type { MediaRules } from '../contract.ts';
import { defineNetwork } from '../contract.ts';
import { postText, ref } from '../fields.ts';
import { PLATFORM_NAMES } from '../slugs.ts';
import type { AdapterFactory, Capabilities } from '../types.ts';
import { GB, MB } from '../units.ts';
import { fetchTikTokAccount } from './account.ts';
import { tiktokAuth } from './auth.ts';
import { tiktokEngagement } from './engagement.ts';
import { TIKTOK_HOSTS, tiktokContext } from './context.ts';
import { TIKTOK_PRIVACY } from './privacy.ts';
import { tiktokPublisher, TIKTOK_STEPS } from './publish.ts';

export const TIKTOK_CAPABILITIES: Capabilities = {
  postTypes: ['image', 'carousel', 'video'],
  // The video caption; TikTok counts UTF-16 code units ("runes" in its docs).
  text: { max: 2200, unit: 'utf16' },
  asyncProcessing: true,
};

const media: MediaRules = {
  imageFormats: ['jpeg', 'webp'],
  maxImageBytes: 20 * MB,
  carousel: { min: 2, max: 35 },
  videoFormats: ['mp4', 'mov', 'webm'],
  maxVideoBytes: 4 * GB,
  videoSeconds: { min: 3, max: 600 },
  preferredImage: { width: 1080, height: 1920 },
};

export const tiktokAdapter: AdapterFactory = (deps) => {
  const ctx = tiktokContext(deps);
  return {
    platform: 'tiktok',
    displayName: PLATFORM_NAMES.tiktok,
    capabilities: TIKTOK_CAPABILITIES,
    auth: tiktokAuth(ctx),
    configured: ctx.configured,
    fetchAccount: (tokens) => fetchTikTokAccount(ctx, tokens),
    publisher: tiktokPublisher(ctx),
    engagement: tiktokEngagement(ctx),
  };
};

export { TIKTOK_PRIVACY };

const override = z.object({
  tiktok_text: postText().optional(),
  tiktok_title: postText().optional(),
  tiktok_image_id: ref.optional(),
  tiktok_image_url: ref.optional(),
  privacy_level: z.enum(TIKTOK_PRIVACY).optional(),
  disable_comment: z.boolean().optional(),
  auto_add_music: z.boolean().optional(),
  brand_content_toggle: z.boolean().optional(),
  brand_organic_toggle: z.boolean().optional(),
  cover_index: z.number().int().min(0).optional(),
});

const OPTIONS = [
  'privacy_level',
  'disable_comment',
  'auto_add_music',
  'brand_content_toggle',
  'brand_organic_toggle',
  'cover_index',
] as const;

export const network = defineNetwork({
  slug: 'tiktok',
  displayName: PLATFORM_NAMES.tiktok,
  aliases: ['tik tok'],
  authKind: 'oauth2',
  operatorSettings: {
    AUDITED: 'unset: TikTok has not audited the app, so every post is sent SELF_ONLY (private)',
    MEDIA_DOMAIN_VERIFIED:
      "unset: the media URLs' domain is not verified for the app, so photo posts and PULL_FROM_URL videos are refused",
  },
  capabilities: TIKTOK_CAPABILITIES,
  media,
  fields: {
    tiktok_title: {
      max: 90,
      unit: 'utf16',
      tooLong: (n) => `Max TikTok Business photo title length is 90 UTF-16 code units. Received ${n} in tiktok_title.`,
    },
  },
  override,
  mediaFields: { pairs: [['tiktok_image_id', 'tiktok_image_url']] },
  // The privacy level the post went out with: the body's, or the most public one creator_info offered.
  resultPost: {
    shape: { privacy_level: z.enum(TIKTOK_PRIVACY) },
    fromJournal: (steps) => {
      const level = steps[TIKTOK_STEPS.privacyLevel];
      return level && (TIKTOK_PRIVACY as readonly string[]).includes(level) ? { privacy_level: level } : {};
    },
  },
  hosts: TIKTOK_HOSTS,
  adapter: tiktokAdapter,
  plan({ postType, o, base, caption, limit, requireMedia, media: mediaOf, invalid, target }) {
    const text = o.tiktok_text ?? base;
    caption(text, o.tiktok_text !== undefined ? 'tiktok_text' : 'default_text');
    if (postType !== 'video') limit(o.tiktok_title, 'tiktok_title');
    const media = mediaOf([
      [o.tiktok_image_id, ['tiktok', 'tiktok_image_id']],
      [o.tiktok_image_url, ['tiktok', 'tiktok_image_url']],
    ]);
    requireMedia(media);
    if (o.cover_index !== undefined && o.cover_index >= Math.max(media.length, 1))
      throw invalid(`tiktok.cover_index ${o.cover_index} is out of range for ${media.length} image(s).`);
    const options = Object.fromEntries(OPTIONS.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
    target({ text, ...(o.tiktok_title && postType !== 'video' ? { title: o.tiktok_title } : {}), media, options });
  },
});
