// PUT {upload_url} for FILE_UPLOAD jobs (open-upload.tiktokapis.com/video/?upload_id=…&upload_token=…): chunks in
// order, each with an inclusive `Content-Range: bytes first-last/total` that matches the declared chunk plan (the
// last chunk absorbs the remainder). 206 for a chunk, 201 once the whole file is in; the job then processes.
import { headerValue, queryParams } from '../core/http.ts';
import { bodyBytes, isVideo, sniff, UPLOAD_BODY_LIMIT } from '../core/media.ts';
import { num } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { apiFail } from './errors.ts';
import { finishJob } from './jobs.ts';

const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];

export function registerTikTokUpload(sim: Simulator): void {
  addRoute(sim, {
    method: 'PUT',
    url: '/video/',
    ops: ['upload'],
    surface: 'api',
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: (req, reply, call) => {
      const now = call.ctx.nowMs();
      const q = queryParams(req);
      const job = [...call.slice.containers.values()].find(
        (j) => j.upload_id === q.upload_id && q.upload_id !== undefined,
      );
      if (!job || job.upload_token !== q.upload_token)
        return sendAnswer(reply, apiFail(404, 'invalid_params', 'The upload_id or upload_token is invalid.', now));
      if (num(job.upload_expires_at) <= now)
        return sendAnswer(
          reply,
          apiFail(403, 'invalid_params', 'The upload URL has expired; initialize a new upload.', now),
        );
      const size = num(job.video_size);
      const chunk = num(job.chunk_size);
      const count = num(job.total_chunk_count);
      const next = num(job.uploaded_bytes);
      if (next >= size)
        return sendAnswer(reply, apiFail(400, 'invalid_params', 'The upload is already complete.', now));
      const type = (headerValue(req, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!VIDEO_TYPES.includes(type)) {
        return sendAnswer(
          reply,
          apiFail(400, 'invalid_params', `Content-Type must be one of ${VIDEO_TYPES.join(', ')}.`, now),
        );
      }
      const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(headerValue(req, 'content-range') ?? '');
      if (!range)
        return sendAnswer(
          reply,
          apiFail(400, 'invalid_params', 'A Content-Range header "bytes {first}-{last}/{total}" is required.', now),
        );
      const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
      const index = Math.floor(next / chunk);
      const expectedLast = index >= count - 1 ? size - 1 : next + chunk - 1;
      if (total !== size || first !== next || last !== expectedLast) {
        return sendAnswer(
          reply,
          apiFail(
            416,
            'invalid_params',
            `Requested range not satisfiable: expected chunk ${index + 1}/${count} as bytes ${next}-${expectedLast}/${size}, got ${first}-${last}/${total}.`,
            now,
          ),
        );
      }
      const bytes = bodyBytes(req);
      if (bytes.length !== last - first + 1) {
        return sendAnswer(
          reply,
          apiFail(
            400,
            'invalid_params',
            `The body has ${bytes.length} bytes but Content-Range announces ${last - first + 1}.`,
            now,
          ),
        );
      }
      if (first === 0) job.mimeType = sniff(bytes);
      job.uploaded_bytes = last + 1;
      if (last + 1 < size) return reply.code(206).send();
      const account = call.slice.accounts.get(job.accountId);
      if (account)
        finishJob(
          call,
          req,
          job,
          account,
          isVideo(typeof job.mimeType === 'string' ? job.mimeType : null) ? null : 'file_format_check_failed',
        );
      return reply.code(201).send();
    },
  });
}
