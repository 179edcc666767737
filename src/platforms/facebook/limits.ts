// Facebook's limits, read by its contract (publishing validates with them) and its publisher.
import type { MediaRules } from '../contract.ts';
import type { Capabilities } from '../types.ts';
import { GB, MB } from '../units.ts';

export const FACEBOOK_CAPABILITIES: Capabilities = {
  postTypes: ['text', 'image', 'carousel', 'video'],
  // 63,206 is the universally cited post limit; Graph measures JavaScript string length.
  text: { max: 63_206, unit: 'utf16' },
  // Videos and reels are processed after upload and must be polled.
  asyncProcessing: true,
};

export const FACEBOOK_MEDIA: MediaRules = {
  imageFormats: ['jpeg', 'png', 'gif', 'webp'],
  maxImageBytes: 10 * MB,
  carousel: { min: 2, max: 20 },
  videoFormats: ['mp4', 'mov', 'm4v', 'avi', 'mkv', 'webm'],
  maxVideoBytes: 4 * GB,
  videoSeconds: { min: 1, max: 240 * 60 },
  preferredImage: { width: 1200, height: 630 },
};
