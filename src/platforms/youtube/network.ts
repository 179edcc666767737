// YouTube's contract: Google OAuth 2.0, the YouTube Data API v3 for the channel and uploads.
import { z } from 'zod';
import type { MediaRules } from '../contract.ts';
import { defineNetwork } from '../contract.ts';
import { MAX_ITEMS, name, postText } from '../fields.ts';
import { PLATFORM_NAMES } from '../slugs.ts';
import type { AdapterFactory, Capabilities } from '../types.ts';
import { GB, MB } from '../units.ts';
import { fetchYouTubeAccount } from './account.ts';
import { youtubeAuth } from './auth.ts';
import { YOUTUBE_HOSTS, youtubeContext } from './context.ts';
import { YOUTUBE_COMMENT_MAX, youtubeEngagement } from './engagement.ts';
import { metadataProblem, tagsLength, YOUTUBE_PRIVACY, youtubePublisher } from './publish.ts';

export const YOUTUBE_CAPABILITIES: Capabilities = {
  postTypes: ['video'],
  // The video title. Herald takes 100 (YouTube's own limit) over the 200 one parameter reference gives; counting
  // UTF-16 units never lets through a title YouTube would count as longer.
  text: { max: 100, unit: 'utf16' },
  asyncProcessing: true,
};

const media: MediaRules = {
  imageFormats: ['jpeg', 'png'],
  maxImageBytes: 2 * MB,
  carousel: { min: 0, max: 0 },
  videoFormats: ['mp4', 'mov', 'm4v', 'avi', 'mkv', 'webm'],
  maxVideoBytes: 256 * GB,
  videoSeconds: { min: 1, max: 12 * 3600 },
  preferredImage: { width: 1280, height: 720 },
};

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
    engagement: youtubeEngagement(ctx),
  };
};

const override = z.object({
  youtube_title: postText().optional(),
  youtube_description: postText().optional(),
  youtube_playlist_id: name.optional(),
  thumbnail_image_id: name.optional(),
  generate_thumbnail_from_content: z.boolean().optional(),
  /**
   * public (default), unlisted or private; an unaudited API project gets private whatever is asked (see
   * docs/networks.md).
   */
  youtube_privacy_status: z.enum(YOUTUBE_PRIVACY).optional(),
  youtube_made_for_kids: z.boolean().optional(),
  // YouTube caps the tags at 500 characters together; each is checked in plan().
  youtube_tags: z.array(z.string().min(1).max(500)).max(MAX_ITEMS).optional(),
  /** A videoCategories id such as "22" (People & Blogs). */
  youtube_category_id: z
    .string()
    .regex(/^\d{1,4}$/, 'A YouTube category id is a number such as "22"')
    .optional(),
  /** Whether subscribers are notified of the upload (YouTube's default: yes). */
  youtube_notify_subscribers: z.boolean().optional(),
});

export const network = defineNetwork({
  slug: 'youtube',
  displayName: PLATFORM_NAMES.youtube,
  aliases: ['yt', 'you tube'],
  authKind: 'oauth2',
  operatorSettings: {
    DAILY_QUOTA: "unset: Herald does not count quota units and relies on YouTube's quotaExceeded",
  },
  capabilities: YOUTUBE_CAPABILITIES,
  media,
  fields: {
    // The title is the caption limit (capabilities.text).
    youtube_title: YOUTUBE_CAPABILITIES.text!,
    // YouTube counts the description in UTF-8 bytes.
    youtube_description: { max: 5000, unit: 'bytes' },
  },
  override,
  reads: { kind: 'channel', param: 'youtube_channel_id', replyParam: 'youtube_channel_id', byDefault: 'account' },
  firstComment: { limit: { max: YOUTUBE_COMMENT_MAX, unit: 'utf16' }, form: 'comment' },
  hosts: YOUTUBE_HOSTS,
  adapter: youtubeAdapter,
  plan({ body, o, base, limit, requireMedia, media: mediaOf, fail, invalid, target }) {
    const title = o.youtube_title ?? body.default_text;
    // YouTube alone fails (the error catalogue puts it "in results"); the other networks still publish.
    if (!title?.trim())
      return fail('title_required', 'YouTube requires a title. Set default_text or youtube.youtube_title.');
    limit(title, 'youtube_title', o.youtube_title !== undefined ? 'youtube_title' : 'default_text');
    const description = o.youtube_description ?? base;
    limit(
      description,
      'youtube_description',
      o.youtube_description !== undefined ? 'youtube_description' : 'default_text',
    );
    const problem = metadataProblem(title, description);
    if (problem) throw invalid(problem);
    if (o.youtube_tags && (tagsLength(o.youtube_tags) > 500 || o.youtube_tags.some((t) => /[<>]/.test(t)))) {
      throw invalid(
        'YouTube tags must not contain < or > and total at most 500 characters (a tag with a space counts its quotes).',
      );
    }
    const media = mediaOf();
    requireMedia(media);
    const thumb = o.thumbnail_image_id
      ? { thumbnail: { id: o.thumbnail_image_id, field: ['youtube', 'thumbnail_image_id'] } }
      : {};
    const options: Record<string, unknown> = {};
    if (o.youtube_playlist_id) options.playlist_id = o.youtube_playlist_id;
    if (o.youtube_privacy_status) options.privacy_status = o.youtube_privacy_status;
    if (o.youtube_made_for_kids !== undefined) options.made_for_kids = o.youtube_made_for_kids;
    if (o.youtube_tags) options.tags = o.youtube_tags;
    if (o.youtube_category_id) options.category_id = o.youtube_category_id;
    if (o.youtube_notify_subscribers !== undefined) options.notify_subscribers = o.youtube_notify_subscribers;
    target({ text: description, title, description, media, options, ...thumb });
  },
});
