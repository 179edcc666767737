// Pinterest v5 errors are {code, message} with the HTTP status carrying the class.
import type { ErrorCatalogue } from '../core/documented.ts';
import type { ErrorAnswer, TransientFault } from '../core/route.ts';

export function pinError(status: number, code: number, message: string): ErrorAnswer {
  return { status, body: { code, message } };
}

export const AUTH_FAILED = (): ErrorAnswer => pinError(401, 2, 'Authentication failed.');

export function missingScope(scope: string): ErrorAnswer {
  return pinError(
    403,
    3,
    `Your application consumer key was not granted the required scopes to access this resource. Missing scope: ${scope}`,
  );
}

export function pinterestFault(kind: TransientFault): ErrorAnswer {
  return kind === 'rate_limit'
    ? pinError(429, 8, 'You have exceeded your rate limit. Try again later.')
    : pinError(500, 5, 'Something went wrong on our end. Sorry about that.');
}

/**
 * Pinterest's documented errors that no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
 * (core/documented.ts): whole answers, and outcomes `POST /v5/media` applies to the upload it registers (its S3
 * policy already expired, S3 throttling or failing the upload, the video's processing failing).
 */
export const PINTEREST_ERRORS: ErrorCatalogue = {
  app_auth_failed: { answer: AUTH_FAILED() },
  refresh_invalid: { answer: pinError(400, 1, 'Invalid refresh token.') },
  missing_scope: { answer: missingScope('pins:write') },
  board_forbidden: { answer: pinError(403, 7, 'Not authorized to access board or Pin.') },
  not_permitted: { answer: pinError(403, 29, 'You are not permitted to access that resource.') },
  board_not_found: { answer: pinError(404, 40, 'Board not found.') },
  user_not_found: { answer: pinError(404, 30, 'User not found.') },
  invalid_params: { answer: pinError(400, 1, "Invalid request: 'board_id' does not match the pattern ^\\d+$") },
  unreachable_url: { answer: pinError(400, 1, 'Unable to reach the URL: https://media.example/doc.jpg') },
  media_failed: { outcome: { failProcessing: true } },
  upload_expired: { outcome: { expired: true } },
  s3_slow_down: { outcome: { s3: { status: 503, code: 'SlowDown', message: 'Please reduce your request rate.' } } },
  s3_internal_error: {
    outcome: {
      s3: { status: 500, code: 'InternalError', message: 'We encountered an internal error. Please try again.' },
    },
  },
};
