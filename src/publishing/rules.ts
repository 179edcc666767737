// What each network accepts, as data (sources: reference/platforms/*.md). Validators read this before
// anything is sent, so one unsuitable network fails the whole request with a clear message.
import type { Platform } from '../auth/scopes.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { TextLimit } from '../platforms/types.ts';

export const ROUTE_PLATFORMS: Record<PostType, readonly Platform[]> = {
  text: ['linkedin', 'facebook', 'threads', 'bluesky'],
  image: ['linkedin', 'facebook', 'instagram', 'threads', 'tiktok', 'pinterest'],
  carousel: ['linkedin', 'facebook', 'instagram', 'threads', 'tiktok', 'pinterest'],
  video: ['linkedin', 'facebook', 'instagram', 'threads', 'tiktok', 'youtube', 'pinterest', 'bluesky'],
};

export interface MediaRules {
  imageFormats: readonly string[];
  maxImageBytes: number;
  /** Allowed width/height range for images, when the network enforces one. */
  imageAspect?: { min: number; max: number };
  carousel: { min: number; max: number };
  videoFormats: readonly string[];
  maxVideoBytes: number;
  videoSeconds: { min: number; max: number };
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const MEDIA_RULES: Record<Platform, MediaRules> = {
  linkedin: { imageFormats: ['jpeg', 'png', 'gif'], maxImageBytes: 36 * MB, carousel: { min: 2, max: 20 }, videoFormats: ['mp4'], maxVideoBytes: 5 * GB, videoSeconds: { min: 3, max: 30 * 60 } },
  facebook: { imageFormats: ['jpeg', 'png', 'gif', 'webp'], maxImageBytes: 10 * MB, carousel: { min: 2, max: 20 }, videoFormats: ['mp4', 'mov', 'm4v', 'avi', 'mkv', 'webm'], maxVideoBytes: 4 * GB, videoSeconds: { min: 1, max: 240 * 60 } },
  // Instagram takes JPEG only (PNG is refused by the network); aspect 4:5 … 1.91:1.
  instagram: { imageFormats: ['jpeg'], maxImageBytes: 8 * MB, imageAspect: { min: 0.8, max: 1.91 }, carousel: { min: 2, max: 10 }, videoFormats: ['mp4', 'mov'], maxVideoBytes: 1 * GB, videoSeconds: { min: 3, max: 15 * 60 } },
  threads: { imageFormats: ['jpeg', 'png'], maxImageBytes: 8 * MB, imageAspect: { min: 0.1, max: 10 }, carousel: { min: 2, max: 20 }, videoFormats: ['mp4', 'mov'], maxVideoBytes: 1 * GB, videoSeconds: { min: 1, max: 300 } },
  tiktok: { imageFormats: ['jpeg', 'webp'], maxImageBytes: 20 * MB, carousel: { min: 2, max: 35 }, videoFormats: ['mp4', 'mov', 'webm'], maxVideoBytes: 4 * GB, videoSeconds: { min: 3, max: 600 } },
  youtube: { imageFormats: ['jpeg', 'png'], maxImageBytes: 2 * MB, carousel: { min: 0, max: 0 }, videoFormats: ['mp4', 'mov', 'm4v', 'avi', 'mkv', 'webm'], maxVideoBytes: 256 * GB, videoSeconds: { min: 1, max: 12 * 3600 } },
  pinterest: { imageFormats: ['jpeg', 'png', 'gif', 'webp'], maxImageBytes: 20 * MB, carousel: { min: 2, max: 5 }, videoFormats: ['mp4', 'mov', 'm4v'], maxVideoBytes: 2 * GB, videoSeconds: { min: 4, max: 15 * 60 } },
  bluesky: { imageFormats: ['jpeg', 'png', 'gif', 'webp'], maxImageBytes: 2_000_000, carousel: { min: 1, max: 4 }, videoFormats: ['mp4'], maxVideoBytes: 300_000_000, videoSeconds: { min: 1, max: 180 } },
};

/** Secondary text fields with their own limits (the main caption limit comes from the adapter). */
export const FIELD_LIMITS: Record<string, TextLimit> = {
  // Two sources disagree (100 in the validation message, 200 in a parameter table); YouTube itself
  // refuses titles over 100 characters, so 100 it is.
  youtube_title: { max: 100, unit: 'utf16' },
  youtube_description: { max: 5000, unit: 'utf16' },
  pinterest_text: { max: 100, unit: 'utf16' },
  pinterest_description: { max: 500, unit: 'utf16' },
  tiktok_title: { max: 90, unit: 'utf16' },
};
