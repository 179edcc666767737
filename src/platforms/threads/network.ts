// Threads' contract: profiles through the Threads API (graph.threads.net).
import { z } from 'zod';
import type { MediaRules } from '../contract.ts';
import { defineNetwork } from '../contract.ts';
import { postText, ref } from '../fields.ts';
import { PLATFORM_NAMES } from '../slugs.ts';
import type { AdapterFactory, Capabilities } from '../types.ts';
import { GB, MB } from '../units.ts';
import { threadsAccount } from './account.ts';
import { threadsAuth } from './auth.ts';
import { THREADS_REPLY_LIMIT, threadsEngagement } from './engagement.ts';
import { DEFAULT_URLS } from './config.ts';
import { threadsPublisher } from './publish.ts';

const capabilities: Capabilities = {
  postTypes: ['text', 'image', 'carousel', 'video'],
  // 500 characters, but Threads charges an emoji its UTF-8 byte length; no unit captures that exactly, and bytes
  // would refuse valid non-Latin text, so graphemes it is and emoji-heavy posts may still be refused by Threads.
  text: { max: 500, unit: 'graphemes' },
  // Containers are processed (IN_PROGRESS → FINISHED) before threads_publish.
  asyncProcessing: true,
};

const media: MediaRules = {
  imageFormats: ['jpeg', 'png'],
  maxImageBytes: 8 * MB,
  imageAspect: { min: 0.1, max: 10 },
  carousel: { min: 2, max: 20 },
  videoFormats: ['mp4', 'mov'],
  maxVideoBytes: 1 * GB,
  videoSeconds: { min: 1, max: 300 },
  preferredImage: { width: 1080, height: 1350 },
};

export const threadsAdapter: AdapterFactory = (deps) => ({
  platform: 'threads',
  displayName: PLATFORM_NAMES.threads,
  capabilities,
  auth: threadsAuth(deps),
  configured: Boolean(deps.config.clientId && deps.config.clientSecret),
  fetchAccount: threadsAccount(deps),
  publisher: threadsPublisher(deps),
  engagement: threadsEngagement(deps),
});

const override = z.object({
  threads_text: postText().min(1, 'threads_text must not be empty when set').optional(),
  threads_image_id: ref.optional(),
  threads_image_url: ref.optional(),
});

export const network = defineNetwork({
  slug: 'threads',
  displayName: PLATFORM_NAMES.threads,
  authKind: 'oauth2',
  capabilities,
  media,
  override,
  mediaFields: { pairs: [['threads_image_id', 'threads_image_url']] },
  firstComment: { limit: THREADS_REPLY_LIMIT, form: 'reply' },
  hosts: DEFAULT_URLS,
  adapter: threadsAdapter,
  plan({ o, base, caption, requireMedia, media: mediaOf, target }) {
    const text = o.threads_text ?? base;
    caption(text, o.threads_text !== undefined ? 'threads_text' : 'default_text');
    const media = mediaOf([
      [o.threads_image_id, ['threads', 'threads_image_id']],
      [o.threads_image_url, ['threads', 'threads_image_url']],
    ]);
    requireMedia(media);
    target({ text, media, options: {} });
  },
});
