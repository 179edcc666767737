// LinkedIn's documented errors that no ordinary sandbox request produces (see core/documented.ts).
import type { ErrorCatalogue } from '../core/documented.ts';
import { accessDenied, apiError, duplicatePost, notFound, tokenError } from './errors.ts';
import { BAD_REFRESH, CODE_MISMATCH } from './oauth.ts';
import { inputError } from './rest.ts';

/**
 * LinkedIn's documented errors that no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
 * (core/documented.ts): whole answers, and outcomes `initializeUpload` applies to the image it creates (its upload URL
 * already expired, or the upload refused as too large or of an unsupported type).
 */
export const LINKEDIN_ERRORS: ErrorCatalogue = {
  invalid_token: { answer: tokenError('invalid') },
  empty_token: { answer: tokenError('missing') },
  refresh_invalid: { answer: { status: 400, body: { error: 'invalid_request', error_description: BAD_REFRESH } } },
  code_invalid: { answer: { status: 400, body: { error: 'invalid_request', error_description: CODE_MISMATCH } } },
  access_denied: { answer: accessDenied('CREATE', '/posts') },
  version_missing: {
    answer: apiError(
      400,
      'VERSION_MISSING',
      'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
    ),
  },
  version_sunset: { answer: apiError(426, 'NONEXISTENT_VERSION', 'Requested version 202301 is not active') },
  missing_field: {
    answer: inputError('MISSING_FIELD', '/commentary', 'Field /commentary is required when the post is not a reshare'),
  },
  invalid_value: {
    answer: inputError(
      'INVALID_VALUE_FOR_FIELD',
      '/visibility',
      'Invalid value for field; CONNECTIONS is not allowed for an organization',
    ),
  },
  field_too_long: {
    answer: inputError(
      'FIELD_LENGTH_TOO_LONG',
      '/commentary',
      'Length of field /commentary exceeds the maximum length 3000',
    ),
  },
  invalid_urn: { answer: inputError('INVALID_URN_ID', '/author', 'Invalid URN id for field /author') },
  media_waiting: {
    answer: inputError('MEDIA_ASSET_WAITING_UPLOAD', '/content/media/id', 'Media asset is waiting for upload'),
  },
  media_failed: {
    answer: inputError('MEDIA_ASSET_PROCESSING_FAILED', '/content/media/id', 'Media asset processing failed'),
  },
  expired_upload_url: { outcome: { expired: true } },
  too_large: {
    outcome: { refusal: { status: 413, code: 'REQUEST_ENTITY_TOO_LARGE', message: 'Request entity too large' } },
  },
  unsupported_type: {
    outcome: { refusal: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported media type' } },
  },
  not_found: { answer: notFound('urn:li:share:7000000000000000000') },
  write_conflict: { answer: apiError(409, 'CONFLICT', 'A write conflict occurred') },
  duplicate_post: { answer: duplicatePost('urn:li:share:7000000000000000001') },
  service_unavailable: { answer: apiError(503, 'SERVICE_UNAVAILABLE', 'Service Unavailable') },
  gateway_timeout: { answer: apiError(504, 'GATEWAY_TIMEOUT', 'Gateway Timeout') },
};
