// LinkedIn's documented errors that no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
// (core/documented.ts), in the Rest.li error shape `{status, code, message}` (with `serviceErrorCode` where LinkedIn
// sends one).
import type { DocumentedFault, ErrorCatalogue } from '../core/documented.ts';
import { apiError } from './errors.ts';

const answer = (status: number, code: string, message: string, serviceErrorCode?: number): DocumentedFault => ({ answer: apiError(status, code, message, serviceErrorCode) });
const field = (code: string, message: string): DocumentedFault => answer(400, code, message);

export const LINKEDIN_ERRORS: ErrorCatalogue = {
  EMPTY_ACCESS_TOKEN: answer(401, 'EMPTY_ACCESS_TOKEN', 'Empty oauth2 access token', 65604),
  INVALID_ACCESS_TOKEN: answer(401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600),
  ACCESS_DENIED: answer(403, 'ACCESS_DENIED', 'Not enough permissions to access: partnerApiPostsExternal.CREATE.20250101', 100),
  media_forbidden: answer(403, 'ACCESS_DENIED', 'Accessing this image resource is forbidden', 100),
  VERSION_MISSING: answer(400, 'VERSION_MISSING', 'A version must be present. Please specify a version by adding the LinkedIn-Version header.'),
  NONEXISTENT_VERSION: answer(426, 'NONEXISTENT_VERSION', 'Requested version 202301 is not active'),
  INVALID_URN_TYPE: field('INVALID_URN_TYPE', 'Invalid URN type for field /author'),
  INVALID_URN_ID: field('INVALID_URN_ID', 'Invalid URN id for field /author'),
  MISSING_FIELD: field('MISSING_FIELD', 'Field /visibility is required'),
  INVALID_VALUE_FOR_FIELD: field('INVALID_VALUE_FOR_FIELD', 'Invalid value for field /lifecycleState'),
  FIELD_LENGTH_TOO_LONG: field('FIELD_LENGTH_TOO_LONG', 'Length of field /commentary is too long'),
  INVALID_VALUE_BLANK_FIELD: field('INVALID_VALUE_BLANK_FIELD', 'Field /commentary must not be blank'),
  INVALID_IMAGE_ID: field('INVALID_IMAGE_ID', 'Invalid image id'),
  MEDIA_ASSET_WAITING_UPLOAD: field('MEDIA_ASSET_WAITING_UPLOAD', 'The media asset is waiting for upload'),
  MEDIA_ASSET_PROCESSING_FAILED: field('MEDIA_ASSET_PROCESSING_FAILED', 'The media asset failed processing'),
  EXPIRED_UPLOAD_URL: field('EXPIRED_UPLOAD_URL', 'The upload URL has expired'),
  NOT_FOUND: answer(404, 'NOT_FOUND', 'Not Found'),
  CONFLICT: answer(409, 'CONFLICT', 'A write conflict occurred'),
  REQUEST_ENTITY_TOO_LARGE: answer(413, 'REQUEST_ENTITY_TOO_LARGE', 'Request entity too large'),
  UNSUPPORTED_MEDIA_TYPE: answer(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type'),
  duplicate: answer(422, 'UNPROCESSABLE_ENTITY', 'Content is a duplicate of urn:li:share:7300000000000000001'),
  SERVICE_UNAVAILABLE: answer(503, 'SERVICE_UNAVAILABLE', 'Service Unavailable'),
  GATEWAY_TIMEOUT: answer(504, 'GATEWAY_TIMEOUT', 'Gateway Timeout'),
};
