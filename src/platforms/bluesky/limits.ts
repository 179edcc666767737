// Bluesky's limits, read by its contract (publishing validates with them) and its publisher.
import type { MediaRules } from '../contract.ts';
import type { Capabilities } from '../types.ts';

export const BLUESKY_CAPABILITIES: Capabilities = {
  // The interface's route table has Bluesky on the text and video routes; Bluesky's platform page documents image
  // posts, and app.bsky.embed.images takes up to four images, so Herald also puts it on the image and carousel routes.
  postTypes: ['text', 'image', 'carousel', 'video'],
  // app.bsky.feed.post text: maxGraphemes 300 and maxLength 3000 (UTF-8 bytes); the PDS refuses either.
  text: { max: 300, unit: 'graphemes', maxBytes: 3000 },
  // Videos are transcoded by the video service before the post can reference them.
  asyncProcessing: true,
};

/** app.bsky.embed.images: at most four images in one post. */
export const MAX_IMAGES = 4;

/** Alt text of one image: Bluesky's app takes up to 2000 graphemes (the lexicon sets no limit). */
export const ALT_TEXT_MAX = 2000;

/**
 * The largest image blob Herald puts in an app.bsky.embed.images record. The current lexicon allows 2,000,000 bytes
 * (raised in April 2026), but PDSes validating with the older lexicon and Bluesky's own docs say 1,000,000, and the PDS
 * refuses the whole post when one blob is over: 1,000,000 is what every PDS takes. Larger images are re-encoded.
 */
export const IMAGE_BLOB_MAX = 1_000_000;

export const BLUESKY_MEDIA: MediaRules = {
  imageFormats: ['jpeg', 'png', 'gif', 'webp'],
  // What Herald takes for Bluesky: images over IMAGE_BLOB_MAX are re-encoded by the publisher (image-fit.ts).
  maxImageBytes: 20 * 1024 * 1024,
  // One image is the image route; a carousel is two to four.
  carousel: { min: 2, max: MAX_IMAGES },
  videoFormats: ['mp4'],
  maxVideoBytes: 300_000_000,
  videoSeconds: { min: 1, max: 180 },
  preferredImage: { width: 1200, height: 675 },
};
