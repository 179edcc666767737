// Raw-byte XRPC procedures (com.atproto.repo.uploadBlob, app.bsky.video.uploadVideo): the body is the file itself,
// streamed from Herald's storage with its exact length, which the video service requires and the PDS checks.
import { Readable } from 'node:stream';
import type { HttpResponse } from '../http.ts';
import type { PublishMedia } from '../publishing.ts';
import { blueskyError, blueskyFailure } from './errors.ts';
import { trimBase } from './xrpc.ts';
import type { JsonObject, XrpcClient } from './xrpc.ts';

/** A blob reference as uploadBlob returns it: `{ $type: 'blob', ref: { $link }, mimeType, size }`. */
export type BlobRef = JsonObject;

const IMAGE_TIMEOUT_MS = 120_000;
const VIDEO_TIMEOUT_MS = 15 * 60_000;

export function isBlobRef(value: unknown): value is BlobRef {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const ref = (value as JsonObject).ref;
  return (
    (value as JsonObject).$type === 'blob' &&
    !!ref &&
    typeof ref === 'object' &&
    typeof (ref as JsonObject).$link === 'string'
  );
}

/** A journaled blob reference, or null when the step is absent or unreadable. */
export function parseBlob(raw: string | undefined): BlobRef | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isBlobRef(value) ? value : null;
  } catch {
    return null;
  }
}

/** POSTs the media's bytes to an XRPC procedure; the caller reads the response. */
export async function postBytes(
  client: XrpcClient,
  p: { base: string; nsid: string; bearer: string; media: PublishMedia; params?: Record<string, string> },
): Promise<HttpResponse> {
  const stream = await p.media.open();
  return client.http.request('bluesky', {
    method: 'POST',
    url: `${trimBase(p.base)}/xrpc/${p.nsid}`,
    ...(p.params ? { query: p.params } : {}),
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${p.bearer}`,
      'content-type': p.media.mime,
      'content-length': String(p.media.size),
    },
    body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
    timeoutMs: p.media.kind === 'video' ? VIDEO_TIMEOUT_MS : IMAGE_TIMEOUT_MS,
  });
}

/** com.atproto.repo.uploadBlob on the account's PDS. */
export async function uploadBlob(
  client: XrpcClient,
  pds: string,
  accessToken: string,
  media: PublishMedia,
): Promise<BlobRef> {
  const res = await postBytes(client, { base: pds, nsid: 'com.atproto.repo.uploadBlob', bearer: accessToken, media });
  if (res.status < 200 || res.status >= 300) throw blueskyError(res, 'access', client.clock());
  const blob = res.data && typeof res.data === 'object' ? (res.data as JsonObject).blob : undefined;
  if (!isBlobRef(blob)) throw blueskyFailure('transient', 'Bluesky answered uploadBlob without a blob');
  return blob;
}
