// Video through the video service (video.bsky.app, same prefix here): com.atproto.server.getServiceAuth on the PDS
// mints a service token; app.bsky.video.uploadVideo takes the bytes with a token whose `aud` is the user's PDS
// (did:web:<PDS host>) and `lxm` com.atproto.repo.uploadBlob; app.bsky.video.getJobStatus moves through encoding
// and scanning to JOB_STATE_COMPLETED with the processed blob, which then goes into an app.bsky.embed.video post.
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, queryParams } from '../core/http.ts';
import { bodyBytes, isVideo, sniff, UPLOAD_BODY_LIMIT } from '../core/media.ts';
import { findObject, objectsOf, putObject } from '../core/objects.ts';
import { schedule } from '../core/processing.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { checkToken, mintToken } from '../core/tokens.ts';
import type { JsonObject, ObjectRecord, TokenRecord } from '../core/types.ts';
import { sessionError, xrpcError } from './errors.ts';
import { storeBlob } from './repo.ts';
import { ACCESS_KIND, checkSession, serviceDid, serviceJwt } from './session.ts';

const SERVICE_KIND = 'service';
const UPLOAD_LXM = 'com.atproto.repo.uploadBlob';
const LIMITS_LXM = 'app.bsky.video.getUploadLimits';
const VIDEO_SERVICE_DID = 'did:web:video.bsky.app';
const MAX_VIDEO = 300_000_000;
const DAILY_VIDEOS = 25;
const DAILY_BYTES = 10 * 1024 * 1024 * 1024;

function jobStatus(job: ObjectRecord): JsonObject {
  const out: JsonObject = {
    jobId: job.id,
    did: job.accountId,
    state: job.state ?? 'JOB_STATE_CREATED',
    progress: job.progress ?? 0,
  };
  for (const key of ['blob', 'error', 'message'])
    if (job[key] !== null && job[key] !== undefined) out[key] = job[key] ?? null;
  return out;
}

/** Verifies a service token the way the video service does (audience and lexicon method), answering 401s itself. */
function serviceToken(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  audiences: string[],
  lxm: string,
): TokenRecord | null {
  const raw = bearerToken(req);
  const checked = checkToken(call, raw, [SERVICE_KIND]);
  if (!checked.ok) {
    const answer =
      checked.problem === 'missing'
        ? xrpcError(401, 'AuthMissing', 'Authentication Required')
        : checked.problem === 'expired'
          ? xrpcError(401, 'JwtExpired', 'jwt expired')
          : xrpcError(401, 'BadJwtSignature', 'jwt signature does not match jwt issuer');
    sendAnswer(reply, answer);
    return null;
  }
  if (!audiences.includes(checked.token.assetId ?? '')) {
    sendAnswer(reply, xrpcError(401, 'BadJwtAudience', 'jwt audience does not match service did'));
    return null;
  }
  if (checked.token.scopes[0] !== lxm) {
    sendAnswer(reply, xrpcError(401, 'BadJwtLexiconMethod', `bad jwt lexicon method ("lxm"). must match: ${lxm}`));
    return null;
  }
  return checked.token;
}

function today(call: Call, did: string): ObjectRecord[] {
  const since = call.ctx.nowMs() - 86_400_000;
  return objectsOf(call, 'containers', did).filter((j) => j.kind === 'video-job' && Date.parse(j.createdAt) > since);
}

/** The account's completed job for these bytes, if the service has processed them. */
function findSeen(call: Call, did: string, digest: string): ObjectRecord | undefined {
  return objectsOf(call, 'containers', did).find(
    (j) => j.kind === 'video-job' && j.digest === digest && j.state === 'JOB_STATE_COMPLETED',
  );
}

/** For the `already_exists` fault: the job as if the service had processed this video on an earlier day. */
function processedBefore(call: Call, did: string, bytes: Buffer, digest: string): ObjectRecord {
  const found = findSeen(call, did, digest);
  if (found) return found;
  const blob = storeBlob(call, did, bytes, 'video/mp4', 'video-service');
  const createdAt = new Date(call.ctx.nowMs() - 2 * 86_400_000).toISOString();
  return putObject(call, 'containers', {
    id: randomUUID(),
    accountId: did,
    kind: 'video-job',
    name: null,
    bytes: bytes.length,
    mimeType: 'video/mp4',
    digest,
    state: 'JOB_STATE_COMPLETED',
    progress: 100,
    blob,
    error: null,
    message: null,
    createdAt,
  });
}

export function registerVideo(sim: Simulator): void {
  const xrpc = (nsid: string) => `/xrpc/${nsid}`;

  addRoute(sim, {
    method: 'GET',
    url: xrpc('com.atproto.server.getServiceAuth'),
    ops: ['token'],
    surface: 'api',
    handler: async (req, reply, call) => {
      const checked = checkSession(call, bearerToken(req), ACCESS_KIND);
      const account = checked.ok ? call.slice.accounts.get(checked.token.accountId) : undefined;
      if (!checked.ok || !account) return sendAnswer(reply, sessionError(checked.ok ? 'invalid' : checked.problem));
      const q = queryParams(req);
      if (!q.aud || !/^did:[a-z]+:\S+$/.test(q.aud))
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Error: Params must have the property "aud"'));
      const now = Math.floor(call.ctx.nowMs() / 1000);
      const exp = q.exp === undefined ? now + 60 : Number(q.exp);
      if (!Number.isInteger(exp) || exp <= now)
        return sendAnswer(reply, xrpcError(400, 'BadExpiration', 'expiration is in past'));
      if (exp - now > 3600)
        return sendAnswer(
          reply,
          xrpcError(400, 'BadExpiration', 'cannot request a token with an expiration more than an hour in the future'),
        );
      if (!q.lxm && exp - now > 60) {
        return sendAnswer(
          reply,
          xrpcError(
            400,
            'BadExpiration',
            'cannot request a method-less token with an expiration more than a minute in the future',
          ),
        );
      }
      const token = await serviceJwt(call.ctx, { iss: account.id, aud: q.aud, exp, ...(q.lxm ? { lxm: q.lxm } : {}) });
      mintToken(call.ctx, call.slice, {
        token,
        kind: SERVICE_KIND,
        clientId: checked.token.clientId,
        accountId: account.id,
        grantId: checked.token.grantId,
        scopes: q.lxm ? [q.lxm] : [],
        ttlSec: exp - now,
        assetId: q.aud,
      });
      return reply.send({ token });
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: xrpc('app.bsky.video.uploadVideo'),
    ops: ['upload'],
    surface: 'api',
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: (req, reply, call) => {
      const token = serviceToken(req, reply, call, [serviceDid(call.ctx)], UPLOAD_LXM);
      if (!token) return reply;
      const q = queryParams(req);
      if (q.did !== token.accountId)
        return sendAnswer(
          reply,
          xrpcError(400, 'InvalidRequest', 'The did parameter must be the DID the service token was issued by'),
        );
      const bytes = bodyBytes(req);
      if (bytes.length > MAX_VIDEO)
        return sendAnswer(reply, xrpcError(400, 'VideoTooLarge', `Videos must be at most ${MAX_VIDEO} bytes`));
      const mime = sniff(bytes);
      // A video the service has processed before is refused with the earlier job (deployed, unwrapped), no blob.
      const digest = createHash('sha256').update(bytes).digest('hex');
      const seen =
        call.outcome?.seen === true
          ? processedBefore(call, token.accountId, bytes, digest)
          : findSeen(call, token.accountId, digest);
      if (seen) {
        return sendAnswer(reply, {
          status: 409,
          body: {
            did: seen.accountId,
            error: 'already_exists',
            jobId: seen.id,
            message: 'Video already processed',
            state: 'JOB_STATE_COMPLETED',
          },
        });
      }
      const failure = typeof call.outcome?.failureCode === 'string' ? call.outcome.failureCode : null;
      const job = putObject(call, 'containers', {
        id: randomUUID(),
        accountId: token.accountId,
        kind: 'video-job',
        name: q.name ?? null,
        bytes: bytes.length,
        mimeType: mime,
        digest,
        state: 'JOB_STATE_CREATED',
        progress: 0,
        blob: null,
        error: null,
        message: null,
      });
      if (failure) {
        schedule(call.ctx, 'bluesky', job, [
          { at: 1, set: { state: 'JOB_STATE_FAILED', error: failure, message: 'Failed to process video' } },
        ]);
      } else if (isVideo(mime)) {
        // The service transcodes to MP4 and writes the result to the user's PDS as a blob.
        const blob = storeBlob(call, token.accountId, bytes, 'video/mp4', 'video-service');
        schedule(call.ctx, 'bluesky', job, [
          { at: 0.25, set: { state: 'JOB_STATE_ENCODING', progress: 25 } },
          { at: 0.5, set: { state: 'JOB_STATE_SCANNING', progress: 50 } },
          { at: 0.75, set: { state: 'JOB_STATE_UPLOADING', progress: 75 } },
          { at: 1, set: { state: 'JOB_STATE_COMPLETED', progress: 100, blob } },
        ]);
      } else {
        schedule(call.ctx, 'bluesky', job, [
          {
            at: 1,
            set: {
              state: 'JOB_STATE_FAILED',
              error: 'validation_failure',
              message: 'The file is not a supported video',
            },
          },
        ]);
      }
      return reply.send({ jobStatus: jobStatus(job) });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: xrpc('app.bsky.video.getJobStatus'),
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const id = queryParams(req).jobId;
      if (!id)
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Error: Params must have the property "jobId"'));
      const job = findObject(call, 'containers', id);
      if (job?.kind !== 'video-job') return sendAnswer(reply, xrpcError(400, 'InvalidRequest', `Job not found: ${id}`));
      return reply.send({ jobStatus: jobStatus(job) });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: xrpc('app.bsky.video.getUploadLimits'),
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const token = serviceToken(req, reply, call, [VIDEO_SERVICE_DID, serviceDid(call.ctx)], LIMITS_LXM);
      if (!token) return reply;
      const jobs = today(call, token.accountId);
      const usedBytes = jobs.reduce((n, j) => n + Number(j.bytes ?? 0), 0);
      // An armed `daily_videos` / `daily_bytes` fault reports that part of the day's allowance spent.
      const remainingDailyVideos = call.outcome?.spent === 'videos' ? 0 : Math.max(0, DAILY_VIDEOS - jobs.length);
      const remainingDailyBytes = call.outcome?.spent === 'bytes' ? 0 : Math.max(0, DAILY_BYTES - usedBytes);
      const canUpload = remainingDailyVideos > 0 && remainingDailyBytes > 0;
      return reply.send({
        canUpload,
        remainingDailyVideos,
        remainingDailyBytes,
        ...(canUpload ? {} : { message: 'You have reached your daily upload limit' }),
      });
    },
  });
}
