// Does each target's media suit its network? Read from the stored probe metadata, before any call.
// Each refusal is a field-level 422 at the field of the body that named the media.
import { AppError } from '../errors.ts';
import type { MediaRow } from '../media/records.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { FieldPath, NetworkContract } from '../platforms/contract.ts';

/** A media record and the body field that named it (relative to the body). */
export interface CheckedMedia {
  row: MediaRow;
  field: FieldPath | undefined;
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;

export function checkMedia(
  network: Pick<NetworkContract, 'media' | 'displayName'>,
  postType: PostType,
  items: CheckedMedia[],
  thumbnail: CheckedMedia | undefined,
  at: FieldPath,
): void {
  const rules = network.media;
  const name = network.displayName;
  const refusal = (field: FieldPath | undefined) => (msg: string) =>
    new AppError('validation', [{ loc: [...at, ...(field ?? [])], msg, type: 'media_unsuitable' }]);
  if (postType === 'carousel' && (items.length < rules.carousel.min || items.length > rules.carousel.max)) {
    // The list itself: the field of its first image without the index.
    throw refusal(items[0]?.field?.slice(0, -1) ?? ['image_ids'])(
      `${name} carousels take ${rules.carousel.min} to ${rules.carousel.max} images; got ${items.length}.`,
    );
  }
  for (const { row: m, field } of items) {
    const invalid = refusal(field);
    const wantVideo = postType === 'video';
    if (wantVideo !== (m.mediaType === 'video')) {
      throw invalid(
        `Media ${m.id} is ${m.mediaType === 'video' ? 'a video' : 'an image'}; the ${postType} route needs ${wantVideo ? 'a video' : 'images'}.`,
      );
    }
    if (m.mediaType === 'image') {
      if (!rules.imageFormats.includes(m.format)) {
        throw invalid(
          `${name} accepts ${rules.imageFormats.map((f) => f.toUpperCase()).join(', ')} images only; media ${m.id} is ${m.format.toUpperCase()}.`,
        );
      }
      if (m.fileSize > rules.maxImageBytes)
        throw invalid(`${name} accepts images up to ${mb(rules.maxImageBytes)}; media ${m.id} is ${mb(m.fileSize)}.`);
      if (rules.maxImagePixels && m.width && m.height && m.width * m.height > rules.maxImagePixels) {
        throw invalid(
          `${name} accepts images of up to ${rules.maxImagePixels.toLocaleString('en-US')} pixels; media ${m.id} is ${m.width}×${m.height} (${(m.width * m.height).toLocaleString('en-US')}).`,
        );
      }
      if (rules.imageAspect && m.width && m.height) {
        const ratio = m.width / m.height;
        if (ratio < rules.imageAspect.min - 1e-3 || ratio > rules.imageAspect.max + 1e-3) {
          throw invalid(
            `${name} needs an aspect ratio between ${rules.imageAspect.min}:1 and ${rules.imageAspect.max}:1; media ${m.id} is ${m.width}×${m.height}.`,
          );
        }
      }
    } else {
      if (!rules.videoFormats.includes(m.format)) {
        throw invalid(
          `${name} accepts ${rules.videoFormats.map((f) => f.toUpperCase()).join(', ')} videos only; media ${m.id} is ${m.format.toUpperCase()}.`,
        );
      }
      if (m.fileSize > rules.maxVideoBytes)
        throw invalid(`${name} accepts videos up to ${mb(rules.maxVideoBytes)}; media ${m.id} is ${mb(m.fileSize)}.`);
      if (m.durationMs !== null) {
        const s = m.durationMs / 1000;
        if (s < rules.videoSeconds.min || s > rules.videoSeconds.max) {
          throw invalid(
            `${name} accepts videos of ${rules.videoSeconds.min} s to ${rules.videoSeconds.max} s; media ${m.id} runs ${s.toFixed(1)} s.`,
          );
        }
      }
    }
  }
  if (thumbnail && thumbnail.row.mediaType !== 'image')
    throw refusal(thumbnail.field)(`The thumbnail ${thumbnail.row.id} must be an image.`);
}
