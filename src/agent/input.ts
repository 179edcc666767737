// What a member sends to the agent, checked and made ready for the model: an image (a media id of this workspace, or
// a URL read through the SSRF-safe fetcher) becomes bytes the vision model is shown; a video becomes a reference (its
// URL and media id) the agent passes to media_to_content or analyze_media, which read it themselves.
import { readFile } from 'node:fs/promises';
import type { Principal } from '../auth/authenticate.ts';
import { AppError, validationField } from '../errors.ts';
import type { MediaService } from '../media/service.ts';

export interface ChatInput {
  text?: string | null | undefined;
  imageUrl?: string | null | undefined;
  videoUrl?: string | null | undefined;
  imageMediaId?: string | null | undefined;
  videoMediaId?: string | null | undefined;
}

export interface PreparedInput {
  text: string;
  /** The image as the model sees it (JPEG, at most 1568 px a side), and where it came from. */
  image: { data: Buffer; mediaType: 'image/jpeg'; source: string; mediaId: string | null } | null;
  video: { url: string; mediaId: string | null } | null;
}

/** The longest side of an image shown to the model: what the vision models read at full detail. */
const IMAGE_SIDE = 1568;

const nonEmpty = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

/** 422 unless the member sent text or media. */
export function assertSomething(input: ChatInput): void {
  if (![input.text, input.imageUrl, input.videoUrl, input.imageMediaId, input.videoMediaId].some(nonEmpty)) {
    throw new AppError('validation', [
      {
        loc: ['body'],
        msg: 'Send text, image_url, video_url, image_media_id or video_media_id: at least one must be non-empty.',
        type: 'missing',
      },
    ]);
  }
}

async function asModelImage(bytes: Buffer, field: string): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  try {
    return await sharp(bytes, { failOn: 'error' })
      .rotate()
      .resize({ width: IMAGE_SIDE, height: IMAGE_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch {
    throw validationField(
      ['body', field],
      'This is not an image Herald can read (JPEG, PNG, WebP, GIF, AVIF or TIFF).',
      'image_invalid',
    );
  }
}

export async function prepareInput(media: MediaService, p: Principal, input: ChatInput): Promise<PreparedInput> {
  assertSomething(input);
  if (nonEmpty(input.imageUrl) && nonEmpty(input.imageMediaId))
    throw validationField(['body', 'image_media_id'], 'Send image_url or image_media_id, not both.', 'value_error');
  if (nonEmpty(input.videoUrl) && nonEmpty(input.videoMediaId))
    throw validationField(['body', 'video_media_id'], 'Send video_url or video_media_id, not both.', 'value_error');

  let image: PreparedInput['image'] = null;
  if (nonEmpty(input.imageMediaId) || nonEmpty(input.imageUrl)) {
    let url: string;
    let mediaId: string | null = null;
    let field = 'image_url';
    if (nonEmpty(input.imageMediaId)) {
      field = 'image_media_id';
      // 404 for an id that is not this workspace's, whatever the reason.
      const row = await media.get(p.workspaceId, p.scope, input.imageMediaId.trim());
      if (row.mediaType !== 'image')
        throw validationField(
          ['body', field],
          'This media is a video: send it as video_media_id.',
          'media_type_mismatch',
        );
      url = media.storage.publicUrl(row.storageKey);
      mediaId = row.id;
    } else url = input.imageUrl!.trim();
    const file = await media.readUrl(p, url, 'image', ['body', field]);
    try {
      image = {
        data: await asModelImage(await readFile(file.path), field),
        mediaType: 'image/jpeg',
        source: url,
        mediaId: mediaId ?? file.mediaId,
      };
    } finally {
      await media.release(file.path);
    }
  }

  let video: PreparedInput['video'] = null;
  if (nonEmpty(input.videoMediaId)) {
    const row = await media.get(p.workspaceId, p.scope, input.videoMediaId.trim());
    if (row.mediaType !== 'video')
      throw validationField(
        ['body', 'video_media_id'],
        'This media is an image: send it as image_media_id.',
        'media_type_mismatch',
      );
    video = { url: media.storage.publicUrl(row.storageKey), mediaId: row.id };
  } else if (nonEmpty(input.videoUrl)) {
    const url = input.videoUrl.trim();
    if (!/^https?:\/\//i.test(url))
      throw validationField(['body', 'video_url'], 'video_url must be an http(s) URL.', 'url_invalid');
    video = { url, mediaId: null };
  }
  return { text: input.text?.trim() ?? '', image, video };
}
