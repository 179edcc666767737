// LinkedIn's limits, read by its contract (publishing validates with them) and its publisher.
import type { MediaRules } from '../contract.ts';
import type { Capabilities } from '../types.ts';
import { GB, MB } from '../units.ts';

export const LINKEDIN_CAPABILITIES: Capabilities = {
  postTypes: ['text', 'image', 'carousel', 'video'],
  // `commentary` is limited to 3,000 characters as Java counts them (UTF-16 code units).
  text: { max: 3000, unit: 'utf16' },
  // Uploaded videos (and images) are processed before a post may reference them.
  asyncProcessing: true,
};

export const LINKEDIN_MEDIA: MediaRules = { imageFormats: ['jpeg', 'png', 'gif'], maxImageBytes: 36 * MB, carousel: { min: 2, max: 20 }, videoFormats: ['mp4'], maxVideoBytes: 5 * GB, videoSeconds: { min: 3, max: 30 * 60 }, preferredImage: { width: 1200, height: 627 } };
