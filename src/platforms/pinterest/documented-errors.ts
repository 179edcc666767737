// Pinterest's documented errors for what Herald calls (POST /v5/pins, media registration and its S3 upload, status
// reads), from the v5 OpenAPI specification's error examples and the media upload guide. See ../documented-errors.ts.
import type { DocumentedError, SimulatedBy } from '../documented-errors.ts';

const fault = (error: string, operation = 'publish'): SimulatedBy => ({ operation, fault: 'error', error });

export const PINTEREST_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  { code: '1', meaning: '400: invalid parameters', kind: 'invalid_content', retry: 'no', simulated: fault('invalid_parameters') },
  {
    code: 'unreachable-url', meaning: '400 code 1: "Unable to reach the URL" (the image could not be fetched)', kind: 'invalid_content', retry: 'no',
    words: 'Pinterest could not download the image from Herald\'s media URL: it must be reachable from the internet',
    simulated: fault('unreachable_url'),
  },
  { code: '2', meaning: '401: authentication failed (token invalid or expired)', kind: 'auth_expired', retry: 'after a token refresh', simulated: { operation: 'publish', fault: 'expire_token' } },
  { code: '1104', meaning: '401: token not valid or expired', kind: 'auth_expired', retry: 'after a token refresh', simulated: fault('token_not_valid') },
  { code: '3', meaning: '403: the token lacks a required scope', kind: 'permission', retry: 'no: reconnect with the scopes', simulated: fault('missing_scope') },
  { code: '7', meaning: '403: not authorized to access the board or Pin', kind: 'permission', retry: 'no', simulated: fault('board_forbidden') },
  { code: '29', meaning: '403: not permitted to access the resource', kind: 'permission', retry: 'no', simulated: fault('resource_forbidden') },
  {
    code: '40', meaning: '404: board not found', kind: 'not_found', retry: 'no',
    words: 'The Pinterest board no longer exists or is not this account\'s: choose another board',
    simulated: fault('board_not_found'),
  },
  { code: '50', meaning: '404: Pin not found', kind: 'not_found', retry: 'no', simulated: fault('pin_not_found') },
  { code: '30', meaning: '404: user not found', kind: 'not_found', retry: 'no', simulated: fault('user_not_found') },
  { code: '409', meaning: 'conflict', kind: 'invalid_content', retry: 'no', simulated: fault('conflict') },
  { code: '8', meaning: '429: rate limited (a minute for Standard apps, the next day for Trial)', kind: 'rate_limited', retry: 'retried with backoff', simulated: { operation: 'publish', fault: 'rate_limit' } },
  { code: '5', meaning: '5xx: server error', kind: 'transient', retry: 'retried (the journal is checked before a new Pin)', simulated: { operation: 'publish', fault: 'server_error' } },
  {
    code: 'media_failed', meaning: 'media status `failed`: the file is corrupt or unsupported', kind: 'invalid_content', retry: 'no', via: 'video',
    simulated: fault('media_failed', 'upload'),
  },
];
