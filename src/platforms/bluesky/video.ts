// Video through Bluesky's video service: a service token from the account's PDS (getServiceAuth, audience the PDS's
// did:web, method com.atproto.repo.uploadBlob), the bytes to app.bsky.video.uploadVideo, then getJobStatus until the
// service has transcoded the video and written the result to the PDS as a blob.
import type { PublishMedia } from '../publishing.ts';
import { PlatformError } from '../types.ts';
import { isBlobRef, postBytes } from './blobs.ts';
import type { BlobRef } from './blobs.ts';
import { blueskyError, blueskyFailure, documented } from './errors.ts';
import { safeText } from '../errors.ts';
import { numberField, stringField, xrpc } from './xrpc.ts';
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
const ALREADY_EXISTS = 'already_exists';
/** The audience of a getUploadLimits token: the video service itself. */
const VIDEO_SERVICE_DID = 'did:web:video.bsky.app';
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

/**
 * The error name of a job status the service answered with no job (`{jobStatus: {error: "unconfirmed_email", jobId:
 * ""}}`).
 */
function jobError(data: unknown): string | undefined {
  const outer = data && typeof data === 'object' ? (data as JsonObject) : {};
  const inner = outer.jobStatus && typeof outer.jobStatus === 'object' ? (outer.jobStatus as JsonObject) : {};
  const name = stringField(inner, 'error');
  return name && /^[a-z_]{1,64}$/.test(name) ? name : undefined;
}

/** The did:web of the PDS host: the audience the video service expects, and not the entryway's. */
export function pdsServiceDid(pds: string): string {
  return `did:web:${new URL(pds).hostname}`;
}

/** A service token for the video service: by default for uploadVideo (audience the PDS), or `lxm` at `aud`. */
export async function serviceToken(
  client: XrpcClient,
  pds: string,
  accessToken: string,
  aud = pdsServiceDid(pds),
  lxm = 'com.atproto.repo.uploadBlob',
): Promise<string> {
  const exp = Math.floor(client.clock().getTime() / 1000) + TOKEN_LIFETIME_SEC;
  const out = await xrpc(client, {
    base: pds,
    nsid: 'com.atproto.server.getServiceAuth',
    method: 'GET',
    context: 'access',
    bearer: accessToken,
    params: { aud, lxm, exp: String(exp) },
  });
  const token = stringField(out, 'token');
  if (!token) throw blueskyFailure('transient', 'Bluesky answered getServiceAuth without a token');
  return token;
}

export async function uploadVideo(
  client: XrpcClient,
  video: string,
  token: string,
  did: string,
  media: PublishMedia,
): Promise<VideoJob> {
  const name = `${media.id}.${media.format || 'mp4'}`;
  const res = await postBytes(client, {
    base: video,
    nsid: 'app.bsky.video.uploadVideo',
    bearer: token,
    media,
    params: { did, name },
  });
  // A video the service has processed before is refused with `already_exists`, naming the earlier job and sometimes
  // its blob: that job is the one to use.
  const job = readJob(res.data);
  if (job && (res.status < 300 || job.blob || job.error === ALREADY_EXISTS)) return job;
  // Some refusals come inside an otherwise empty job status (`unconfirmed_email`).
  const refusal = jobError(res.data);
  if (refusal) throw blueskyError(res, 'public', client.clock(), refusal);
  if (res.status === 401) {
    // The service token, not the user's session, was refused: refreshing the session would not help.
    throw new PlatformError('bluesky', 'permission', 'The Bluesky video service refused the upload token', {
      status: 401,
    });
  }
  if (res.status >= 200 && res.status < 300)
    throw blueskyFailure('transient', 'The Bluesky video service answered without a job');
  throw blueskyError(res, 'public', client.clock());
}

export async function jobStatus(client: XrpcClient, video: string, jobId: string): Promise<VideoJob> {
  const out = await xrpc(client, {
    base: video,
    nsid: 'app.bsky.video.getJobStatus',
    method: 'GET',
    context: 'public',
    params: { jobId },
  });
  const job = readJob(out);
  if (!job) throw blueskyFailure('transient', 'The Bluesky video service answered without a job status');
  return job;
}

/**
 * Asks the video service (getUploadLimits) whether this account may upload this video today, and refuses clearly
 * when the day's video count or bytes are spent or the account may not upload video at all.
 */
export async function checkUploadLimits(
  client: XrpcClient,
  video: string,
  pds: string,
  accessToken: string,
  media: PublishMedia,
): Promise<void> {
  const token = await serviceToken(client, pds, accessToken, VIDEO_SERVICE_DID, 'app.bsky.video.getUploadLimits');
  const out = await xrpc(client, {
    base: video,
    nsid: 'app.bsky.video.getUploadLimits',
    method: 'GET',
    context: 'public',
    bearer: token,
  });
  const videos = numberField(out, 'remainingDailyVideos');
  const bytes = numberField(out, 'remainingDailyBytes');
  const said = safeText([stringField(out, 'error'), stringField(out, 'message')].filter(Boolean).join(': '));
  const refuse = (code: string, kind: PlatformError['kind'], fallback: string) =>
    documented(code, blueskyFailure(kind, said || fallback));
  if (videos !== null && videos <= 0) throw refuse('remainingDailyVideos', 'rate_limited', 'no videos left today');
  if (bytes !== null && bytes < media.size)
    throw refuse('remainingDailyBytes', 'rate_limited', `${bytes} bytes left today, the video has ${media.size}`);
  if (out.canUpload === false) {
    if (stringField(out, 'error') === 'unconfirmed_email')
      throw refuse('unconfirmed_email', 'invalid_content', 'unconfirmed email');
    throw blueskyFailure(
      'invalid_content',
      `Bluesky's video service does not take videos from this account now${said ? ` (${said})` : ''}`,
    );
  }
}

/**
 * The video service is absent (a self-hosted or local PDS has none, or the configured URL answers nothing) rather
 * than refusing this video: the caller then uploads the video to the PDS directly.
 */
export function videoServiceUnavailable(err: unknown): boolean {
  if (!(err instanceof PlatformError)) return false;
  // An overloaded service is there, only busy: it is retried, not bypassed.
  if (err.code === 'ServiceOverloaded') return false;
  if (err.kind === 'unsupported' || err.kind === 'not_found') return true;
  return (
    err.kind === 'transient' &&
    (err.status === undefined || err.status === 502 || err.status === 503 || err.status === 504)
  );
}

/** Why a failed job failed, as a PlatformError. */
export function jobFailure(job: VideoJob): PlatformError {
  const detail = safeText([job.error, job.message].filter(Boolean).join(': ')) || 'processing failed';
  return documented(JOB_FAILED, blueskyFailure('invalid_content', detail));
}
