// LinkedIn's documented errors for what Herald calls (Posts, Images and Videos APIs on /rest), from LinkedIn's API
// error handling and Marketing API pages. The OAuth endpoint's refusals (dead refresh token, spent code, scope not
// provisioned) belong to connecting and refreshing, not to these calls. See ../documented-errors.ts.
import type { DocumentedError, SimulatedBy } from '../documented-errors.ts';

const fault = (error: string, operation = 'publish'): SimulatedBy => ({ operation, fault: 'error', error });
const field = (code: string, meaning: string): DocumentedError => ({ code, meaning, kind: 'invalid_content', retry: 'no', simulated: fault(code) });

export const LINKEDIN_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  { code: 'EMPTY_ACCESS_TOKEN', meaning: '401: no access token (65604)', kind: 'reauth_required', retry: 'no: reconnect', simulated: fault('EMPTY_ACCESS_TOKEN') },
  { code: 'INVALID_ACCESS_TOKEN', meaning: '401: invalid access token (65600)', kind: 'auth_expired', retry: 'after a token refresh', simulated: fault('INVALID_ACCESS_TOKEN') },
  { code: 'EXPIRED_ACCESS_TOKEN', meaning: '401: expired access token (65601)', kind: 'auth_expired', retry: 'after a token refresh', simulated: { operation: 'publish', fault: 'expire_token' } },
  { code: 'REVOKED_ACCESS_TOKEN', meaning: '401: the member revoked the token (65602)', kind: 'reauth_required', retry: 'no: reconnect', simulated: { operation: 'publish', fault: 'revoke' } },
  { code: 'ACCESS_DENIED', meaning: '403: not enough permissions (scope or Page role)', kind: 'permission', retry: 'no', simulated: fault('ACCESS_DENIED') },
  { code: 'media-forbidden', meaning: '403: "Accessing this image/video resource is forbidden" (owner ≠ token)', kind: 'permission', retry: 'no', simulated: fault('media_forbidden', 'upload') },
  { code: 'VERSION_MISSING', meaning: '400: no LinkedIn-Version header', kind: 'unsupported', retry: 'no (server configuration)', simulated: fault('VERSION_MISSING') },
  { code: 'NONEXISTENT_VERSION', meaning: '426: the LinkedIn-Version is sunset', kind: 'unsupported', retry: 'no (server configuration)', simulated: fault('NONEXISTENT_VERSION') },
  field('INVALID_URN_TYPE', '400: a URN of the wrong type'),
  field('INVALID_URN_ID', '400: a malformed URN'),
  field('MISSING_FIELD', '400: a required field is missing'),
  field('INVALID_VALUE_FOR_FIELD', '400: a field value is invalid'),
  field('FIELD_LENGTH_TOO_LONG', '400: commentary over 3,000 characters'),
  field('INVALID_VALUE_BLANK_FIELD', '400: a blank field'),
  field('INVALID_IMAGE_ID', '400: an unknown image'),
  { code: 'MEDIA_ASSET_WAITING_UPLOAD', meaning: '400: the media is not processed yet', kind: 'transient', outcome: 'processing', retry: 'polled again (processing)', simulated: fault('MEDIA_ASSET_WAITING_UPLOAD') },
  { code: 'MEDIA_ASSET_PROCESSING_FAILED', meaning: '400: the media failed processing', kind: 'invalid_content', retry: 'no', simulated: fault('MEDIA_ASSET_PROCESSING_FAILED') },
  {
    code: 'EXPIRED_UPLOAD_URL', meaning: '400: the upload URL expired', kind: 'transient', retry: 'new upload',
    words: 'LinkedIn\'s upload link expired; Herald uploads the media again',
    simulated: fault('EXPIRED_UPLOAD_URL', 'upload'),
  },
  { code: 'NOT_FOUND', meaning: '404: the entity does not exist (may mask a 403)', kind: 'not_found', retry: 'no', simulated: fault('NOT_FOUND') },
  { code: 'CONFLICT', meaning: '409: "A write conflict occurred"', kind: 'transient', retry: 'retried', simulated: fault('CONFLICT') },
  { code: 'REQUEST_ENTITY_TOO_LARGE', meaning: '413: the media is too large', kind: 'invalid_content', retry: 'no', simulated: fault('REQUEST_ENTITY_TOO_LARGE', 'upload') },
  { code: 'UNSUPPORTED_MEDIA_TYPE', meaning: '415: the media type is not supported', kind: 'invalid_content', retry: 'no', simulated: fault('UNSUPPORTED_MEDIA_TYPE', 'upload') },
  {
    code: '422-duplicate', meaning: '422: "Content is a duplicate of {urn}" (adopted when it is this target\'s own lost attempt)', kind: 'invalid_content', retry: 'no',
    words: 'LinkedIn refused this as a duplicate of a recent post by the same author: change the text and publish again',
    simulated: fault('duplicate'),
  },
  { code: 'TOO_MANY_REQUESTS', meaning: '429: daily quota (member or app)', kind: 'rate_limited', retry: 'after 00:00 UTC', simulated: { operation: 'publish', fault: 'rate_limit' } },
  { code: 'INTERNAL_SERVER_ERROR', meaning: '500', kind: 'transient', retry: 'retried (a journaled attempt adopts its post)', simulated: { operation: 'publish', fault: 'server_error' } },
  { code: 'SERVICE_UNAVAILABLE', meaning: '503', kind: 'transient', retry: 'retried', simulated: fault('SERVICE_UNAVAILABLE') },
  { code: 'GATEWAY_TIMEOUT', meaning: '504', kind: 'transient', retry: 'retried', simulated: fault('GATEWAY_TIMEOUT') },
];
