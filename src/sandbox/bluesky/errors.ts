// XRPC errors: HTTP status plus {error, message}.
import type { ErrorCatalogue } from '../core/documented.ts';
import type { ErrorAnswer, TransientFault } from '../core/route.ts';
import type { TokenProblem } from '../core/tokens.ts';

export function xrpcError(
  status: number,
  error: string,
  message: string,
  headers?: Record<string, string>,
): ErrorAnswer {
  return headers ? { status, body: { error, message }, headers } : { status, body: { error, message } };
}

/** Access-token failures as the reference PDS reports them: expiry and revocation are 400s, not 401s. */
export function sessionError(problem: TokenProblem | 'wrong_type'): ErrorAnswer {
  switch (problem) {
    case 'missing':
      return xrpcError(401, 'AuthMissing', 'Authentication Required');
    case 'expired':
      return xrpcError(400, 'ExpiredToken', 'Token has expired');
    case 'revoked':
      return xrpcError(400, 'ExpiredToken', 'Token has been revoked');
    case 'wrong_type':
      return xrpcError(400, 'InvalidToken', 'Invalid token type');
    default:
      return xrpcError(400, 'InvalidToken', 'Token could not be verified');
  }
}

export function blueskyFault(kind: TransientFault, nowMs: number): ErrorAnswer {
  if (kind === 'rate_limit') {
    return xrpcError(429, 'RateLimitExceeded', 'Rate Limit Exceeded', {
      'ratelimit-limit': '30',
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(Math.floor(nowMs / 1000) + 300),
      'ratelimit-policy': '30;w=300',
    });
  }
  return xrpcError(500, 'InternalServerError', 'Internal Server Error');
}

/**
 * Bluesky's documented errors that no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
 * (core/documented.ts): XRPC answers by error name, and outcomes the video service's handlers apply (a video the
 * service has already processed, a job that fails, the day's video count or bytes spent).
 */
export const BLUESKY_ERRORS: ErrorCatalogue = {
  invalid_token: { answer: xrpcError(400, 'InvalidToken', 'Token could not be verified') },
  auth_missing: { answer: xrpcError(401, 'AuthMissing', 'Authentication Required') },
  bad_login: { answer: xrpcError(401, 'AuthenticationRequired', 'Invalid identifier or password') },
  auth_factor: {
    answer: xrpcError(401, 'AuthFactorTokenRequired', 'A sign in code has been sent to your email address'),
  },
  account_takedown: { answer: xrpcError(401, 'AccountTakedown', 'Account has been taken down') },
  account_deactivated: { answer: xrpcError(401, 'AccountDeactivated', 'Account is deactivated') },
  invalid_record: {
    answer: xrpcError(
      400,
      'InvalidRequest',
      'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes',
    ),
  },
  invalid_mime_type: {
    answer: xrpcError(
      400,
      'InvalidMimeType',
      'Referenced Mimetype does not match stored blob. Expected: image/png, Got: image/jpeg',
    ),
  },
  invalid_size: {
    answer: xrpcError(400, 'InvalidSize', 'Referenced blob size does not match stored blob. Expected: 1000, Got: 999'),
  },
  blob_not_found: {
    answer: xrpcError(
      400,
      'BlobNotFound',
      'Could not find blob: bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
    ),
  },
  payload_too_large: { answer: xrpcError(413, 'PayloadTooLarge', 'request entity too large') },
  thread_not_found: { answer: xrpcError(400, 'NotFound', 'Post not found') },
  upstream_failure: { answer: xrpcError(502, 'UpstreamFailure', 'Upstream Failure') },
  not_enough_resources: { answer: xrpcError(503, 'NotEnoughResources', 'Not Enough Resources') },
  upstream_timeout: { answer: xrpcError(504, 'UpstreamTimeout', 'Upstream Timeout') },
  // The video service.
  video_too_large: { answer: xrpcError(400, 'VideoTooLarge', 'Video is too large') },
  service_overloaded: {
    answer: xrpcError(503, 'ServiceOverloaded', 'The video service is overloaded, please try again later'),
  },
  // The deployed service answers this inside an otherwise empty job status (no job id).
  unconfirmed_email: {
    answer: { status: 400, body: { jobStatus: { did: '', error: 'unconfirmed_email', jobId: '', state: '' } } },
  },
  already_exists: { outcome: { seen: true } },
  job_failed: { outcome: { failureCode: 'encoding_failure' } },
  daily_videos: { outcome: { spent: 'videos' } },
  daily_bytes: { outcome: { spent: 'bytes' } },
};
