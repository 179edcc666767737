// Does each target's media suit its network? Read from the stored probe metadata, before any call.
import { PLATFORM_NAMES, type Platform } from '../auth/scopes.ts';
import { AppError } from '../errors.ts';
import type { MediaRow } from '../media/records.ts';
import type { PostType } from '../platforms/publishing.ts';
import { MEDIA_RULES } from './rules.ts';

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;
const invalid = (msg: string) => new AppError('validation', msg);

export function checkMedia(platform: Platform, postType: PostType, items: MediaRow[], thumbnail?: MediaRow): void {
  const rules = MEDIA_RULES[platform];
  const name = PLATFORM_NAMES[platform];
  if (postType === 'carousel' && (items.length < rules.carousel.min || items.length > rules.carousel.max)) {
    throw invalid(`${name} carousels take ${rules.carousel.min} to ${rules.carousel.max} images; got ${items.length}.`);
  }
  for (const m of items) {
    const wantVideo = postType === 'video';
    if (wantVideo !== (m.mediaType === 'video')) {
      throw invalid(`Media ${m.id} is ${m.mediaType === 'video' ? 'a video' : 'an image'}; the ${postType} route needs ${wantVideo ? 'a video' : 'images'}.`);
    }
    if (m.mediaType === 'image') {
      if (!rules.imageFormats.includes(m.format)) {
        throw invalid(`${name} accepts ${rules.imageFormats.map((f) => f.toUpperCase()).join(', ')} images only; media ${m.id} is ${m.format.toUpperCase()}.`);
      }
      if (m.fileSize > rules.maxImageBytes) throw invalid(`${name} accepts images up to ${mb(rules.maxImageBytes)}; media ${m.id} is ${mb(m.fileSize)}.`);
      if (rules.imageAspect && m.width && m.height) {
        const ratio = m.width / m.height;
        if (ratio < rules.imageAspect.min - 1e-3 || ratio > rules.imageAspect.max + 1e-3) {
          throw invalid(`${name} needs an aspect ratio between ${rules.imageAspect.min}:1 and ${rules.imageAspect.max}:1; media ${m.id} is ${m.width}×${m.height}.`);
        }
      }
    } else {
      if (!rules.videoFormats.includes(m.format)) {
        throw invalid(`${name} accepts ${rules.videoFormats.map((f) => f.toUpperCase()).join(', ')} videos only; media ${m.id} is ${m.format.toUpperCase()}.`);
      }
      if (m.fileSize > rules.maxVideoBytes) throw invalid(`${name} accepts videos up to ${mb(rules.maxVideoBytes)}; media ${m.id} is ${mb(m.fileSize)}.`);
      if (m.durationMs !== null) {
        const s = m.durationMs / 1000;
        if (s < rules.videoSeconds.min || s > rules.videoSeconds.max) {
          throw invalid(`${name} accepts videos of ${rules.videoSeconds.min} s to ${rules.videoSeconds.max} s; media ${m.id} runs ${s.toFixed(1)} s.`);
        }
      }
    }
  }
  if (thumbnail && thumbnail.mediaType !== 'image') throw invalid(`The thumbnail ${thumbnail.id} must be an image.`);
}
