// Media storage (disk or S3), size limits, URL imports and probing (docs/media.md).
import { join } from 'node:path';
import { z } from 'zod';
import type { StorageConfig } from '../media/storage/index.ts';
import { bool, ConfigError, optionalString } from './env.ts';

export const mediaEnvSchema = z.object({
  HERALD_STORAGE: z.enum(['disk', 's3']).default('disk'),
  HERALD_STORAGE_URL: optionalString.pipe(z.url().optional()),
  HERALD_S3_BUCKET: optionalString,
  HERALD_S3_REGION: z.string().default('us-east-1'),
  HERALD_S3_ENDPOINT: optionalString.pipe(z.url().optional()),
  HERALD_S3_FORCE_PATH_STYLE: bool.default(false),
  HERALD_S3_ACCESS_KEY_ID: optionalString,
  HERALD_S3_SECRET_ACCESS_KEY: optionalString,
  HERALD_S3_PUBLIC_URL: optionalString.pipe(z.url().optional()),
  HERALD_MEDIA_MAX_IMAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 * 1024),
  HERALD_MEDIA_MAX_VIDEO_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(2 * 1024 * 1024 * 1024),
  HERALD_MEDIA_GC_PACING: bool.default(true),
  HERALD_MEDIA_FETCH_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(120),
  HERALD_FETCH_REQUEST_DEADLINE_SECONDS: z.coerce.number().min(1).max(3600).default(180),
  HERALD_UPLOAD_SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(24 * 3600),
  HERALD_FFPROBE_PATH: z.string().default('ffprobe'),
});

export interface MediaConfig {
  /** Where objects are stored; disk objects are served by Herald at storageUrl (GET /storage/*). */
  storage: StorageConfig;
  storageUrl: string;
  maxImageBytes: number;
  maxVideoBytes: number;
  fetchTimeoutSeconds: number;
  /** One limit for all the URL imports of one request (each URL also has fetchTimeoutSeconds). */
  fetchRequestDeadlineSeconds: number;
  uploadSessionTtlSeconds: number;
  /** ffprobe binary, or false for the built-in container parsers only. */
  ffprobePath: string | false;
  /** A minor GC every 8 MiB of streamed upload bytes (src/media/gc.ts); off only to measure without it. */
  gcPacing?: boolean;
}

export function mediaConfig(
  e: z.infer<typeof mediaEnvSchema> & { HERALD_DATA_DIR: string },
  publicUrl: string,
): MediaConfig {
  const storageUrl = (e.HERALD_STORAGE_URL ?? `${publicUrl}/storage`).replace(/\/+$/, '');
  let storage: StorageConfig;
  if (e.HERALD_STORAGE === 's3') {
    const missing = (
      ['HERALD_S3_BUCKET', 'HERALD_S3_ACCESS_KEY_ID', 'HERALD_S3_SECRET_ACCESS_KEY', 'HERALD_S3_PUBLIC_URL'] as const
    ).filter((k) => !e[k]);
    if (missing.length)
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((m) => `  ${m}: required with HERALD_STORAGE=s3`).join('\n')}`,
      );
    storage = {
      driver: 's3',
      bucket: e.HERALD_S3_BUCKET!,
      region: e.HERALD_S3_REGION,
      ...(e.HERALD_S3_ENDPOINT ? { endpoint: e.HERALD_S3_ENDPOINT } : {}),
      forcePathStyle: e.HERALD_S3_FORCE_PATH_STYLE,
      accessKeyId: e.HERALD_S3_ACCESS_KEY_ID!,
      secretAccessKey: e.HERALD_S3_SECRET_ACCESS_KEY!,
      publicBaseUrl: e.HERALD_S3_PUBLIC_URL!,
    };
  } else {
    storage = { driver: 'disk', root: join(e.HERALD_DATA_DIR, 'media'), publicBaseUrl: storageUrl };
  }
  const ffprobe = e.HERALD_FFPROBE_PATH.trim();
  return {
    storage,
    storageUrl,
    maxImageBytes: e.HERALD_MEDIA_MAX_IMAGE_BYTES,
    maxVideoBytes: e.HERALD_MEDIA_MAX_VIDEO_BYTES,
    fetchTimeoutSeconds: e.HERALD_MEDIA_FETCH_TIMEOUT_SECONDS,
    fetchRequestDeadlineSeconds: e.HERALD_FETCH_REQUEST_DEADLINE_SECONDS,
    uploadSessionTtlSeconds: e.HERALD_UPLOAD_SESSION_TTL_SECONDS,
    ffprobePath: ffprobe === '' || ffprobe === 'off' ? false : ffprobe,
    gcPacing: e.HERALD_MEDIA_GC_PACING,
  };
}
