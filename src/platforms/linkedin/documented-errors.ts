// LinkedIn's documented errors for what Herald calls (the OAuth token endpoint, /rest/posts, the Images and Videos
// upload APIs, media status, comments), from LinkedIn's error-handling, rate-limit, Posts API and Images / Videos API
// pages. See ../documented-errors.ts.
import type { DocumentedError } from '../documented-errors.ts';

const oauth = (error: string, description: string) => ({ error, error_description: description });

export const LINKEDIN_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  { code: 'EXPIRED_ACCESS_TOKEN', meaning: '401 (65601): the access token expired', kind: 'auth_expired', retry: 'after a token refresh', simulated: { operation: 'publish', fault: 'expire_token' } },
  { code: 'REVOKED_ACCESS_TOKEN', meaning: '401 (65602): the member revoked the app', kind: 'reauth_required', retry: 'no: reconnect', simulated: { operation: 'publish', fault: 'revoke' } },
  { code: 'INVALID_ACCESS_TOKEN', meaning: '401 (65600): "Invalid access token"', kind: 'auth_expired', retry: 'after a token refresh', simulated: { operation: 'publish', fault: 'error', error: 'invalid_token' } },
  { code: 'EMPTY_ACCESS_TOKEN', meaning: '401 (65604): no token sent', kind: 'reauth_required', retry: 'no: reconnect', simulated: { operation: 'publish', fault: 'error', error: 'empty_token' } },
  {
    code: 'invalid_request/refresh', meaning: '"the provided authorization grant or refresh token is invalid, expired or revoked"', kind: 'reauth_required', retry: 'no: reconnect',
    via: 'refresh', simulated: { operation: 'refresh', fault: 'error', error: 'refresh_invalid' },
  },
  {
    code: 'invalid_request/code', meaning: 'redirect URI or code verifier mismatch, or the authorization code expired (30 min) or was reused', kind: 'reauth_required', retry: 'no: connect again',
    via: 'connect', simulated: { operation: 'token', fault: 'error', error: 'code_invalid' },
  },
  {
    code: 'unauthorized_scope_error', meaning: 'the app\'s products do not grant a requested scope', kind: 'invalid_content', retry: 'no',
    simulated: { reason: 'an authorization redirect (`error=` on the callback), which the connect flow reports; the sandbox redirects with it for an unknown scope', status: 400, body: oauth('unauthorized_scope_error', 'Scope "r_liteprofile" is not authorized for your application') },
  },
  { code: 'ACCESS_DENIED', meaning: '403 "Not enough permissions": missing scope or page role, or media owned by someone else', kind: 'permission', retry: 'no', simulated: { operation: 'publish', fault: 'error', error: 'access_denied' } },
  { code: 'VERSION_MISSING', meaning: 'no LinkedIn-Version header', kind: 'unsupported', retry: 'no (Herald\'s configuration)', simulated: { operation: 'publish', fault: 'error', error: 'version_missing' } },
  { code: 'NONEXISTENT_VERSION', meaning: '426: the LinkedIn-Version is sunset or not yet active', kind: 'unsupported', retry: 'no (Herald\'s configuration)', simulated: { operation: 'publish', fault: 'error', error: 'version_sunset' } },
  { code: 'MISSING_FIELD', meaning: 'a required field is absent', kind: 'invalid_content', retry: 'no', simulated: { operation: 'publish', fault: 'error', error: 'missing_field' } },
  { code: 'INVALID_VALUE_FOR_FIELD', meaning: 'a field\'s value is not allowed (e.g. a mention of another URN type)', kind: 'invalid_content', retry: 'no', simulated: { operation: 'publish', fault: 'error', error: 'invalid_value' } },
  { code: 'FIELD_LENGTH_TOO_LONG', meaning: 'commentary over 3,000 characters (or alt text over 4,086)', kind: 'invalid_content', retry: 'no', simulated: { operation: 'publish', fault: 'error', error: 'field_too_long' } },
  { code: 'INVALID_URN_ID', meaning: 'a malformed URN (also `INVALID_URN_TYPE`, `INVALID_IMAGE_ID`, `INVALID_VALUE_BLANK_FIELD`)', kind: 'invalid_content', retry: 'no', simulated: { operation: 'publish', fault: 'error', error: 'invalid_urn' } },
  {
    code: 'MEDIA_ASSET_WAITING_UPLOAD', meaning: 'the media is not processed yet', kind: 'transient', retry: 'polled again (processing)',
    outcome: 'processing', simulated: { operation: 'publish', fault: 'error', error: 'media_waiting' },
  },
  {
    code: 'MEDIA_ASSET_PROCESSING_FAILED', meaning: 'LinkedIn could not process the media', kind: 'invalid_content', retry: 'no',
    words: 'LinkedIn could not process the media: check the file (format, size, length) and publish again', simulated: { operation: 'publish', fault: 'error', error: 'media_failed' },
  },
  {
    code: 'EXPIRED_UPLOAD_URL', meaning: 'the upload URL expired before the bytes were sent', kind: 'transient', retry: 'new container',
    words: 'LinkedIn\'s upload link expired; Herald uploads the media again', simulated: { operation: 'upload', fault: 'error', error: 'expired_upload_url' },
  },
  { code: 'REQUEST_ENTITY_TOO_LARGE', meaning: '413: the upload is too large', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'too_large' } },
  { code: 'UNSUPPORTED_MEDIA_TYPE', meaning: '415: the file type is not accepted', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'unsupported_type' } },
  { code: 'NOT_FOUND', meaning: '404: no such entity (may hide a 403 on restricted APIs)', kind: 'not_found', retry: 'no', via: 'comments', simulated: { operation: 'comments', fault: 'error', error: 'not_found' } },
  { code: 'CONFLICT', meaning: '409 "A write conflict occurred": a concurrent write', kind: 'transient', retry: 'retried (a duplicate answer then names the post)', simulated: { operation: 'publish', fault: 'error', error: 'write_conflict' } },
  {
    code: 'DUPLICATE_POST', meaning: '422 "Content is a duplicate of {urn}": the same author and content within about 10 minutes', kind: 'invalid_content', retry: 'no; after Herald\'s own attempt the named post is adopted',
    words: 'LinkedIn refused this post as a duplicate of one published in the last few minutes: change the text or publish later', simulated: { operation: 'publish', fault: 'error', error: 'duplicate_post' },
  },
  { code: 'TOO_MANY_REQUESTS', meaning: '429: a daily member or app quota is spent', kind: 'rate_limited', retry: 'after 00:00 UTC', simulated: { operation: 'publish', fault: 'rate_limit' } },
  { code: 'INTERNAL_SERVER_ERROR', meaning: '500', kind: 'transient', retry: 'retried with backoff', simulated: { operation: 'publish', fault: 'server_error' } },
  { code: 'SERVICE_UNAVAILABLE', meaning: '503', kind: 'transient', retry: 'retried with backoff', simulated: { operation: 'publish', fault: 'error', error: 'service_unavailable' } },
  { code: 'GATEWAY_TIMEOUT', meaning: '504 gateway timeout', kind: 'transient', retry: 'retried with backoff', simulated: { operation: 'publish', fault: 'error', error: 'gateway_timeout' } },
];
