// Bluesky's documented errors for what Herald calls (the PDS's createRecord, uploadBlob and getServiceAuth, the video
// service's uploadVideo, getJobStatus and getUploadLimits), from the XRPC error reference, the lexicons and the
// video service's documentation. See ../documented-errors.ts.
import type { DocumentedError, SimulatedBy } from '../documented-errors.ts';

const fault = (error: string, operation = 'publish'): SimulatedBy => ({ operation, fault: 'error', error });
const jobFailed = (code: string, meaning: string): DocumentedError => ({
  code, meaning: `video job failed: ${meaning}`, kind: 'invalid_content', retry: 'no', via: 'video', simulated: fault(code, 'upload'),
});

export const BLUESKY_DAILY_VIDEO_WORDS = 'This Bluesky account reached the video service\'s daily limit (videos or bytes); Herald tries again in 24 hours';

export const BLUESKY_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  { code: 'ExpiredToken', meaning: 'access JWT expired (HTTP 400)', kind: 'auth_expired', retry: 'after refreshSession', simulated: { operation: 'publish', fault: 'expire_token' } },
  { code: 'InvalidToken', meaning: 'access JWT bad or revoked', kind: 'auth_expired', retry: 'after refreshSession; log in again if that fails', simulated: fault('InvalidToken') },
  { code: 'AuthMissing', meaning: 'no credential (HTTP 401)', kind: 'auth_expired', retry: 'after refreshSession; log in again if that fails', simulated: fault('AuthMissing') },
  { code: 'AccountTakedown', meaning: 'the account was taken down', kind: 'reauth_required', retry: 'no', simulated: fault('AccountTakedown') },
  { code: 'AccountDeactivated', meaning: 'the account is deactivated', kind: 'reauth_required', retry: 'no', simulated: fault('AccountDeactivated') },
  { code: 'RateLimitExceeded', meaning: 'rate limit (RateLimit-Reset)', kind: 'rate_limited', retry: 'after `RateLimit-Reset`', simulated: { operation: 'publish', fault: 'rate_limit' } },
  { code: 'InvalidRequest', meaning: 'lexicon validation failed (text too long, bad facet)', kind: 'invalid_content', retry: 'no', simulated: fault('InvalidRequest') },
  { code: 'InvalidSwap', meaning: 'the repo moved on (swap commit)', kind: 'invalid_content', retry: 'no', simulated: fault('InvalidSwap') },
  { code: 'InvalidMimeType', meaning: 'the record\'s blob type differs from the upload', kind: 'invalid_content', retry: 'no', simulated: fault('InvalidMimeType') },
  { code: 'InvalidSize', meaning: 'the record\'s blob size differs from the upload', kind: 'invalid_content', retry: 'no', simulated: fault('InvalidSize') },
  { code: 'PayloadTooLarge', meaning: 'request entity too large (HTTP 413)', kind: 'invalid_content', retry: 'no', simulated: fault('PayloadTooLarge') },
  { code: 'RecordNotFound', meaning: 'the record does not exist (or is not indexed yet)', kind: 'not_found', retry: 'no', simulated: fault('RecordNotFound') },
  { code: 'UpstreamFailure', meaning: 'HTTP 502', kind: 'transient', retry: 'retried', simulated: fault('UpstreamFailure') },
  { code: 'UpstreamTimeout', meaning: 'HTTP 504', kind: 'transient', retry: 'retried', simulated: fault('UpstreamTimeout') },
  { code: 'InternalServerError', meaning: 'HTTP 500', kind: 'transient', retry: 'retried', simulated: { operation: 'publish', fault: 'server_error' } },
  { code: 'NotEnoughResources', meaning: 'HTTP 503', kind: 'transient', retry: 'retried', simulated: fault('NotEnoughResources') },
  { code: 'BlockedActor', meaning: 'the account blocked the actor', kind: 'invalid_content', retry: 'no', simulated: fault('BlockedActor') },
  { code: 'BlockedByActor', meaning: 'the actor blocked the account', kind: 'invalid_content', retry: 'no', simulated: fault('BlockedByActor') },
  {
    code: 'already_exists', meaning: 'video service: this video was processed before (its blob comes with the answer)', kind: 'transient', outcome: 'published', retry: 'none: the blob is used', via: 'video',
    simulated: fault('already_exists', 'upload'),
  },
  {
    code: 'VideoTooLarge', meaning: 'video service: the video is too large', kind: 'invalid_content', retry: 'no', via: 'video',
    words: 'The video is larger than Bluesky\'s video service takes: shorten or compress it',
    simulated: fault('VideoTooLarge', 'upload'),
  },
  {
    code: 'ServiceOverloaded', meaning: 'video service: overloaded', kind: 'transient', retry: 'retried (not uploaded to the PDS instead)', via: 'video',
    words: 'Bluesky\'s video service is overloaded; Herald tries again later',
    simulated: fault('ServiceOverloaded', 'upload'),
  },
  {
    code: 'daily_video_limit', meaning: 'getUploadLimits: `canUpload` false (25 videos or 10 GB a day)', kind: 'rate_limited', retry: 'after 24 h', retryAfterSeconds: 86_400, via: 'video',
    words: BLUESKY_DAILY_VIDEO_WORDS,
    simulated: fault('daily_video_limit', 'status'),
  },
  {
    code: 'daily_bytes_limit', meaning: 'getUploadLimits: `remainingDailyBytes` below the video\'s size', kind: 'rate_limited', retry: 'after 24 h', retryAfterSeconds: 86_400, via: 'video',
    words: BLUESKY_DAILY_VIDEO_WORDS,
    simulated: fault('daily_bytes_limit', 'status'),
  },
  jobFailed('validation_failure', 'the file is not a valid video'),
  jobFailed('encoding_failure', 'the video could not be encoded'),
  jobFailed('pds_upload_failure', 'the processed video could not be written to the PDS'),
  jobFailed('pds_upload_unsupported_blob_size', 'the processed video is too large for the PDS'),
  jobFailed('generic_failure', 'processing failed'),
];
