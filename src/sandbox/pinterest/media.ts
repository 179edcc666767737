// Video uploads: POST /v5/media registers one (→ upload_url + upload_parameters of a pre-signed S3 POST); the client
// POSTs multipart/form-data to upload_url with every parameter as a field and the file as the field `file`, last
// (S3 ignores fields after the file and answers 204 or an XML error); GET /v5/media/{id} then reports
// registered → processing → succeeded (or failed).
import { createHash } from 'node:crypto';
import { isObj, jsonBody } from '../core/http.ts';
import { randomAlnum, randomDigits, randomHex, randomUrlSafe } from '../core/ids.ts';
import { isVideo, parseMultipart, sniff, UPLOAD_BODY_LIMIT } from '../core/media.ts';
import type { MultipartFile } from '../core/media.ts';
import { findObject, num, objectsOf, putObject } from '../core/objects.ts';
import { schedule } from '../core/processing.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { ErrorAnswer, Simulator } from '../core/route.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { authed } from './api.ts';
import { pinError } from './errors.ts';

const UPLOAD_TTL_MS = 60 * 60 * 1000;

function s3Error(status: number, code: string, message: string): ErrorAnswer {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${randomHex(16).toUpperCase()}</RequestId><HostId>${randomUrlSafe(56)}</HostId></Error>`;
  return { status, body, contentType: 'application/xml' };
}

function mediaView(media: ObjectRecord): JsonObject {
  return { media_id: media.id, media_type: media.media_type ?? 'video', status: media.status ?? 'registered' };
}

/** The S3 fields up to the file: fields after `file` are ignored, as S3 does. */
function fieldsBeforeFile(entries: Array<{ name: string; value: string | MultipartFile }>): {
  fields: Record<string, string>;
  file: MultipartFile | null;
} {
  const fields: Record<string, string> = {};
  for (const entry of entries) {
    if (entry.name === 'file' && typeof entry.value !== 'string') return { fields, file: entry.value };
    if (typeof entry.value === 'string' && !(entry.name in fields)) fields[entry.name] = entry.value;
  }
  return { fields, file: null };
}

export function registerPinterestMedia(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/v5/media',
    ops: ['upload'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = authed(req, reply, call, ['pins:write']);
      if (!account) return reply;
      const type = jsonBody(req)?.media_type;
      if (type !== 'video')
        return sendAnswer(
          reply,
          pinError(400, 1, `Invalid request: '${String(type)}' is not one of ['video'] - 'media_type'`),
        );
      const id = randomDigits(18);
      const now = call.ctx.now();
      const day = now.toISOString().slice(0, 10).replace(/-/g, '');
      const stamp = `${day}T${now.toISOString().slice(11, 19).replace(/:/g, '')}Z`;
      const key = `uploads/${randomHex(2)}/${randomHex(2)}/${randomHex(2)}/${account.id}:video:${id}:${randomDigits(19)}`;
      const expiration = new Date(call.ctx.nowMs() + UPLOAD_TTL_MS).toISOString();
      const policy = Buffer.from(
        JSON.stringify({ expiration, conditions: [{ bucket: 'pinterest-media-upload' }, ['eq', '$key', key]] }),
      ).toString('base64');
      const uploadParameters = {
        'x-amz-date': stamp,
        'x-amz-signature': createHash('sha256').update(`${key}${policy}`).digest('hex'),
        'x-amz-security-token': randomUrlSafe(200),
        'x-amz-algorithm': 'AWS4-HMAC-SHA256',
        key,
        policy,
        'x-amz-credential': `ASIA${randomAlnum(16).toUpperCase()}/${day}/us-east-1/s3/aws4_request`,
        'Content-Type': 'multipart/form-data',
      };
      const uploadUrl = `${call.ctx.base('pinterest')}/_s3/pinterest-media-upload/`;
      putObject(call, 'media', {
        id,
        accountId: account.id,
        kind: 'video',
        media_type: 'video',
        status: 'registered',
        upload_url: uploadUrl,
        upload_parameters: uploadParameters,
        // Error faults armed on `upload` apply to this upload: its policy already expired, S3 refusing it, or its
        // processing failing.
        expiresAt: call.outcome?.expired === true ? call.ctx.nowMs() - 1 : call.ctx.nowMs() + UPLOAD_TTL_MS,
        s3Refusal: isObj(call.outcome?.s3) ? call.outcome.s3 : null,
        failProcessing: call.outcome?.failProcessing === true,
        bytes: null,
        mimeType: null,
      });
      return reply
        .code(201)
        .send({ media_id: id, media_type: 'video', upload_url: uploadUrl, upload_parameters: uploadParameters });
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/_s3/pinterest-media-upload/',
    ops: ['upload'],
    surface: 'api',
    bodyLimit: UPLOAD_BODY_LIMIT,
    faultAnswer: (kind) =>
      kind === 'rate_limit'
        ? s3Error(503, 'SlowDown', 'Please reduce your request rate.')
        : s3Error(500, 'InternalError', 'We encountered an internal error. Please try again.'),
    handler: async (req, reply, call) => {
      const form = await parseMultipart(req);
      if (!form)
        return sendAnswer(
          reply,
          s3Error(400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.'),
        );
      const { fields, file } = fieldsBeforeFile(form.entries);
      if (!file)
        return sendAnswer(reply, s3Error(400, 'InvalidArgument', 'POST requires exactly one file upload per request.'));
      if (!fields.key) {
        return sendAnswer(
          reply,
          s3Error(
            400,
            'InvalidArgument',
            "Bucket POST must contain a field named 'key'.  If it is specified, please check the order of the fields.",
          ),
        );
      }
      const media = [...call.slice.media.values()].find(
        (m) => isObj(m.upload_parameters) && m.upload_parameters.key === fields.key,
      );
      if (!media || !isObj(media.upload_parameters))
        return sendAnswer(
          reply,
          s3Error(403, 'AccessDenied', 'Invalid according to Policy: Policy Condition failed: ["eq", "$key", ...]'),
        );
      if (num(media.expiresAt) <= call.ctx.nowMs())
        return sendAnswer(reply, s3Error(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.'));
      const mismatch = Object.entries(media.upload_parameters).find(
        ([name, value]) => name !== 'Content-Type' && fields[name] !== value,
      );
      if (mismatch) {
        return sendAnswer(
          reply,
          s3Error(
            403,
            'SignatureDoesNotMatch',
            `The request signature we calculated does not match the signature you provided (field ${mismatch[0]}). Check your key and signing method.`,
          ),
        );
      }
      if (isObj(media.s3Refusal))
        return sendAnswer(
          reply,
          s3Error(Number(media.s3Refusal.status), String(media.s3Refusal.code), String(media.s3Refusal.message)),
        );
      const mime = sniff(file.bytes);
      Object.assign(media, { bytes: file.bytes.length, mimeType: mime, uploadedAt: call.ctx.now().toISOString() });
      schedule(call.ctx, 'pinterest', media, [
        { at: 0, set: { status: 'processing' } },
        { at: 1, set: { status: isVideo(mime) && media.failProcessing !== true ? 'succeeded' : 'failed' } },
      ]);
      return reply.code(204).send();
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v5/media/:id',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = authed(req, reply, call, ['pins:read']);
      if (!account) return reply;
      const media = findObject(call, 'media', (req.params as { id: string }).id);
      if (!media || media.accountId !== account.id)
        return sendAnswer(reply, pinError(404, 404, 'Media upload not found.'));
      return reply.send(mediaView(media));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v5/media',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = authed(req, reply, call, ['pins:read']);
      if (!account) return reply;
      return reply.send({ items: objectsOf(call, 'media', account.id).reverse().map(mediaView), bookmark: null });
    },
  });
}
