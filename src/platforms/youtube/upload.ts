// videos.insert over Google's resumable upload protocol: a session is started with the metadata (its URI comes back
// in Location), then the bytes go in chunks of a multiple of 256 KiB with Content-Range. Each intermediate chunk is
// answered 308 with the Range the server kept; after a dropped connection or a 5xx, an empty PUT with
// `Content-Range: bytes */{total}` asks how far it got, and the upload continues from there. The video exists only
// once the last byte is in. Chunks are streamed from storage one range at a time, so memory stays bounded.
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpResponse } from '../http.ts';
import type { PublishMedia } from '../publishing.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { YouTubeContext } from './context.ts';
import { safeText } from '../errors.ts';
import { readApi } from './errors.ts';

type Obj = Record<string, unknown>;

/** 8 MiB: a multiple of the 256 KiB block Google keeps, large enough that per-request overhead does not matter. */
export const UPLOAD_CHUNK = 8 * 1024 * 1024;
const CHUNK_TIMEOUT_MS = 10 * 60_000;
/**
 * Rounds without progress (a failure, then a status query that finds nothing new, counts two) tolerated within one
 * call; beyond them a later attempt resumes via the journal.
 */
const MAX_STALLED = 6;
const RETRY_DELAY_MS = 500;

/** Where a session stands: bytes kept so far, finished (with the video resource), or gone (expired: start over). */
export type SessionState = { state: 'partial'; next: number } | { state: 'done'; video: Obj } | { state: 'gone' };

export async function startSession(
  ctx: YouTubeContext,
  tokens: TokenSet,
  media: PublishMedia,
  metadata: Obj,
  notifySubscribers: boolean | undefined,
): Promise<string> {
  const res = await ctx.deps.http.request('youtube', {
    method: 'POST',
    url: `${ctx.apiBase}/upload/youtube/v3/videos`,
    query: { uploadType: 'resumable', part: 'snippet,status', notifySubscribers },
    headers: {
      ...bearer(tokens.accessToken),
      'x-upload-content-length': String(media.size),
      'x-upload-content-type': media.mime,
    },
    json: metadata,
  });
  // Success has an empty body; only a failure has something for readApi to read.
  if (res.status < 200 || res.status >= 300) readApi(res, 'videos.insert', ctx.deps.clock());
  const location = res.headers.get('location');
  if (!location)
    throw new PlatformError(
      'youtube',
      'transient',
      'YouTube started an upload without a session URI (no Location header)',
      { status: res.status },
    );
  return new URL(location, `${ctx.apiBase}/`).toString();
}

/** The upload host answers some errors in plain text rather than the Data API's JSON. */
function uploadFailure(ctx: YouTubeContext, res: HttpResponse): PlatformError {
  if (res.data !== undefined) {
    try {
      readApi(res, 'video upload', ctx.deps.clock());
    } catch (err) {
      if (err instanceof PlatformError) return err;
      throw err;
    }
  }
  const kind =
    res.status === 401
      ? 'auth_expired'
      : res.status === 429
        ? 'rate_limited'
        : res.status >= 500 || res.status === 408
          ? 'transient'
          : 'invalid_content';
  const detail = safeText(res.text);
  return new PlatformError(
    'youtube',
    kind,
    `YouTube video upload failed: HTTP ${res.status}${detail ? ` (${detail})` : ''}`,
    { status: res.status },
  );
}

/** What an upload PUT (chunk or status query) says about the session. */
function sessionState(ctx: YouTubeContext, res: HttpResponse): SessionState {
  if (res.status === 200 || res.status === 201) {
    const video = res.data && typeof res.data === 'object' ? (res.data as Obj) : {};
    if (typeof video.id !== 'string' || !video.id)
      throw new PlatformError('youtube', 'transient', 'YouTube finished the upload without a video id', {
        status: res.status,
      });
    return { state: 'done', video };
  }
  if (res.status === 308) {
    // `Range: bytes=0-{last}`; absent when nothing was kept yet.
    const last = /bytes=0-(\d+)/.exec(res.headers.get('range') ?? '')?.[1];
    return { state: 'partial', next: last === undefined ? 0 : Number(last) + 1 };
  }
  if (res.status === 404 || res.status === 410) return { state: 'gone' };
  throw uploadFailure(ctx, res);
}

/** Asks how much of the upload the session holds (empty PUT, `Content-Range: bytes *\/{total}`). */
export async function querySession(
  ctx: YouTubeContext,
  tokens: TokenSet,
  sessionUri: string,
  total: number,
): Promise<SessionState> {
  const res = await ctx.deps.http.request('youtube', {
    method: 'PUT',
    url: sessionUri,
    headers: { ...bearer(tokens.accessToken), 'content-length': '0', 'content-range': `bytes */${total}` },
    body: '',
    redirect: 'manual',
  });
  return sessionState(ctx, res);
}

async function putChunk(
  ctx: YouTubeContext,
  tokens: TokenSet,
  sessionUri: string,
  media: PublishMedia,
  first: number,
): Promise<SessionState> {
  const last = Math.min(first + UPLOAD_CHUNK, media.size) - 1;
  const stream = await media.open({ start: first, end: last });
  const res = await ctx.deps.http.request('youtube', {
    method: 'PUT',
    url: sessionUri,
    headers: {
      ...bearer(tokens.accessToken),
      'content-type': media.mime,
      'content-length': String(last - first + 1),
      'content-range': `bytes ${first}-${last}/${media.size}`,
    },
    body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
    timeoutMs: CHUNK_TIMEOUT_MS,
    // 308 here is "Resume Incomplete", not a redirect to follow.
    redirect: 'manual',
  });
  return sessionState(ctx, res);
}

/**
 * Uploads from byte `from` to the end. A dropped connection or a 5xx is followed by a status query and a resume from
 * what the server kept; rounds without progress are bounded, after which the error goes up and a later attempt
 * resumes from the journaled session URI.
 */
export async function uploadFrom(
  ctx: YouTubeContext,
  tokens: TokenSet,
  sessionUri: string,
  media: PublishMedia,
  from: number,
): Promise<SessionState> {
  let next = from;
  let stalled = 0;
  let query = false;
  for (;;) {
    let state: SessionState;
    try {
      state = query
        ? await querySession(ctx, tokens, sessionUri, media.size)
        : await putChunk(ctx, tokens, sessionUri, media, next);
    } catch (err) {
      if (!(err instanceof PlatformError) || err.kind !== 'transient' || ++stalled > MAX_STALLED) throw err;
      await sleep(RETRY_DELAY_MS * stalled);
      query = true;
      continue;
    }
    if (state.state !== 'partial') return state;
    if (state.next > next) stalled = 0;
    else if (++stalled > MAX_STALLED)
      throw new PlatformError('youtube', 'transient', 'The YouTube upload makes no progress');
    next = state.next;
    // All bytes in without the final answer (it was lost): the status query returns the video.
    query = next >= media.size;
  }
}
