// Video uploads for pins, in Pinterest's three steps: POST /v5/media registers one (media_id, plus the upload_url and
// upload_parameters of a pre-signed S3 POST), the file goes to upload_url as multipart/form-data (every parameter as
// a field, the file last as `file`, no Pinterest token), and GET /v5/media/{id} reports registered → processing →
// succeeded | failed. The multipart body is streamed from storage, so memory does not grow with the video.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { HttpResponse } from '../http.ts';
import type { PublishMedia } from '../publishing.ts';
import type { PlatformErrorKind, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { PinterestContext } from './context.ts';
import { safeText } from '../errors.ts';
import { readApi } from './errors.ts';
import { documentedError } from '../documented-errors.ts';
import { PINTEREST_DOCUMENTED_ERRORS } from './documented-errors.ts';

export type MediaStatus = 'registered' | 'processing' | 'succeeded' | 'failed';

interface Registration {
  mediaId: string;
  uploadUrl: string;
  parameters: Record<string, string>;
}

const UPLOAD_TIMEOUT_MS = 30 * 60_000;

export async function registerVideo(ctx: PinterestContext, tokens: TokenSet): Promise<Registration> {
  const res = await ctx.deps.http.request('pinterest', {
    method: 'POST',
    url: `${ctx.apiBase}/v5/media`,
    headers: bearer(tokens.accessToken),
    json: { media_type: 'video' },
  });
  const body = readApi(res, 'media registration');
  const params =
    body.upload_parameters && typeof body.upload_parameters === 'object'
      ? (body.upload_parameters as Record<string, unknown>)
      : {};
  const mediaId = typeof body.media_id === 'string' ? body.media_id : '';
  const uploadUrl = typeof body.upload_url === 'string' ? body.upload_url : '';
  if (!mediaId || !uploadUrl)
    throw new PlatformError(
      'pinterest',
      'transient',
      'Pinterest registered a media upload without media_id or upload_url',
      { status: res.status },
    );
  const parameters: Record<string, string> = {};
  for (const [k, v] of Object.entries(params))
    if (typeof v === 'string' || typeof v === 'number') parameters[k] = String(v);
  return { mediaId, uploadUrl, parameters };
}

/** Field values are S3 policy strings and keys: quote-free, but escaped anyway so a header cannot be broken. */
const quoted = (s: string): string => s.replace(/["\r\n]/g, (c) => encodeURIComponent(c));

/** The multipart body: fields, then the file streamed from storage, then the closing boundary. */
function multipart(
  parameters: Record<string, string>,
  media: PublishMedia,
): { body: ReadableStream<Uint8Array>; type: string; length: number } {
  const boundary = `----herald${randomBytes(12).toString('hex')}`;
  const fields = Object.entries(parameters)
    .map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const fileName = `${quoted(media.id)}.${quoted(media.format || 'mp4')}`;
  const head = Buffer.from(
    `${fields}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${media.mime}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts(): AsyncGenerator<Buffer> {
    yield head;
    for await (const chunk of await media.open())
      yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    yield tail;
  }
  return {
    body: Readable.toWeb(Readable.from(parts())) as ReadableStream<Uint8Array>,
    type: `multipart/form-data; boundary=${boundary}`,
    length: head.length + media.size + tail.length,
  };
}

/** S3 answers errors as XML: <Error><Code>…</Code><Message>…</Message></Error>. */
export function s3Failure(res: HttpResponse): PlatformError {
  const code = /<Code>([^<]*)<\/Code>/.exec(res.text)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(res.text)?.[1];
  // A refused policy or signature (expired URL) is cured by registering anew, which the next attempt does.
  const kind: PlatformErrorKind =
    code === 'SlowDown' || res.status === 429
      ? 'rate_limited'
      : res.status >= 500 || res.status === 403 || res.status === 408
        ? 'transient'
        : 'invalid_content';
  const mapped = new PlatformError(
    'pinterest',
    kind,
    `Pinterest video upload failed: ${code ?? `HTTP ${res.status}`}${message ? ` (${safeText(message)})` : ''}`,
    {
      status: res.status,
      ...(code ? { code } : {}),
    },
  );
  return code ? documentedError(PINTEREST_DOCUMENTED_ERRORS, code, mapped) : mapped;
}

export async function uploadVideo(ctx: PinterestContext, reg: Registration, media: PublishMedia): Promise<void> {
  const form = multipart(reg.parameters, media);
  const res = await ctx.deps.http.request('pinterest', {
    method: 'POST',
    url: reg.uploadUrl,
    headers: { 'content-type': form.type, 'content-length': String(form.length) },
    body: form.body,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  if (res.status < 200 || res.status >= 300) throw s3Failure(res);
}

export async function mediaStatus(ctx: PinterestContext, tokens: TokenSet, mediaId: string): Promise<MediaStatus> {
  const res = await ctx.deps.http.request('pinterest', {
    url: `${ctx.apiBase}/v5/media/${encodeURIComponent(mediaId)}`,
    headers: bearer(tokens.accessToken),
  });
  const status = readApi(res, 'media status').status;
  if (status === 'registered' || status === 'processing' || status === 'succeeded' || status === 'failed')
    return status;
  throw new PlatformError('pinterest', 'transient', `Pinterest media status is unknown: ${safeText(status)}`, {
    status: res.status,
  });
}
