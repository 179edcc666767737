// Bluesky's limits, read by its contract (publishing validates with them) and its publisher.
import type { MediaRules } from '../contract.ts';
import type { Capabilities } from '../types.ts';

export const BLUESKY_CAPABILITIES: Capabilities = {
  // Interface route table: Bluesky is on the text and video routes.
  postTypes: ['text', 'video'],
  // app.bsky.feed.post text: maxGraphemes 300 and maxLength 3000 (UTF-8 bytes); the PDS refuses either.
  text: { max: 300, unit: 'graphemes', maxBytes: 3000 },
  // Videos are transcoded by the video service before the post can reference them.
  asyncProcessing: true,
};

export const BLUESKY_MEDIA: MediaRules = { imageFormats: ['jpeg', 'png', 'gif', 'webp'], maxImageBytes: 2_000_000, carousel: { min: 1, max: 4 }, videoFormats: ['mp4'], maxVideoBytes: 300_000_000, videoSeconds: { min: 1, max: 180 }, preferredImage: { width: 1200, height: 675 } };
