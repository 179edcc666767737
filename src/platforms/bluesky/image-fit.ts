// Images for app.bsky.embed.images: each blob must be within the lexicon's maxSize, which the PDS checks when the
// post record is created (not at upload). An image over IMAGE_BLOB_MAX is re-encoded with sharp (EXIF orientation
// applied, long edge capped as Bluesky's own app does, quality stepped down, then the size) until it fits; the new
// pixel size is what the embed's aspectRatio says, so the ratio survives the downscale.
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { PublishMedia } from '../publishing.ts';
import { blueskyFailure } from './errors.ts';
import { IMAGE_BLOB_MAX } from './limits.ts';

/** Bluesky's app scales photos to at most 2000 px on the long edge before upload. */
const LONG_EDGE = 2000;
const QUALITIES = [90, 82, 75] as const;
/** Each further round shrinks both sides by at least this factor (at the last quality). */
const SHRINK = 0.8;
const MIN_EDGE = 64;

export interface FittedImage extends PublishMedia {
  /** Whether the bytes are Herald's original (false: re-encoded to fit). */
  original: boolean;
}

/** The image as it may be uploaded: itself when within `max` bytes, else a re-encoded copy within it. */
export async function fitImage(media: PublishMedia, max: number = IMAGE_BLOB_MAX): Promise<FittedImage> {
  if (media.size <= max) return { ...media, original: true };
  const source = await buffer(await media.open());
  // Loaded on first need: most images fit as they are.
  const { default: sharp } = await import('sharp');
  // Decoded once, orientation applied, so width and height are as the picture is seen.
  const { data: pixels, info } = await sharp(source, { failOn: 'error' })
    .rotate()
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch((err: unknown) => {
      throw blueskyFailure(
        'invalid_content',
        `Media ${media.id} could not be read as an image to fit Bluesky's ${max}-byte limit: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  // Transparency survives in WebP (which Bluesky shows); everything else becomes JPEG.
  const alpha = info.channels === 2 || info.channels === 4;
  let scale = Math.min(1, LONG_EDGE / Math.max(info.width, info.height));
  for (;;) {
    const width = Math.max(1, Math.round(info.width * scale));
    const height = Math.max(1, Math.round(info.height * scale));
    let last = 0;
    for (const quality of QUALITIES) {
      const resized = sharp(pixels, { raw }).resize(width, height, { fit: 'fill' });
      const bytes = await (alpha
        ? resized.webp({ quality })
        : resized.flatten({ background: '#ffffff' }).jpeg({ quality })
      ).toBuffer();
      last = bytes.length;
      if (bytes.length <= max) {
        return {
          ...media,
          original: false,
          mime: alpha ? 'image/webp' : 'image/jpeg',
          format: alpha ? 'webp' : 'jpeg',
          size: bytes.length,
          width,
          height,
          open: async () => Readable.from([bytes]),
        };
      }
    }
    if (Math.min(width, height) * SHRINK < MIN_EDGE) {
      throw blueskyFailure(
        'invalid_content',
        `Media ${media.id} does not fit Bluesky's ${max}-byte image limit even at ${width}×${height}`,
      );
    }
    // Bytes go roughly with the pixel count: aim just under the limit rather than shrinking step by step.
    scale *= Math.min(SHRINK, Math.sqrt(max / last) * 0.95);
  }
}
