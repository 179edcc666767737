// videos.insert over the resumable upload protocol: POST /upload/youtube/v3/videos?uploadType=resumable starts a
// session (URI in `Location`); PUTs to it carry the bytes, whole or in chunks with `Content-Range`. Until the last
// byte, the answer is 308 with `Range: bytes=0-{n}`; `Content-Range: bytes */{total}` asks how much arrived, so a
// client resumes after a dropped connection. Only whole 256 KiB blocks of an intermediate chunk are kept, as on
// Google's upload servers. The last byte creates the video (201 with the resource); it then processes.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { headerValue, jsonBody, queryParams } from '../core/http.ts';
import { randomUrlSafe } from '../core/ids.ts';
import { bodyBytes, isVideo, sniff, UPLOAD_BODY_LIMIT } from '../core/media.ts';
import { findObject, num, putObject, putPost, text } from '../core/objects.ts';
import { schedule } from '../core/processing.ts';
import { strictOn } from '../core/strict.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { googleApiError } from './errors.ts';
import { partsOf, UPLOAD_SCOPES, uploader, validateMetadata, videoResource } from './video-meta.ts';

const BLOCK = 256 * 1024;
const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const VIDEO_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** 11 characters of URL-safe base64 over 64 bits, so the last one comes from a 16-character subset as on YouTube. */
export function videoId(): string {
  const bits = randomBytes(8).readBigUInt64BE() << 2n;
  let out = '';
  for (let i = 10; i >= 0; i--) out += VIDEO_ID_ALPHABET[Number((bits >> BigInt(i * 6)) & 63n)];
  return out;
}

function uploadError(message: string, status = 400): ErrorAnswer {
  return { status, body: message, contentType: 'text/plain; charset=utf-8' };
}

function rangeHeader(received: number): Record<string, string> {
  return received > 0 ? { range: `bytes=0-${received - 1}` } : {};
}

function incomplete(reply: FastifyReply, session: ObjectRecord): FastifyReply {
  return reply
    .code(308)
    .headers({ ...rangeHeader(num(session.received)), 'x-guploader-uploadid': session.id, 'content-length': '0' })
    .send();
}

function complete(
  call: Call,
  session: ObjectRecord,
  status: number,
  reply: FastifyReply,
  parts: string[],
): FastifyReply {
  const video = findObject(call, 'posts', text(session.videoId));
  const account = call.slice.accounts.get(session.accountId);
  const channel = account?.assets.find((a) => a.id === session.channelId);
  if (!video) return sendAnswer(reply, googleApiError(404, 'NOT_FOUND', 'The video was deleted.', 'videoNotFound'));
  return reply.code(status).send(videoResource(video, parts, channel?.name ?? '', true));
}

/** The last byte arrived: the video now exists on the channel and starts processing. */
function createVideo(call: Call, req: Parameters<typeof putPost>[1], session: ObjectRecord): void {
  const id = videoId();
  const metadata = (session.metadata ?? {}) as JsonObject;
  const total = num(session.received);
  const mime = typeof session.sniffed === 'string' ? session.sniffed : null;
  const failure = total === 0 ? 'emptyFile' : isVideo(mime) ? null : 'invalidFile';
  const video = putPost(
    call,
    req,
    {
      id,
      accountId: session.accountId,
      author: text(session.channelId),
      text: text(metadata.title),
      media: [session.id],
      permalink: `${call.ctx.base('youtube')}/watch?v=${id}`,
    },
    {
      ...metadata,
      channelId: session.channelId ?? null,
      uploadId: session.id,
      bytes: total,
      mimeType: mime,
      notifySubscribers: session.notifySubscribers ?? true,
      uploadStatus: 'uploaded',
      processingStatus: 'processing',
      failureReason: null,
      thumbnail: null,
      playlistItems: [],
    },
  );
  schedule(call.ctx, 'youtube', video, [
    // A documented post-upload state armed as a fault (documented.ts) ends the video that way.
    call.outcome
      ? { at: 1, set: call.outcome }
      : failure
        ? { at: 1, set: { uploadStatus: 'failed', failureReason: failure, processingStatus: 'failed' } }
        : { at: 1, set: { uploadStatus: 'processed', processingStatus: 'succeeded' } },
  ]);
  Object.assign(session, { status: 'complete', videoId: id });
}

export function registerYouTubeUpload(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/upload/youtube/v3/videos',
    ops: ['publish'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = uploader(req, reply, call, UPLOAD_SCOPES);
      if (!who) return reply;
      const q = queryParams(req);
      if (q.uploadType !== 'resumable') {
        return sendAnswer(
          reply,
          googleApiError(
            400,
            'INVALID_ARGUMENT',
            `Invalid uploadType "${q.uploadType ?? ''}": the sandbox simulates uploadType=resumable`,
            'badRequest',
          ),
        );
      }
      const parts = partsOf(reply, q.part);
      if (!parts) return reply;
      const metadata = validateMetadata(jsonBody(req), call.ctx.nowMs());
      if ('error' in metadata) return sendAnswer(reply, metadata.error);
      // An unaudited API project's uploads are locked private, whatever the request asked for; the answer says so.
      if (strictOn(call.ctx, 'youtube_unaudited')) metadata.fields.privacyStatus = 'private';
      const lengthHeader = headerValue(req, 'x-upload-content-length');
      if (lengthHeader !== undefined && !/^\d+$/.test(lengthHeader)) {
        return sendAnswer(
          reply,
          googleApiError(400, 'INVALID_ARGUMENT', 'Invalid X-Upload-Content-Length header', 'badRequest'),
        );
      }
      const type = headerValue(req, 'x-upload-content-type');
      if (type !== undefined && !type.startsWith('video/') && type !== 'application/octet-stream') {
        return sendAnswer(
          reply,
          googleApiError(
            400,
            'INVALID_ARGUMENT',
            `Media type '${type}' is not supported. Valid media types: [video/*, application/octet-stream]`,
            'badContent',
            { domain: 'youtube.video' },
          ),
        );
      }
      const session = putObject(call, 'uploads', {
        id: `AEnB2U${randomUrlSafe(74)}`,
        accountId: who.account.id,
        kind: 'youtube#videoUpload',
        channelId: who.channel.id,
        parts,
        notifySubscribers: q.notifySubscribers !== 'false',
        metadata: metadata.fields,
        total: lengthHeader === undefined ? null : Number(lengthHeader),
        declaredType: type ?? null,
        received: 0,
        sniffed: null,
        status: 'active',
        videoId: null,
        expiresAt: call.ctx.nowMs() + SESSION_TTL_MS,
      });
      const location = `${call.ctx.base('youtube')}/upload/youtube/v3/videos?uploadType=resumable&part=${parts.join(',')}&upload_id=${session.id}`;
      return reply.code(200).headers({ location, 'x-guploader-uploadid': session.id, 'content-length': '0' }).send();
    },
  });

  addRoute(sim, {
    method: 'PUT',
    url: '/upload/youtube/v3/videos',
    ops: ['upload'],
    surface: 'api',
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: (req, reply, call) => {
      const session = findObject(call, 'uploads', queryParams(req).upload_id);
      if (session?.kind !== 'youtube#videoUpload') return sendAnswer(reply, uploadError('Not Found', 404));
      const parts = Array.isArray(session.parts) ? session.parts.map(String) : ['snippet'];
      if (session.status === 'complete') return complete(call, session, 200, reply, parts);
      if (num(session.expiresAt) <= call.ctx.nowMs())
        return sendAnswer(reply, uploadError('The upload session has expired.', 410));
      const bytes = bodyBytes(req);
      const received = num(session.received);
      const declared = session.total === null ? null : num(session.total);
      const header = headerValue(req, 'content-range');
      const probe = header ? /^bytes \*\/(\d+|\*)$/.exec(header) : null;
      const chunk = header ? /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header) : null;
      if (header && !probe && !chunk)
        return sendAnswer(reply, uploadError(`Invalid request. Unparseable Content-Range header: ${header}`));
      const totalRaw = (probe ?? chunk)?.[probe ? 1 : 3];
      const total = header ? (totalRaw === '*' ? declared : Number(totalRaw)) : (declared ?? bytes.length);
      if (declared !== null && total !== null && total !== declared) {
        return sendAnswer(
          reply,
          uploadError(`Invalid request. The total size ${total} does not match X-Upload-Content-Length ${declared}.`),
        );
      }
      if (probe) {
        if (bytes.length > 0)
          return sendAnswer(
            reply,
            uploadError('Invalid request. A status query (bytes */total) must have an empty body.'),
          );
        return incomplete(reply, session);
      }
      const first = chunk ? Number(chunk[1]) : 0;
      const last = chunk ? Number(chunk[2]) : bytes.length - 1;
      if (bytes.length !== last - first + 1)
        return sendAnswer(
          reply,
          uploadError('Invalid request. The number of bytes uploaded does not match the Content-Range header.'),
        );
      if (first > received) {
        return sendAnswer(
          reply,
          uploadError(
            `Invalid request. According to the Content-Range header, the upload offset is ${first} byte(s), which exceeds already uploaded size of ${received} byte(s).`,
          ),
        );
      }
      if (first === 0 && bytes.length > 0) session.sniffed = sniff(bytes.subarray(0, 64));
      const final = total !== null && last + 1 >= total;
      if (final) {
        session.received = total;
        createVideo(call, req, session);
        return complete(call, session, 201, reply, parts);
      }
      // Bytes resent below the received offset are ignored; of the rest, only whole 256 KiB blocks are kept.
      session.received = Math.max(received, Math.floor((last + 1) / BLOCK) * BLOCK);
      return incomplete(reply, session);
    },
  });
}
