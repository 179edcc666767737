// Bluesky's documented errors for what Herald calls (createSession, refreshSession, uploadBlob, createRecord,
// getPostThread, and the video service: getUploadLimits, uploadVideo, getJobStatus), from the AT Protocol lexicons,
// the reference PDS's XRPC errors, and Bluesky's video and rate-limit guides. See ../documented-errors.ts.
import type { DocumentedError } from '../documented-errors.ts';

const DAY = 24 * 3600;
const xrpc = (error: string, message: string) => ({ error, message });

export const BLUESKY_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  { code: 'ExpiredToken', meaning: 'access JWT expired (HTTP 400, not 401)', kind: 'auth_expired', retry: 'after a session refresh', simulated: { operation: 'publish', fault: 'expire_token' } },
  {
    code: 'ExpiredToken/refresh', meaning: '"Token has been revoked": the refresh JWT is past its 2 h grace or its app password was revoked', kind: 'reauth_required', retry: 'no: reconnect',
    via: 'refresh', simulated: { operation: 'refresh', fault: 'revoke' },
  },
  { code: 'InvalidToken', meaning: 'bad or revoked JWT, wrong scope', kind: 'auth_expired', retry: 'after a session refresh', simulated: { operation: 'publish', fault: 'error', error: 'invalid_token' } },
  { code: 'AuthMissing', meaning: 'no usable credential (401)', kind: 'auth_expired', retry: 'after a session refresh', simulated: { operation: 'publish', fault: 'error', error: 'auth_missing' } },
  {
    code: 'AuthenticationRequired', meaning: '"Invalid identifier or password" at createSession', kind: 'invalid_content', retry: 'no',
    words: 'Invalid handle or app password', via: 'login', simulated: { operation: 'token', fault: 'error', error: 'bad_login' },
  },
  {
    code: 'AuthFactorTokenRequired', meaning: 'email sign-in code required (main password only; app passwords skip it)', kind: 'invalid_content', retry: 'no',
    words: 'This Bluesky account asks for an email sign-in code; use an app password instead', via: 'login', simulated: { operation: 'token', fault: 'error', error: 'auth_factor' },
  },
  { code: 'AccountTakedown', meaning: 'account taken down', kind: 'reauth_required', retry: 'no', words: 'This Bluesky account has been taken down', simulated: { operation: 'publish', fault: 'error', error: 'account_takedown' } },
  { code: 'AccountDeactivated', meaning: 'account deactivated', kind: 'reauth_required', retry: 'no', words: 'This Bluesky account is deactivated', simulated: { operation: 'publish', fault: 'error', error: 'account_deactivated' } },
  { code: 'RateLimitExceeded', meaning: 'write points (5,000/h, 35,000/day) or requests (3,000/5 min) spent', kind: 'rate_limited', retry: 'after `RateLimit-Reset`', simulated: { operation: 'publish', fault: 'rate_limit' } },
  {
    code: 'RateLimitExceeded/createSession', meaning: 'logins of a handle: 30 per 5 min, 100 (entryway) or 300 (PDS) a day', kind: 'rate_limited', retry: 'after `RateLimit-Reset`',
    via: 'login', simulated: { operation: 'token', fault: 'rate_limit' },
  },
  { code: 'InvalidRequest', meaning: 'lexicon validation of the record (text too long, blob too big, bad facet)', kind: 'invalid_content', retry: 'no', simulated: { operation: 'publish', fault: 'error', error: 'invalid_record' } },
  {
    code: 'InvalidSwap', meaning: 'swapCommit / swapRecord does not match the repo', kind: 'invalid_content', retry: 'no',
    simulated: { reason: 'Herald sends no swapCommit or swapRecord, so the PDS never compares one', status: 400, body: xrpc('InvalidSwap', 'Commit was at bafyreib…') },
  },
  { code: 'InvalidMimeType', meaning: 'the record\'s blob MIME type differs from the uploaded blob\'s', kind: 'invalid_content', retry: 'no', simulated: { operation: 'publish', fault: 'error', error: 'invalid_mime_type' } },
  { code: 'InvalidSize', meaning: 'the record\'s blob size differs from the uploaded blob\'s', kind: 'invalid_content', retry: 'no', simulated: { operation: 'publish', fault: 'error', error: 'invalid_size' } },
  {
    code: 'BlobNotFound', meaning: 'a referenced blob is gone (unreferenced blobs are garbage-collected)', kind: 'not_found', retry: 'blobs uploaded again once, then not retried',
    simulated: { operation: 'publish', fault: 'error', error: 'blob_not_found' },
  },
  { code: 'PayloadTooLarge', meaning: '"request entity too large": over the PDS blob cap (50 MB on bsky.social)', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'payload_too_large' } },
  { code: 'NotFound', meaning: 'getPostThread: no such post (or not indexed yet)', kind: 'not_found', retry: 'no (the post is marked gone)', via: 'comments', simulated: { operation: 'comments', fault: 'error', error: 'thread_not_found' } },
  {
    code: 'BlockedActor', meaning: 'getAuthorFeed of an actor the viewer blocks (`BlockedByActor`: who blocks the viewer)', kind: 'invalid_content', retry: 'no',
    simulated: { reason: 'Herald reads only the connected account\'s own feed, which cannot block itself', status: 400, body: xrpc('BlockedActor', 'Requester has blocked actor') },
  },
  { code: 'InternalServerError', meaning: 'server error (500)', kind: 'transient', retry: 'retried with backoff', simulated: { operation: 'publish', fault: 'server_error' } },
  { code: 'UpstreamFailure', meaning: 'the AppView or another upstream failed (502)', kind: 'transient', retry: 'retried with backoff', simulated: { operation: 'publish', fault: 'error', error: 'upstream_failure' } },
  { code: 'NotEnoughResources', meaning: 'server out of resources (503)', kind: 'transient', retry: 'retried with backoff', simulated: { operation: 'publish', fault: 'error', error: 'not_enough_resources' } },
  { code: 'UpstreamTimeout', meaning: 'upstream timed out (504)', kind: 'transient', retry: 'retried with backoff', simulated: { operation: 'publish', fault: 'error', error: 'upstream_timeout' } },
  {
    code: 'already_exists', meaning: 'video service: this video was processed before; the answer names the earlier job (and sometimes its blob)', kind: 'transient', retry: 'the earlier job is reused: polled for its blob',
    outcome: 'processing', simulated: { operation: 'upload', fault: 'error', error: 'already_exists' },
  },
  {
    code: 'VideoTooLarge', meaning: 'video service: the video is over its size limit', kind: 'invalid_content', retry: 'no',
    words: 'The video is larger than Bluesky\'s video service takes: shorten or compress it', simulated: { operation: 'upload', fault: 'error', error: 'video_too_large' },
  },
  {
    code: 'ServiceOverloaded', meaning: 'video service: too busy to take the upload', kind: 'transient', retry: 'retried with backoff (no fallback to the PDS)',
    words: 'Bluesky\'s video service is busy; Herald tries again shortly', simulated: { operation: 'upload', fault: 'error', error: 'service_overloaded' },
  },
  {
    code: 'unconfirmed_email', meaning: 'video service: Bluesky-hosted accounts need a confirmed email to upload video', kind: 'invalid_content', retry: 'no',
    words: 'Bluesky takes videos only from accounts with a confirmed email address: confirm it in Bluesky\'s settings, then publish again', simulated: { operation: 'upload', fault: 'error', error: 'unconfirmed_email' },
  },
  {
    code: 'JOB_STATE_FAILED', meaning: 'video service: processing failed (`validation_failure`, `encoding_failure`, `pds_upload_failure`, …)', kind: 'invalid_content', retry: 'no',
    words: 'The Bluesky video service could not process the video', via: 'status', simulated: { operation: 'upload', fault: 'error', error: 'job_failed' },
  },
  {
    code: 'remainingDailyVideos', meaning: 'getUploadLimits: the account\'s daily video count is spent (`canUpload: false`)', kind: 'rate_limited', retry: 'after 24 h', retryAfterSeconds: DAY,
    words: 'Bluesky\'s daily video upload limit for this account is reached; Herald tries again in 24 hours', simulated: { operation: 'status', fault: 'error', error: 'daily_videos' },
  },
  {
    code: 'remainingDailyBytes', meaning: 'getUploadLimits: fewer bytes left today than the video has', kind: 'rate_limited', retry: 'after 24 h', retryAfterSeconds: DAY,
    words: 'Bluesky\'s daily video upload size for this account is used up; Herald tries again in 24 hours', simulated: { operation: 'status', fault: 'error', error: 'daily_bytes' },
  },
];
