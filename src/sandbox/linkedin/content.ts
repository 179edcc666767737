// Validation of a post's `content`: exactly one of media (image, video or document), multiImage (2–20 images),
// article or poll. Referenced media must exist, belong to the post's author and be AVAILABLE.
import { isObj } from '../core/http.ts';
import { inspectUrl } from '../core/media.ts';
import { findObject, text } from '../core/objects.ts';
import type { Call, ErrorAnswer } from '../core/route.ts';
import { apiError } from './errors.ts';
import { inputError, validationErrors } from './rest.ts';

export interface ContentInfo {
  kind: 'none' | 'image' | 'video' | 'document' | 'multiImage' | 'article' | 'poll';
  media: string[];
}

const MAX_ALT_TEXT = 4086;

function mediaProblem(
  call: Call,
  author: string,
  urn: unknown,
  path: string,
  expect: 'image' | 'video' | 'image|video',
): ErrorAnswer | null {
  if (typeof urn !== 'string' || !urn) return inputError('MISSING_FIELD', path, `Field ${path} is required`);
  const kind = /^urn:li:(image|video|document):/.exec(urn)?.[1];
  if (!kind || !expect.split('|').includes(kind)) {
    return inputError('INVALID_URN_TYPE', path, `${urn} is not a valid ${expect.replace('|', ' or ')} URN for ${path}`);
  }
  const record = findObject(call, 'media', urn);
  if (!record || record.kind !== kind) return inputError('INVALID_URN_ID', path, `Media ${urn} does not exist`);
  if (record.owner !== author) {
    return apiError(
      403,
      'ACCESS_DENIED',
      `Media ${urn} is owned by ${text(record.owner)}, not by the post author ${author}`,
      100,
    );
  }
  if (record.status === 'PROCESSING_FAILED')
    return inputError('MEDIA_ASSET_PROCESSING_FAILED', path, `Processing of ${urn} failed`);
  if (record.status !== 'AVAILABLE') {
    // Reported among the input errors, under a generic validation message, as LinkedIn's Posts API does.
    return validationErrors([
      {
        code: 'MEDIA_ASSET_WAITING_UPLOAD',
        fieldPath: path,
        description: `Media ${urn} is not ready: its status is ${text(record.status)}`,
      },
    ]);
  }
  return null;
}

function altTextProblem(alt: unknown, path: string): ErrorAnswer | null {
  if (alt === undefined) return null;
  if (typeof alt !== 'string') return inputError('INVALID_VALUE_FOR_FIELD', path, `${path} must be a string`);
  return alt.length > MAX_ALT_TEXT
    ? inputError('FIELD_LENGTH_TOO_LONG', path, `${path} exceeds the maximum length of ${MAX_ALT_TEXT}`)
    : null;
}

export function checkContent(call: Call, author: string, content: unknown): ContentInfo | ErrorAnswer {
  if (content === undefined || content === null) return { kind: 'none', media: [] };
  if (!isObj(content)) return inputError('INVALID_VALUE_FOR_FIELD', '/content', '/content must be an object');
  const kinds = ['media', 'multiImage', 'article', 'poll'].filter((k) => k in content);
  if (kinds.length !== 1) {
    return inputError(
      'INVALID_VALUE_FOR_FIELD',
      '/content',
      'content must hold exactly one of media, multiImage, article or poll (no mixing)',
    );
  }
  if (isObj(content.media)) {
    const id = content.media.id;
    if (typeof id === 'string' && id.startsWith('urn:li:document:')) {
      return inputError(
        'INVALID_URN_ID',
        '/content/media/id',
        `Document ${id} does not exist (the Documents API is not simulated)`,
      );
    }
    const problem =
      mediaProblem(call, author, id, '/content/media/id', 'image|video') ??
      altTextProblem(content.media.altText, '/content/media/altText');
    if (problem) return problem;
    return { kind: String(id).startsWith('urn:li:video:') ? 'video' : 'image', media: [String(id)] };
  }
  if (isObj(content.multiImage)) {
    const images = content.multiImage.images;
    if (!Array.isArray(images) || images.length < 2 || images.length > 20) {
      return inputError(
        'INVALID_VALUE_FOR_FIELD',
        '/content/multiImage/images',
        'A multi-image post needs between 2 and 20 images (use content.media for one)',
      );
    }
    for (const [i, image] of images.entries()) {
      const path = `/content/multiImage/images/${i}`;
      const problem =
        mediaProblem(call, author, isObj(image) ? image.id : undefined, `${path}/id`, 'image') ??
        altTextProblem(isObj(image) ? image.altText : undefined, `${path}/altText`);
      if (problem) return problem;
    }
    return { kind: 'multiImage', media: images.map((image) => String(isObj(image) ? image.id : '')) };
  }
  if (isObj(content.article)) {
    const { source, title, thumbnail } = content.article;
    if (typeof source !== 'string' || !inspectUrl(source))
      return inputError('INVALID_VALUE_FOR_FIELD', '/content/article/source', 'article.source must be an http(s) URL');
    if (typeof title !== 'string' || !title)
      return inputError('MISSING_FIELD', '/content/article/title', 'Field /content/article/title is required');
    if (thumbnail !== undefined) {
      const problem = mediaProblem(call, author, thumbnail, '/content/article/thumbnail', 'image');
      if (problem) return problem;
    }
    return { kind: 'article', media: typeof thumbnail === 'string' ? [thumbnail] : [] };
  }
  if (isObj(content.poll)) {
    const { question, options } = content.poll;
    if (typeof question !== 'string' || !question)
      return inputError('MISSING_FIELD', '/content/poll/question', 'Field /content/poll/question is required');
    if (!Array.isArray(options) || options.length < 2 || options.length > 4) {
      return inputError('INVALID_VALUE_FOR_FIELD', '/content/poll/options', 'A poll needs between 2 and 4 options');
    }
    return { kind: 'poll', media: [] };
  }
  return inputError(
    'INVALID_VALUE_FOR_FIELD',
    `/content/${kinds[0] ?? ''}`,
    `/content/${kinds[0] ?? ''} must be an object`,
  );
}
