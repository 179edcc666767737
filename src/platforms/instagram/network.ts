// Instagram's contract: professional accounts through the Instagram API with Instagram Login.
import { z } from 'zod';
import type { MediaRules } from '../contract.ts';
import { defineNetwork } from '../contract.ts';
import { postText, ref } from '../fields.ts';
import { PLATFORM_NAMES } from '../slugs.ts';
import type { AdapterFactory, Capabilities } from '../types.ts';
import { MB } from '../units.ts';
import { instagramAccount } from './account.ts';
import { instagramAuth } from './auth.ts';
import { INSTAGRAM_COMMENT_LIMIT, instagramEngagement } from './engagement.ts';
import { DEFAULT_URLS } from './config.ts';
import { instagramPublisher } from './publish.ts';

const capabilities: Capabilities = {
  // No text-only posts: every Instagram post carries media.
  postTypes: ['image', 'carousel', 'video'],
  text: { max: 2200, unit: 'utf16' },
  // Media containers are processed (IN_PROGRESS → FINISHED) before they can be published.
  asyncProcessing: true,
};

// JPEG only (PNG is refused by the network); aspect 4:5 … 1.91:1.
const media: MediaRules = {
  imageFormats: ['jpeg'],
  maxImageBytes: 8 * MB,
  imageAspect: { min: 0.8, max: 1.91 },
  carousel: { min: 2, max: 10 },
  videoFormats: ['mp4', 'mov'],
  maxVideoBytes: 300 * MB,
  videoSeconds: { min: 3, max: 15 * 60 },
  preferredImage: { width: 1080, height: 1350 },
};

export const instagramAdapter: AdapterFactory = (deps) => ({
  platform: 'instagram',
  displayName: PLATFORM_NAMES.instagram,
  capabilities,
  auth: instagramAuth(deps),
  configured: Boolean(deps.config.clientId && deps.config.clientSecret),
  fetchAccount: instagramAccount(deps),
  publisher: instagramPublisher(deps),
  engagement: instagramEngagement(deps),
});

const override = z.object({
  instagram_text: postText().optional(),
  instagram_image_id: ref.optional(),
  instagram_image_url: ref.optional(),
});

export const network = defineNetwork({
  slug: 'instagram',
  displayName: PLATFORM_NAMES.instagram,
  aliases: ['insta', 'ig'],
  authKind: 'oauth2',
  capabilities,
  media,
  override,
  mediaFields: { pairs: [['instagram_image_id', 'instagram_image_url']] },
  firstComment: { limit: INSTAGRAM_COMMENT_LIMIT, form: 'comment' },
  hosts: DEFAULT_URLS,
  adapter: instagramAdapter,
  plan({ o, base, caption, requireMedia, media: mediaOf, target }) {
    const text = o.instagram_text ?? base;
    caption(text, o.instagram_text !== undefined ? 'instagram_text' : 'default_text');
    const media = mediaOf([
      [o.instagram_image_id, ['instagram', 'instagram_image_id']],
      [o.instagram_image_url, ['instagram', 'instagram_image_url']],
    ]);
    requireMedia(media);
    target({ text, media, options: {} });
  },
});
