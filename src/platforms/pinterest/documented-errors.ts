// Pinterest's documented errors for what Herald calls (the OAuth token endpoint, user_account, POST /v5/pins, the
// three-step video upload through /v5/media and its pre-signed S3 POST, media status), from the v5 reference's error
// examples, its rate-limit page, and Amazon S3's documented POST-upload errors. See ../documented-errors.ts.
import type { DocumentedError } from '../documented-errors.ts';

const pin = (code: number, message: string) => ({ code, message });
const s3 = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export const PINTEREST_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  {
    code: '2',
    meaning: '401 "Authentication failed": the access token is not valid or expired',
    kind: 'auth_expired',
    retry: 'after a token refresh',
    simulated: { operation: 'publish', fault: 'expire_token' },
  },
  {
    code: '2/token',
    meaning: '401 "Authentication failed" at the token endpoint: the app\'s own client id or secret',
    kind: 'permission',
    retry: "no (Herald's configuration)",
    via: 'refresh',
    simulated: { operation: 'refresh', fault: 'error', error: 'app_auth_failed' },
  },
  {
    code: '1/refresh',
    meaning: '400 "Invalid refresh token": revoked, expired (60 days) or rotated out',
    kind: 'reauth_required',
    retry: 'no: reconnect',
    via: 'refresh',
    simulated: { operation: 'refresh', fault: 'error', error: 'refresh_invalid' },
  },
  {
    code: '1104',
    meaning: 'ads API: the token is not valid or expired',
    kind: 'auth_expired',
    retry: 'after a token refresh',
    simulated: {
      reason: "only Pinterest's ads endpoints answer it, and Herald calls none",
      status: 401,
      body: pin(1104, 'Authentication failed.'),
    },
  },
  {
    code: '3',
    meaning: '403: the token lacks a required scope',
    kind: 'reauth_required',
    retry: 'no: reconnect granting every scope',
    words:
      'This Pinterest connection lacks a permission Herald needs: reconnect the account and approve every permission',
    simulated: { operation: 'publish', fault: 'error', error: 'missing_scope' },
  },
  {
    code: '7',
    meaning: '403 "Not authorized to access board or Pin"',
    kind: 'permission',
    retry: 'no',
    simulated: { operation: 'publish', fault: 'error', error: 'board_forbidden' },
  },
  {
    code: '29',
    meaning: '403: not permitted to access the resource',
    kind: 'permission',
    retry: 'no',
    simulated: { operation: 'publish', fault: 'error', error: 'not_permitted' },
  },
  {
    code: '40',
    meaning: '404 "Board not found"',
    kind: 'not_found',
    retry: 'no',
    words: 'The Pinterest board no longer exists: choose another board for this destination',
    simulated: { operation: 'publish', fault: 'error', error: 'board_not_found' },
  },
  {
    code: '50',
    meaning: '404 "Pin not found"',
    kind: 'not_found',
    retry: 'no (the pin is marked gone)',
    simulated: {
      reason:
        'Herald reads a missing Pin as gone rather than as an error: reading or reconciling it answers null on a 404',
      status: 404,
      body: pin(50, 'Pin not found.'),
    },
  },
  {
    code: '30',
    meaning: '404 "User not found"',
    kind: 'not_found',
    retry: 'no',
    via: 'account',
    simulated: { operation: 'profile', fault: 'error', error: 'user_not_found' },
  },
  {
    code: '409',
    meaning: 'conflict (board sections)',
    kind: 'invalid_content',
    retry: 'no',
    simulated: {
      reason: 'only board-section writes conflict, and Herald creates no board sections',
      status: 409,
      body: pin(409, 'Board section conflict.'),
    },
  },
  {
    code: '1',
    meaning: '400: invalid parameters (a board id, a URL, a field)',
    kind: 'invalid_content',
    retry: 'no',
    simulated: { operation: 'publish', fault: 'error', error: 'invalid_params' },
  },
  {
    code: '1/unreachable',
    meaning: '400 "Unable to reach the URL": Pinterest could not fetch the image',
    kind: 'transient',
    retry: 'retried with backoff',
    words:
      "Pinterest could not fetch the image from Herald; Herald tries again. If this persists, check that Herald's public media URL is reachable from the internet",
    simulated: { operation: 'publish', fault: 'error', error: 'unreachable_url' },
  },
  {
    code: '8',
    meaning: '429: rate limited (a minute window on Standard access, the day on Trial)',
    kind: 'rate_limited',
    retry: 'retried with backoff',
    simulated: { operation: 'publish', fault: 'rate_limit' },
  },
  {
    code: '5',
    meaning: '5xx: server error (POST /v5/pins has no idempotency key)',
    kind: 'transient',
    retry: 'retried with backoff',
    simulated: { operation: 'publish', fault: 'server_error' },
  },
  {
    code: 'failed',
    meaning: 'media status `failed`: the video is corrupt or unsupported',
    kind: 'invalid_content',
    retry: 'no (not with the same file)',
    words: 'Pinterest could not process the video',
    simulated: { operation: 'upload', fault: 'error', error: 'media_failed' },
  },
  {
    code: 'AccessDenied',
    meaning: 'S3: "Policy expired" (the upload URL lasts an hour) or a policy condition failed',
    kind: 'transient',
    retry: 'new container',
    words: "Pinterest's upload link expired; Herald registers the video again and uploads it",
    simulated: { operation: 'upload', fault: 'error', error: 'upload_expired' },
  },
  {
    code: 'SlowDown',
    meaning: 'S3 503: reduce the request rate',
    kind: 'rate_limited',
    retry: 'retried with backoff',
    simulated: { operation: 'upload', fault: 'error', error: 's3_slow_down' },
  },
  {
    code: 'InternalError',
    meaning: 'S3 500: internal error',
    kind: 'transient',
    retry: 'retried with backoff',
    simulated: { operation: 'upload', fault: 'error', error: 's3_internal_error' },
  },
  {
    code: 'SignatureDoesNotMatch',
    meaning: 'S3 403: a form field differs from the signed upload parameters',
    kind: 'transient',
    retry: 'new container',
    simulated: {
      reason:
        'Herald sends every upload parameter unchanged and the file last; the sandbox answers it to bodies that do not (its own tests)',
      status: 403,
      body: s3(
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
      ),
    },
  },
];
