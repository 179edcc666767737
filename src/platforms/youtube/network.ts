// YouTube's contract: Google OAuth 2.0, the YouTube Data API v3 for the channel and uploads.
import { z } from 'zod';
import type { MediaRules } from '../contract.ts';
import { defineNetwork } from '../contract.ts';
import { name, postText } from '../fields.ts';
import { PLATFORM_NAMES } from '../slugs.ts';
import type { AdapterFactory, Capabilities } from '../types.ts';
import { GB, MB } from '../units.ts';
import { fetchYouTubeAccount } from './account.ts';
import { youtubeAuth } from './auth.ts';
import { YOUTUBE_HOSTS, youtubeContext } from './context.ts';
import { youtubePublisher } from './publish.ts';

export const YOUTUBE_CAPABILITIES: Capabilities = {
  postTypes: ['video'],
  // The video title. Herald takes 100 (YouTube's own limit) over the 200 one parameter reference gives; counting
  // UTF-16 units never lets through a title YouTube would count as longer.
  text: { max: 100, unit: 'utf16' },
  asyncProcessing: true,
};

const media: MediaRules = { imageFormats: ['jpeg', 'png'], maxImageBytes: 2 * MB, carousel: { min: 0, max: 0 }, videoFormats: ['mp4', 'mov', 'm4v', 'avi', 'mkv', 'webm'], maxVideoBytes: 256 * GB, videoSeconds: { min: 1, max: 12 * 3600 }, preferredImage: { width: 1280, height: 720 } };

export const youtubeAdapter: AdapterFactory = (deps) => {
  const ctx = youtubeContext(deps);
  return {
    platform: 'youtube',
    displayName: PLATFORM_NAMES.youtube,
    capabilities: YOUTUBE_CAPABILITIES,
    auth: youtubeAuth(ctx),
    configured: ctx.configured,
    fetchAccount: (tokens) => fetchYouTubeAccount(ctx, tokens),
    publisher: youtubePublisher(ctx),
  };
};

const override = z.object({
  youtube_title: postText().optional(),
  youtube_description: postText().optional(),
  youtube_playlist_id: name.optional(),
  thumbnail_image_id: name.optional(),
  generate_thumbnail_from_content: z.boolean().optional(),
});

export const network = defineNetwork({
  slug: 'youtube',
  displayName: PLATFORM_NAMES.youtube,
  authKind: 'oauth2',
  capabilities: YOUTUBE_CAPABILITIES,
  media,
  fields: {
    // The title is the caption limit (capabilities.text).
    youtube_title: YOUTUBE_CAPABILITIES.text!,
    youtube_description: { max: 5000, unit: 'utf16' },
  },
  override,
  hosts: YOUTUBE_HOSTS,
  adapter: youtubeAdapter,
  plan({ body, o, base, limit, requireMedia, media: mediaOf, fail, target }) {
    const title = o.youtube_title ?? body.default_text;
    // YouTube alone fails (the error catalogue puts it "in results"); the other networks still publish.
    if (!title?.trim()) return fail('title_required', 'YouTube requires a title. Set default_text or youtube.youtube_title.');
    limit(title, 'youtube_title', o.youtube_title !== undefined ? 'youtube_title' : 'default_text');
    const description = o.youtube_description ?? base;
    limit(description, 'youtube_description', o.youtube_description !== undefined ? 'youtube_description' : 'default_text');
    const media = mediaOf();
    requireMedia(media);
    const thumb = o.thumbnail_image_id ? { thumbnail: { id: o.thumbnail_image_id, field: ['youtube', 'thumbnail_image_id'] } } : {};
    target({ text: description, title, description, media, options: o.youtube_playlist_id ? { playlist_id: o.youtube_playlist_id } : {}, ...thumb });
  },
});
