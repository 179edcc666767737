// Videos API: initializeUpload → uploadInstructions (4 MiB byte ranges, one upload URL each) and an uploadToken;
// PUT of each part returns an ETag; finalizeUpload with the ETags in order; GET /rest/videos/{urn} moves from
// PROCESSING to AVAILABLE (or PROCESSING_FAILED) after the processing delay.
import { isObj, jsonBody, queryParams } from '../core/http.ts';
import { randomAlnum, randomUrlSafe } from '../core/ids.ts';
import { bodyBytes, isVideo, sniff, UPLOAD_BODY_LIMIT } from '../core/media.ts';
import { findObject, putObject, text } from '../core/objects.ts';
import { schedule } from '../core/processing.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import type { JsonObject, JsonValue, ObjectRecord } from '../core/types.ts';
import { apiError } from './errors.ts';
import { notFound } from './errors.ts';
import { actionOk, downloadUrl, initRequest } from './images.ts';
import { actorProblem, inputError, pathObject, restAuth } from './rest.ts';

export const VIDEO_PART_BYTES = 4 * 1024 * 1024;
const MAX_VIDEO_BYTES = 5 * 1024 * 1024 * 1024;
const URL_TTL_MS = 30 * 24 * 60 * 60 * 1000;

function parts(video: ObjectRecord): JsonObject[] {
  return Array.isArray(video.parts) ? video.parts.filter(isObj).map((p) => p as JsonObject) : [];
}

function videoView(video: ObjectRecord, nowMs: number): JsonObject {
  const out: JsonObject = { owner: video.owner ?? null, status: video.status ?? null, id: video.id };
  if (video.status === 'AVAILABLE') {
    Object.assign(out, {
      duration: 0,
      aspectRatioWidth: 16,
      aspectRatioHeight: 9,
      downloadUrl: downloadUrl(text(video.key), nowMs),
    });
  }
  if (video.status === 'PROCESSING_FAILED')
    out.processingFailureReason = video.processingFailureReason ?? 'Video processing failed';
  if (video.thumbnail) out.thumbnail = `urn:li:image:${text(video.key)}-thumbnail`;
  return out;
}

export function registerLinkedInVideos(sim: Simulator): void {
  const base = () => `${sim.ctx.base('linkedin')}/dms-uploads/sp/v2`;

  addRoute(sim, {
    method: 'POST',
    url: '/rest/videos',
    ops: ['upload'],
    surface: 'api',
    handler: (req, reply, call) => {
      const action = actionOk(req, reply, ['initializeUpload', 'finalizeUpload']);
      if (!action) return reply;
      if (action === 'initializeUpload') {
        const init = initRequest(req, reply, call, 'videos');
        if (!init) return reply;
        const size = init.input.fileSizeBytes;
        if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0 || size > MAX_VIDEO_BYTES) {
          return sendAnswer(
            reply,
            inputError(
              'INVALID_VALUE_FOR_FIELD',
              '/initializeUploadRequest/fileSizeBytes',
              `fileSizeBytes must be between 1 and ${MAX_VIDEO_BYTES}`,
            ),
          );
        }
        const key = `D4E05AQ${randomAlnum(12)}`;
        const ut = randomUrlSafe(32);
        const count = Math.ceil(size / VIDEO_PART_BYTES);
        const instructions: JsonObject[] = [];
        for (let i = 0; i < count; i++) {
          const firstByte = i * VIDEO_PART_BYTES;
          const lastByte = Math.min(size, firstByte + VIDEO_PART_BYTES) - 1;
          instructions.push({
            uploadUrl: `${base()}/${key}/uploaded-video/${i}?ca=vector_feedshare&cn=uploads&sync=0&v=beta&ut=${ut}`,
            lastByte,
            firstByte,
          });
        }
        // A single-part upload gets an empty upload token, as LinkedIn does; clients echo whatever they got.
        const uploadToken = count > 1 ? randomUrlSafe(48) : '';
        const expiresAt = call.ctx.nowMs() + URL_TTL_MS;
        const value: JsonObject = {
          uploadUrlsExpireAt: expiresAt,
          video: `urn:li:video:${key}`,
          uploadInstructions: instructions,
          uploadToken,
        };
        if (init.input.uploadThumbnail === true)
          value.thumbnailUploadUrl = `${base()}/${key}/uploaded-thumbnail/0?ut=${ut}`;
        if (init.input.uploadCaptions === true)
          value.captionsUploadUrl = `${base()}/${key}/uploaded-captions/0?ut=${ut}`;
        putObject(call, 'media', {
          id: `urn:li:video:${key}`,
          accountId: init.accountId,
          kind: 'video',
          key,
          owner: init.owner,
          status: 'WAITING_UPLOAD',
          fileSizeBytes: size,
          uploadToken,
          urlToken: ut,
          uploadUrlsExpireAt: expiresAt,
          parts: instructions.map((p, index) => ({
            index,
            firstByte: p.firstByte ?? 0,
            lastByte: p.lastByte ?? 0,
            etag: null,
            bytes: null,
          })),
          mimeType: null,
        });
        return reply.send({ value });
      }
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const input = jsonBody(req)?.finalizeUploadRequest;
      if (!isObj(input) || typeof input.video !== 'string') {
        return sendAnswer(
          reply,
          inputError('MISSING_FIELD', '/finalizeUploadRequest/video', 'Field /finalizeUploadRequest/video is required'),
        );
      }
      const video = findObject(call, 'media', input.video);
      if (video?.kind !== 'video') return sendAnswer(reply, notFound(input.video));
      const problem = actorProblem(auth, text(video.owner), 'write', 'videos', 'ACTION');
      if (problem) return sendAnswer(reply, problem);
      if ((input.uploadToken ?? '') !== video.uploadToken) {
        return sendAnswer(
          reply,
          inputError(
            'INVALID_VALUE_FOR_FIELD',
            '/finalizeUploadRequest/uploadToken',
            'uploadToken does not match the one returned by initializeUpload',
          ),
        );
      }
      const etags = parts(video).map((p) => p.etag);
      const sent = Array.isArray(input.uploadedPartIds) ? input.uploadedPartIds : [];
      const complete = etags.every((e) => typeof e === 'string');
      const same = sent.length === etags.length && sent.every((id, i) => id === etags[i]);
      if (!complete || !same) {
        const missing = etags.filter((e) => e === null).length;
        const reason = !complete
          ? `${missing} part(s) were not uploaded`
          : 'uploadedPartIds must list the ETag of every part, in order';
        return sendAnswer(
          reply,
          inputError('INVALID_VALUE_FOR_FIELD', '/finalizeUploadRequest/uploadedPartIds', reason),
        );
      }
      if (video.status !== 'WAITING_UPLOAD') return reply.code(200).send();
      video.status = 'PROCESSING';
      video.finalizedAt = call.ctx.now().toISOString();
      const ok = isVideo(typeof video.mimeType === 'string' ? video.mimeType : null);
      schedule(call.ctx, 'linkedin', video, [
        ok
          ? { at: 1, set: { status: 'AVAILABLE' } }
          : {
              at: 1,
              set: { status: 'PROCESSING_FAILED', processingFailureReason: 'Unsupported or corrupt video file' },
            },
      ]);
      return reply.code(200).send();
    },
  });

  addRoute(sim, {
    method: 'PUT',
    url: '/dms-uploads/sp/v2/:asset/:kind/:part',
    ops: ['upload'],
    surface: 'api',
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: (req, reply, call) => {
      const { asset, kind, part } = req.params as { asset: string; kind: string; part: string };
      const video = findObject(call, 'media', `urn:li:video:${asset}`);
      // The part upload authenticates by the signed URL; a bearer header, which clients add anyway, is ignored.
      if (!video || queryParams(req).ut !== video.urlToken) return sendAnswer(reply, notFound(`urn:li:video:${asset}`));
      if (Number(video.uploadUrlsExpireAt) <= call.ctx.nowMs())
        return sendAnswer(reply, apiError(400, 'EXPIRED_UPLOAD_URL', 'The upload URL has expired'));
      const bytes = bodyBytes(req);
      if (kind === 'uploaded-thumbnail' || kind === 'uploaded-captions') {
        video[kind === 'uploaded-thumbnail' ? 'thumbnail' : 'captions'] = {
          bytes: bytes.length,
          mimeType: sniff(bytes),
        };
        return reply.code(201).send();
      }
      const entry = kind === 'uploaded-video' ? parts(video).find((p) => p.index === Number(part)) : undefined;
      if (!entry) return sendAnswer(reply, notFound(`urn:li:video:${asset}`));
      const expected = Number(entry.lastByte) - Number(entry.firstByte) + 1;
      if (bytes.length !== expected) {
        return sendAnswer(
          reply,
          apiError(
            400,
            'BAD_REQUEST',
            `Part ${part} must be exactly ${expected} bytes (bytes ${String(entry.firstByte)}-${String(entry.lastByte)}); got ${bytes.length}`,
          ),
        );
      }
      const etag = `/ambry-video/signedId/${randomUrlSafe(60)}`;
      Object.assign(entry, { etag, bytes: bytes.length } satisfies Record<string, JsonValue>);
      if (entry.index === 0) video.mimeType = sniff(bytes);
      return reply.code(200).header('etag', `"${etag}"`).send();
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/videos/:urn',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      // Any valid token may poll a video's status.
      const found = pathObject(req, reply, call, 'media', 'video');
      if (!found) return reply;
      return reply.send(videoView(found.record, call.ctx.nowMs()));
    },
  });
}
