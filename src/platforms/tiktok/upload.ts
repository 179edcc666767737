// FILE_UPLOAD transfer for TikTok's Content Posting API: the chunk plan of the media transfer guide, and the sequential
// PUTs of each chunk to the upload URL that video/init returned. Chunks are streamed from storage one range at a time,
// so memory stays at one chunk's buffers whatever the video's size.
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PublishMedia } from '../publishing.ts';
import { PlatformError } from '../types.ts';
import type { TikTokContext } from './context.ts';
import { readApi } from './errors.ts';

const MIB = 1024 * 1024;
/** The guide wants files under 5 MB sent whole. Read as MiB, which also satisfies the decimal reading. */
const WHOLE_BELOW = 5 * MIB;
/**
 * Herald's chunk: inside the 5–64 MB window under both readings of "MB", and the last chunk (chunk + remainder, so
 * under two chunks) stays far below the 128 MB the final chunk may reach.
 */
export const CHUNK_SIZE = 10 * MIB;
/** TikTok's largest video. */
export const MAX_VIDEO_BYTES = 4 * 1024 * MIB;
/** A chunk of 20 MiB on a slow uplink needs far longer than an API call. */
const CHUNK_TIMEOUT_MS = 10 * 60_000;
/** Retries of a chunk after a dropped connection or a 5xx, within one publish call. */
const CHUNK_RETRIES = 2;
const RETRY_DELAY_MS = 500;

export const VIDEO_UPLOAD_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];

export interface ChunkPlan {
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
}

/**
 * total_chunk_count = floor(size / chunk): the remainder rides with the last chunk. A video smaller than two chunks
 * goes whole (chunk_size == video_size), which the guide allows up to 64 MB and requires under 5 MB.
 */
export function chunkPlan(size: number, chunk: number = CHUNK_SIZE): ChunkPlan {
  if (size < WHOLE_BELOW || size < chunk) return { videoSize: size, chunkSize: size, totalChunkCount: 1 };
  return { videoSize: size, chunkSize: chunk, totalChunkCount: Math.floor(size / chunk) };
}

/** Inclusive byte offsets of one chunk. */
export function chunkRange(plan: ChunkPlan, index: number): { first: number; last: number } {
  const first = index * plan.chunkSize;
  const last = index >= plan.totalChunkCount - 1 ? plan.videoSize - 1 : first + plan.chunkSize - 1;
  return { first, last };
}

async function putChunk(
  ctx: TikTokContext,
  uploadUrl: string,
  media: PublishMedia,
  plan: ChunkPlan,
  index: number,
): Promise<void> {
  const { first, last } = chunkRange(plan, index);
  const stream = await media.open({ start: first, end: last });
  const res = await ctx.deps.http.request('tiktok', {
    method: 'PUT',
    url: uploadUrl,
    headers: {
      'content-type': media.mime,
      'content-length': String(last - first + 1),
      'content-range': `bytes ${first}-${last}/${plan.videoSize}`,
    },
    body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
    timeoutMs: CHUNK_TIMEOUT_MS,
  });
  // 206 after an intermediate chunk, 201 after the last; 200 is accepted as some upload hosts answer it.
  if (res.status === 200 || res.status === 201 || res.status === 206) return;
  readApi(res, `video upload (chunk ${index + 1}/${plan.totalChunkCount})`);
  throw new PlatformError('tiktok', 'transient', `TikTok video upload answered HTTP ${res.status}`, {
    status: res.status,
  });
}

/**
 * Sends the chunks from byte `from` (a chunk boundary) to the end. After a dropped connection or a 5xx, `uploadedBytes`
 * asks TikTok how much it holds (status/fetch) and the transfer continues from there: resending a chunk TikTok
 * already has would be refused, and re-initialising would start a second post.
 */
export async function transferChunks(
  ctx: TikTokContext,
  uploadUrl: string,
  media: PublishMedia,
  plan: ChunkPlan,
  from: number,
  uploadedBytes: () => Promise<number>,
): Promise<void> {
  let offset = from;
  let failures = 0;
  while (offset < plan.videoSize) {
    const index = Math.floor(offset / plan.chunkSize);
    try {
      await putChunk(ctx, uploadUrl, media, plan, Math.min(index, plan.totalChunkCount - 1));
      offset = chunkRange(plan, Math.min(index, plan.totalChunkCount - 1)).last + 1;
      failures = 0;
    } catch (err) {
      if (!(err instanceof PlatformError) || err.kind !== 'transient' || failures >= CHUNK_RETRIES) throw err;
      failures += 1;
      await sleep(RETRY_DELAY_MS * failures);
      offset = await uploadedBytes();
    }
  }
}
