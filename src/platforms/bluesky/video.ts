// Video through Bluesky's video service: a service token from the account's PDS (getServiceAuth, audience the PDS's
// did:web, method com.atproto.repo.uploadBlob), the bytes to app.bsky.video.uploadVideo, then getJobStatus until the
// service has transcoded the video and written the result to the PDS as a blob.
import type { PublishMedia } from '../publishing.ts';
import { PlatformError } from '../types.ts';
import { isBlobRef, postBytes } from './blobs.ts';
import type { BlobRef } from './blobs.ts';
import { blueskyError, blueskyFailure } from './errors.ts';
import { safeText } from '../errors.ts';
import { stringField, xrpc } from './xrpc.ts';
import { documentedError } from '../documented-errors.ts';
import { BLUESKY_DOCUMENTED_ERRORS } from './documented-errors.ts';
import type { JsonObject, XrpcClient } from './xrpc.ts';

export interface VideoJob {
  jobId: string | null;
  state: string;
  /** Present once the processed video is on the PDS; also on an `already_exists` refusal. */
  blob: BlobRef | null;
  error: string | null;
  message: string | null;
}

export const JOB_COMPLETED = 'JOB_STATE_COMPLETED';
export const JOB_FAILED = 'JOB_STATE_FAILED';
// Long enough for a large upload; the PDS allows at most an hour for a method-bound token.
const TOKEN_LIFETIME_SEC = 30 * 60;

/** The lexicon wraps the status in `jobStatus`; the deployed service has also answered with it unwrapped. */
function readJob(data: unknown): VideoJob | null {
  if (!data || typeof data !== 'object') return null;
  const outer = data as JsonObject;
  const inner = outer.jobStatus && typeof outer.jobStatus === 'object' ? (outer.jobStatus as JsonObject) : outer;
  const jobId = stringField(inner, 'jobId') ?? null;
  const blob = isBlobRef(inner.blob) ? inner.blob : null;
  if (!jobId && !blob) return null;
  return {
    jobId,
    state: stringField(inner, 'state') ?? '',
    blob,
    error: stringField(inner, 'error') ?? stringField(outer, 'error') ?? null,
    message: stringField(inner, 'message') ?? stringField(outer, 'message') ?? null,
  };
}

/** The did:web of the PDS host: the audience the video service expects, and not the entryway's. */
export function pdsServiceDid(pds: string): string {
  return `did:web:${new URL(pds).hostname}`;
}

export async function serviceToken(client: XrpcClient, pds: string, accessToken: string, scope = { aud: pdsServiceDid(pds), lxm: 'com.atproto.repo.uploadBlob' }): Promise<string> {
  const exp = Math.floor(client.clock().getTime() / 1000) + TOKEN_LIFETIME_SEC;
  const out = await xrpc(client, {
    base: pds,
    nsid: 'com.atproto.server.getServiceAuth',
    method: 'GET',
    context: 'access',
    bearer: accessToken,
    params: { aud: scope.aud, lxm: scope.lxm, exp: String(exp) },
  });
  const token = stringField(out, 'token');
  if (!token) throw blueskyFailure('transient', 'Bluesky answered getServiceAuth without a token');
  return token;
}

export async function uploadVideo(client: XrpcClient, video: string, token: string, did: string, media: PublishMedia): Promise<VideoJob> {
  const name = `${media.id}.${media.format || 'mp4'}`;
  const res = await postBytes(client, { base: video, nsid: 'app.bsky.video.uploadVideo', bearer: token, media, params: { did, name } });
  // A video the service has seen before is refused with `already_exists` but still names its job and blob.
  const job = readJob(res.data);
  if (job && (res.status < 300 || job.blob)) return job;
  if (res.status === 401) {
    // The service token, not the user's session, was refused: refreshing the session would not help.
    throw new PlatformError('bluesky', 'permission', 'The Bluesky video service refused the upload token', { status: 401 });
  }
  if (res.status >= 200 && res.status < 300) throw blueskyFailure('transient', 'The Bluesky video service answered without a job');
  throw blueskyError(res, 'public', client.clock());
}

/**
 * The video service's daily limits (videos and bytes per account), asked before an upload so a spent day is a wait,
 * not a refused upload. A service that cannot answer (none, or an older one) does not stop the upload.
 */
export async function assertUploadAllowed(client: XrpcClient, video: string, pds: string, accessToken: string, media: PublishMedia): Promise<void> {
  let limits: JsonObject;
  try {
    const token = await serviceToken(client, pds, accessToken, { aud: `did:web:${new URL(video).hostname}`, lxm: 'app.bsky.video.getUploadLimits' });
    limits = await xrpc(client, { base: video, nsid: 'app.bsky.video.getUploadLimits', method: 'GET', context: 'public', bearer: token });
  } catch (err) {
    client.logger.debug({ platform: 'bluesky', err: err instanceof Error ? err.message : String(err) }, 'video upload limits unavailable');
    return;
  }
  const bytes = typeof limits.remainingDailyBytes === 'number' ? limits.remainingDailyBytes : null;
  const code = limits.canUpload === false ? 'daily_video_limit' : bytes !== null && bytes < media.size ? 'daily_bytes_limit' : null;
  if (!code) return;
  const said = safeText(limits.message);
  throw documentedError(BLUESKY_DOCUMENTED_ERRORS, code, new PlatformError('bluesky', 'rate_limited', `Bluesky video upload limit${said ? `: ${said}` : ''}`, { code }));
}

export async function jobStatus(client: XrpcClient, video: string, jobId: string): Promise<VideoJob> {
  const out = await xrpc(client, { base: video, nsid: 'app.bsky.video.getJobStatus', method: 'GET', context: 'public', params: { jobId } });
  const job = readJob(out);
  if (!job) throw blueskyFailure('transient', 'The Bluesky video service answered without a job status');
  return job;
}

/**
 * The video service is absent (a self-hosted or local PDS has none, or the configured URL answers nothing) rather
 * than refusing this video: the caller then uploads the video to the PDS directly.
 */
export function videoServiceUnavailable(err: unknown): boolean {
  if (!(err instanceof PlatformError)) return false;
  if (err.kind === 'unsupported' || err.kind === 'not_found') return true;
  // An overloaded service is there: the upload waits for it rather than going to the PDS's smaller blob limit.
  if (err.code === 'ServiceOverloaded') return false;
  return err.kind === 'transient' && (err.status === undefined || err.status === 502 || err.status === 503 || err.status === 504);
}

/** Why a failed job failed, as a PlatformError. */
export function jobFailure(job: VideoJob): PlatformError {
  const detail = safeText([job.error, job.message].filter(Boolean).join(': ')) || 'processing failed';
  return new PlatformError('bluesky', 'invalid_content', `The Bluesky video service could not process the video (${detail})`, job.error ? { code: job.error } : {});
}
