// The media record as the API shows it, and which platforms media may be staged for.
import { AppError } from '../errors.ts';
import { assertPlatformsAllowed, type Platform, type Scope } from '../auth/scopes.ts';
import type { media } from '../db/schema-media.ts';

export type MediaRow = typeof media.$inferSelect;
export type MediaKind = 'image' | 'video';

/**
 * The networks Herald connects (the registry's), plus `twitter`: the interface lets uploads be tagged for it
 * although Herald has no Twitter connection. Such media is library media with the platform recorded.
 */
export type MediaPlatform = Platform | 'twitter';

/**
 * Lower-cases, maps the `x` alias to `twitter`; 400 for anything else, in the interface's wording. `slugs`: the
 * registry's networks.
 */
export function parseMediaPlatform(raw: string | undefined | null, slugs: readonly string[]): MediaPlatform | null {
  const value = (raw ?? '').trim().toLowerCase();
  if (!value) return null;
  const slug = value === 'x' ? 'twitter' : value;
  const supported = [...slugs, 'twitter'];
  if (!supported.includes(slug)) {
    throw new AppError(
      'bad_request',
      `Invalid or unsupported platform: '${value}'. Supported: ${supported.join(', ')}`,
    );
  }
  return slug as MediaPlatform;
}

const isFullScope = (scope: Scope) => scope.full;

/** Twitter is in no platform list a key can name, so only a full-scope key may use it. */
export function mediaPlatformAllowed(scope: Scope, platform: string): boolean {
  if (platform === 'twitter') return isFullScope(scope);
  return scope.platforms.has(platform as Platform);
}

export function assertMediaPlatformAllowed(scope: Scope, platform: string | null): void {
  if (platform === null) return;
  if (platform === 'twitter') {
    if (isFullScope(scope)) return;
    throw new AppError(
      'scope_denied',
      `This API key is not allowed for platform 'twitter'. Key scope: ${scope.raw || 'full'}. Only platforms in the key's scope can be used.`,
    );
  }
  assertPlatformsAllowed(scope, [platform]);
}

/** Platforms whose media a key may see: every one for a full key, otherwise its list (library media always). */
export function visiblePlatforms(scope: Scope): MediaPlatform[] | 'all' {
  return isFullScope(scope) ? 'all' : [...scope.platforms];
}

export interface MediaItem {
  media_id: string;
  media_type: string;
  platform: string | null;
  platform_user_id: string | null;
  public_url: string;
  filename: string;
  original_filename: string | null;
  file_size: number;
  mime_type: string;
  format: string;
  width: number | null;
  height: number | null;
  /** Seconds, for videos whose container states it. */
  duration: number | null;
  video_codec: string | null;
  audio_codec: string | null;
  status: string;
  uploaded_at: string;
}

export function toMediaItem(row: MediaRow, publicUrl: (key: string) => string): MediaItem {
  return {
    media_id: row.id,
    media_type: row.mediaType,
    platform: row.platform,
    platform_user_id: row.platformUserId,
    public_url: publicUrl(row.storageKey),
    filename: row.filename,
    original_filename: row.originalFilename,
    file_size: row.fileSize,
    mime_type: row.mime,
    format: row.format,
    width: row.width,
    height: row.height,
    duration: row.durationMs === null ? null : row.durationMs / 1000,
    video_codec: row.videoCodec,
    audio_codec: row.audioCodec,
    status: row.status,
    uploaded_at: row.createdAt.toISOString(),
  };
}

export const mediaNotFound = (id: string) => new AppError('not_found', `Media not found: ${id}`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

export const MiB = 1024 * 1024;
/** "20 MiB" for round sizes, else bytes. */
export function formatBytes(n: number): string {
  if (n >= 1024 * MiB && n % (1024 * MiB) === 0) return `${n / (1024 * MiB)} GiB`;
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
