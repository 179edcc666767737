// Images API: POST /rest/images?action=initializeUpload → upload URL + image URN; PUT of the whole file to that URL
// (bearer required); GET /rest/images/{urn} → WAITING_UPLOAD | PROCESSING | AVAILABLE | PROCESSING_FAILED.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, isObj, jsonBody, queryParams } from '../core/http.ts';
import { randomAlnum, randomUrlSafe } from '../core/ids.ts';
import { bodyBytes, sniff, UPLOAD_BODY_LIMIT } from '../core/media.ts';
import { findObject, putObject, text } from '../core/objects.ts';
import { schedule } from '../core/processing.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { apiError, notFound, tokenError } from './errors.ts';
import { actorProblem, inputError, pathObject, restAuth } from './rest.ts';

const IMAGE_URL_TTL_MS = 24 * 60 * 60 * 1000;
const IMAGE_FORMATS = ['image/jpeg', 'image/png', 'image/gif'];

export function downloadUrl(key: string, nowMs: number): string {
  return `https://media.licdn.com/dms/image/v2/${key}/feedshare-shrink_2048_1536/0/?e=${Math.floor(nowMs / 1000) + 86_400 * 60}&v=beta`;
}

/** The `action=` a Rest.li action call names, answering the error itself when it is not the expected one. */
export function actionOk(req: FastifyRequest, reply: FastifyReply, allowed: string[]): string | null {
  const action = queryParams(req).action ?? '';
  if (allowed.includes(action)) return action;
  sendAnswer(
    reply,
    apiError(
      400,
      'ILLEGAL_ARGUMENT',
      `Action "${action}" is not supported on this resource; expected one of ${allowed.join(', ')}`,
    ),
  );
  return null;
}

/** `initializeUploadRequest` of an action body, with its owner checked for write permission. */
export function initRequest(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  resource: string,
): { owner: string; input: JsonObject; accountId: string } | null {
  const auth = restAuth(req, reply, call);
  if (!auth) return null;
  const input = jsonBody(req)?.initializeUploadRequest;
  if (!isObj(input)) {
    sendAnswer(
      reply,
      inputError('MISSING_FIELD', '/initializeUploadRequest', 'Field /initializeUploadRequest is required'),
    );
    return null;
  }
  const owner = typeof input.owner === 'string' ? input.owner : '';
  if (!owner) {
    sendAnswer(
      reply,
      inputError('MISSING_FIELD', '/initializeUploadRequest/owner', 'Field /initializeUploadRequest/owner is required'),
    );
    return null;
  }
  const problem = actorProblem(auth, owner, 'write', resource, 'ACTION');
  if (problem) {
    sendAnswer(reply, problem);
    return null;
  }
  return { owner, input: JSON.parse(JSON.stringify(input)) as JsonObject, accountId: auth.account.id };
}

export function imageView(record: ObjectRecord): JsonObject {
  const out: JsonObject = {
    owner: record.owner ?? null,
    status: record.status ?? null,
    id: record.id,
    mediaTypeFamily: 'STILLIMAGE',
  };
  if (record.status === 'AVAILABLE') {
    out.downloadUrl = record.downloadUrl ?? null;
    out.downloadUrlExpiresAt = record.downloadUrlExpiresAt ?? null;
  }
  return out;
}

function acceptImage(call: Call, req: FastifyRequest, reply: FastifyReply, image: ObjectRecord): FastifyReply {
  const checked = checkToken(call, bearerToken(req), ['access']);
  if (!checked.ok) return sendAnswer(reply, tokenError(checked.problem));
  if (checked.token.accountId !== image.accountId) {
    return sendAnswer(reply, apiError(403, 'ACCESS_DENIED', 'Accessing this image resource is forbidden', 100));
  }
  const bytes = bodyBytes(req);
  const mime = sniff(bytes);
  // Repeated PUTs overwrite: the last upload is the one that gets processed.
  Object.assign(image, {
    status: 'PROCESSING',
    bytes: bytes.length,
    mimeType: mime,
    uploadedAt: call.ctx.now().toISOString(),
  });
  const ok = bytes.length > 0 && mime !== null && IMAGE_FORMATS.includes(mime);
  schedule(call.ctx, 'linkedin', image, [
    ok
      ? {
          at: 1,
          set: {
            status: 'AVAILABLE',
            downloadUrl: downloadUrl(text(image.key), call.ctx.nowMs()),
            downloadUrlExpiresAt: call.ctx.nowMs() + 86_400_000 * 60,
          },
        }
      : { at: 1, set: { status: 'PROCESSING_FAILED' } },
  ]);
  return reply.code(201).send();
}

export function registerLinkedInImages(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/rest/images',
    ops: ['upload'],
    surface: 'api',
    handler: (req, reply, call) => {
      if (!actionOk(req, reply, ['initializeUpload'])) return reply;
      const init = initRequest(req, reply, call, 'images');
      if (!init) return reply;
      const key = `D4E10AQ${randomAlnum(12)}`;
      const uploadToken = randomUrlSafe(40);
      // The `expired_upload_url` fault hands out a URL that has already expired; `too_large` / `unsupported_type`
      // make its upload be refused.
      const expiresAt = call.outcome?.expired === true ? call.ctx.nowMs() - 1 : call.ctx.nowMs() + IMAGE_URL_TTL_MS;
      const refusal = isObj(call.outcome?.refusal) ? call.outcome.refusal : null;
      const uploadUrl = `${call.ctx.base('linkedin')}/dms-uploads/sp/v2/${key}/uploaded-image/0?ca=vector_feedshare&cn=uploads&sync=0&v=beta&ut=${uploadToken}`;
      const image = putObject(call, 'media', {
        id: `urn:li:image:${key}`,
        accountId: init.accountId,
        kind: 'image',
        key,
        owner: init.owner,
        status: 'WAITING_UPLOAD',
        uploadUrl,
        uploadUrlExpiresAt: expiresAt,
        uploadToken,
        bytes: null,
        mimeType: null,
        refusal,
      });
      return reply.send({ value: { uploadUrlExpiresAt: expiresAt, uploadUrl, image: image.id } });
    },
  });

  addRoute(sim, {
    method: 'PUT',
    url: '/dms-uploads/sp/v2/:asset/uploaded-image/:part',
    ops: ['upload'],
    surface: 'api',
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: (req, reply, call) => {
      const { asset } = req.params as { asset: string };
      const image = findObject(call, 'media', `urn:li:image:${asset}`);
      if (!image || queryParams(req).ut !== image.uploadToken)
        return sendAnswer(reply, notFound(`urn:li:image:${asset}`));
      if (Number(image.uploadUrlExpiresAt) <= call.ctx.nowMs()) {
        return sendAnswer(reply, apiError(400, 'EXPIRED_UPLOAD_URL', 'The upload URL has expired'));
      }
      if (isObj(image.refusal))
        return sendAnswer(
          reply,
          apiError(Number(image.refusal.status), String(image.refusal.code), String(image.refusal.message)),
        );
      return acceptImage(call, req, reply, image);
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/images/:urn',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const found = pathObject(req, reply, call, 'media', 'image');
      if (!found) return reply;
      // w_member_social is write-only: reading an image back needs a read permission on its owner.
      const problem = actorProblem(found.auth, text(found.record.owner), 'read', 'images', 'GET');
      if (problem) return sendAnswer(reply, problem);
      return reply.send(imageView(found.record));
    },
  });
}
