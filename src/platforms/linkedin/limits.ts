// LinkedIn's limits, read by its contract (publishing validates with them) and its publisher.
import type { MediaRules } from '../contract.ts';
import type { Capabilities } from '../types.ts';
import { MB } from '../units.ts';

export const LINKEDIN_CAPABILITIES: Capabilities = {
  postTypes: ['text', 'image', 'carousel', 'video'],
  // `commentary` is limited to 3,000 characters as Java counts them (UTF-16 code units).
  text: { max: 3000, unit: 'utf16' },
  // Uploaded videos (and images) are processed before a post may reference them.
  asyncProcessing: true,
};

/** LinkedIn limits images by pixels (fewer than 36,152,320 in all), not by bytes. */
export const MAX_IMAGE_PIXELS = 36_152_320;

// No byte limit is documented for images: 200 MB only bounds what Herald sends (a JPEG or PNG within the pixel limit
// is far smaller). Videos follow the feed video spec: MP4, 3 s to 30 min, 75 KB to 500 MB (the upload API's own
// schema allows more, the feed does not).
export const LINKEDIN_MEDIA: MediaRules = {
  imageFormats: ['jpeg', 'png', 'gif'],
  maxImageBytes: 200 * MB,
  maxImagePixels: MAX_IMAGE_PIXELS,
  carousel: { min: 2, max: 20 },
  videoFormats: ['mp4'],
  maxVideoBytes: 500 * MB,
  videoSeconds: { min: 3, max: 30 * 60 },
  preferredImage: { width: 1200, height: 627 },
};
