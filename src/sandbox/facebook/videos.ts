// POST /{page-id}/videos on graph-video.facebook.com: one request with `file_url` or a multipart `source`, or the
// chunked upload in phases — start (file_size → upload_session_id and the first byte range), transfer
// (video_file_chunk at start_offset → the next range) and finish (publishes). A video then moves from `processing`
// to `ready` (or `error`) after the processing delay.
import type { FastifyRequest } from 'fastify';
import { isObj, queryParams } from '../core/http.ts';
import type { Obj } from '../core/http.ts';
import { randomDigits } from '../core/ids.ts';
import { inspectUrl, isVideo, MB, peekMultipartField, sniff, UPLOAD_BODY_LIMIT } from '../core/media.ts';
import { reachMedia } from '../core/strict.ts';
import type { MultipartFile } from '../core/media.ts';
import { flag, param } from '../core/meta-publish.ts';
import { findObject, num, putObject, putPost } from '../core/objects.ts';
import { schedule } from '../core/processing.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import type { JsonObject } from '../core/types.ts';
import { pageInput } from './feed.ts';
import { invalidParam, pageActor } from './page-actor.ts';
import type { PageActor } from './page-actor.ts';

export const VIDEO_CHUNK_BYTES = MB;

interface VideoSource {
  source: 'file_url' | 'source' | 'resumable';
  fileUrl: string | null;
  mime: string | null;
  bytes: number | null;
  /** Why processing will fail, or null. */
  failure: string | null;
}

function uploadError(message: string): ErrorAnswer {
  return invalidParam(`(#6001) ${message}`, {
    subcode: 1363037,
    userTitle: 'Upload failed',
    userMsg: 'There was a problem uploading your video. Please try again.',
  });
}

function createVideo(
  call: Call,
  req: FastifyRequest,
  actor: PageActor,
  input: Obj,
  src: VideoSource,
  videoId = randomDigits(16),
): string {
  const pageId = actor.page.id;
  const published = flag(input, 'published') ?? true;
  const description = param(input, 'description') ?? '';
  const ok = src.failure === null;
  const postId = ok && published ? `${pageId}_${videoId}` : null;
  const video = putObject(call, 'media', {
    id: videoId,
    accountId: actor.account.id,
    kind: 'video',
    pageId,
    title: param(input, 'title') ?? '',
    description,
    published,
    source: src.source,
    fileUrl: src.fileUrl,
    bytes: src.bytes,
    mimeType: src.mime,
    video_status: 'processing',
    processing_phase: 'in_progress',
    publishing_phase: 'not_started',
    postId,
  });
  schedule(call.ctx, 'facebook', video, [
    ok
      ? {
          at: 1,
          set: {
            video_status: 'ready',
            processing_phase: 'complete',
            publishing_phase: published ? 'complete' : 'not_started',
          },
        }
      : { at: 1, set: { video_status: 'error', processing_phase: 'error', error: src.failure } },
  ]);
  // A video that will fail processing never becomes a post.
  if (postId) {
    putPost(
      call,
      req,
      {
        id: postId,
        accountId: actor.account.id,
        author: pageId,
        text: description,
        media: [videoId],
        permalink: `${call.ctx.base('facebook')}/${pageId}/videos/${videoId}/`,
      },
      { pageId, link: null, is_published: true, scheduled_publish_time: null, status_type: 'added_video', videoId },
    );
  }
  return videoId;
}

function fromUrl(raw: string): VideoSource | ErrorAnswer {
  const media = inspectUrl(raw);
  if (!media) return invalidParam('file_url should represent a valid URL');
  const failure = !media.reachable
    ? 'The video file could not be downloaded from file_url'
    : media.corrupt || (media.mime !== null && !isVideo(media.mime))
      ? 'The video file could not be processed'
      : null;
  return { source: 'file_url', fileUrl: raw, mime: media.mime ?? 'video/mp4', bytes: null, failure };
}

function fromFile(file: MultipartFile, source: VideoSource['source'] = 'source'): VideoSource {
  const mime = sniff(file.bytes);
  return {
    source,
    fileUrl: null,
    mime,
    bytes: file.bytes.length,
    failure: isVideo(mime) ? null : 'The video file could not be processed',
  };
}

function phased(
  call: Call,
  req: FastifyRequest,
  actor: PageActor,
  input: Obj,
  files: Record<string, MultipartFile>,
  phase: string,
): ErrorAnswer | { body: JsonObject } {
  if (phase === 'start') {
    const size = Number(param(input, 'file_size'));
    if (!Number.isInteger(size) || size <= 0)
      return invalidParam('The parameter file_size is required and must be a positive integer');
    const session = putObject(call, 'uploads', {
      id: randomDigits(16),
      accountId: actor.account.id,
      kind: 'video_upload_session',
      pageId: actor.page.id,
      videoId: randomDigits(16),
      fileSize: size,
      received: 0,
      mimeType: null,
      status: 'started',
    });
    return {
      body: {
        video_id: session.videoId ?? '',
        start_offset: '0',
        end_offset: String(Math.min(size, VIDEO_CHUNK_BYTES)),
        upload_session_id: session.id,
      },
    };
  }
  const session = findObject(call, 'uploads', param(input, 'upload_session_id'));
  if (!session || session.pageId !== actor.page.id || session.status === 'finished')
    return invalidParam('Invalid upload_session_id');
  const size = num(session.fileSize);
  const received = num(session.received);
  if (phase === 'transfer') {
    const chunk = files.video_file_chunk;
    if (!chunk) return invalidParam('The parameter video_file_chunk is required');
    const start = Number(param(input, 'start_offset'));
    const expected = Math.min(size, received + VIDEO_CHUNK_BYTES) - received;
    if (start !== received)
      return uploadError(
        `start_offset ${String(param(input, 'start_offset'))} does not match the expected offset ${received}`,
      );
    if (chunk.bytes.length !== expected)
      return uploadError(
        `The chunk must be ${expected} bytes (start_offset ${received} to end_offset ${received + expected}); got ${chunk.bytes.length}`,
      );
    if (received === 0) session.mimeType = sniff(chunk.bytes);
    session.received = received + chunk.bytes.length;
    const next = num(session.received);
    return { body: { start_offset: String(next), end_offset: String(Math.min(size, next + VIDEO_CHUNK_BYTES)) } };
  }
  if (received < size) return uploadError(`The upload is incomplete: ${received} of ${size} bytes were transferred`);
  session.status = 'finished';
  const mime = typeof session.mimeType === 'string' ? session.mimeType : null;
  const src: VideoSource = {
    source: 'resumable',
    fileUrl: null,
    mime,
    bytes: size,
    failure: isVideo(mime) ? null : 'The video file could not be processed',
  };
  createVideo(call, req, actor, input, src, String(session.videoId));
  return { body: { success: true } };
}

export function registerFacebookVideos(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/:version/:pageId/videos',
    ops: ['publish', 'upload'],
    // Starting and transferring a chunked upload move bytes; finishing it (or a one-shot upload) publishes.
    opsFor: (req) => {
      const phase =
        queryParams(req).upload_phase ??
        peekMultipartField(req, 'upload_phase') ??
        (isObj(req.body) ? String(req.body.upload_phase ?? '') : '');
      return phase === 'start' || phase === 'transfer' ? ['upload'] : ['publish'];
    },
    surface: 'api',
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: async (req, reply, call) => {
      const { input, files } = await pageInput(req);
      const actor = pageActor(req, reply, call, input, { extraScope: 'publish_video' });
      if (!actor) return reply;
      const phase = param(input, 'upload_phase');
      if (phase !== undefined) {
        if (!['start', 'transfer', 'finish'].includes(phase))
          return sendAnswer(reply, invalidParam(`Invalid upload_phase: ${phase}`));
        const result = phased(call, req, actor, input, files, phase);
        return 'status' in result ? sendAnswer(reply, result) : reply.send(result.body);
      }
      const fileUrl = param(input, 'file_url');
      const file = files.source;
      if (!fileUrl && !file)
        return sendAnswer(reply, invalidParam('One of file_url, source or upload_phase must be specified'));
      const src = file ? fromFile(file) : fromUrl(fileUrl ?? '');
      if ('status' in src) return sendAnswer(reply, src);
      if (src.fileUrl && !src.failure) {
        // Strict public_media_only: Facebook downloads file_url while the video processes; a private host fails it.
        const reach = await reachMedia(call.ctx, src.fileUrl);
        if (!reach.ok) src.failure = `The video file could not be downloaded from file_url (${reach.detail})`;
      }
      return reply.send({ id: createVideo(call, req, actor, input, src) });
    },
  });
}
