// YouTube's documented errors that no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
// (core/documented.ts): Data API refusals as answers, and the states a video reaches after its upload (failed,
// rejected, deleted, processing terminated) as the outcome of the upload call that creates it.
import type { ErrorCatalogue, DocumentedFault } from '../core/documented.ts';
import { googleApiError, quotaExceeded } from './errors.ts';

const refusal = (status: number, grpc: string, reason: string, message: string, domain?: string): DocumentedFault => ({
  answer: googleApiError(status, grpc, message, reason, domain ? { domain } : {}),
});
const invalid = (reason: string, message: string): DocumentedFault =>
  refusal(400, 'INVALID_ARGUMENT', reason, message, 'youtube.video');
const FAILURES = ['codec', 'conversion', 'emptyFile', 'invalidFile', 'tooSmall', 'uploadAborted'];
const REJECTIONS = [
  'claim',
  'copyright',
  'duplicate',
  'inappropriate',
  'legal',
  'length',
  'termsOfUse',
  'trademark',
  'uploaderAccountClosed',
  'uploaderAccountSuspended',
];

export const YOUTUBE_ERRORS: ErrorCatalogue = {
  quotaExceeded: { answer: quotaExceeded() },
  userRateLimitExceeded: refusal(
    403,
    'PERMISSION_DENIED',
    'userRateLimitExceeded',
    'The request cannot be completed because you have exceeded your quota.',
    'usageLimits',
  ),
  uploadRateLimitExceeded: refusal(
    403,
    'PERMISSION_DENIED',
    'uploadRateLimitExceeded',
    'The user has uploaded too many videos recently. Try again later.',
    'youtube.video',
  ),
  uploadLimitExceeded: refusal(
    400,
    'INVALID_ARGUMENT',
    'uploadLimitExceeded',
    'The user has exceeded the number of videos they may upload.',
    'youtube.video',
  ),
  forbidden: refusal(403, 'PERMISSION_DENIED', 'forbidden', 'The request is not properly authorized.', 'youtube.video'),
  insufficientPermissions: refusal(
    403,
    'PERMISSION_DENIED',
    'insufficientPermissions',
    'Request had insufficient authentication scopes.',
  ),
  youtubeSignupRequired: refusal(
    401,
    'UNAUTHENTICATED',
    'youtubeSignupRequired',
    'The user does not have a YouTube channel.',
    'youtube.header',
  ),
  invalidTitle: invalid('invalidTitle', 'The request metadata specifies an invalid or empty video title.'),
  invalidDescription: invalid('invalidDescription', 'The request metadata specifies an invalid video description.'),
  invalidTags: invalid('invalidTags', 'The request metadata specifies invalid video keywords.'),
  invalidCategoryId: invalid('invalidCategoryId', 'The snippet.categoryId property specifies an invalid category ID.'),
  invalidPublishAt: invalid('invalidPublishAt', 'The request metadata specifies an invalid scheduled publishing time.'),
  invalidFilename: invalid('invalidFilename', 'The video filename specified in the Slug header is invalid.'),
  invalidVideoMetadata: invalid('invalidVideoMetadata', 'The request metadata is invalid.'),
  defaultLanguageNotSet: invalid(
    'defaultLanguageNotSet',
    'The request is trying to add localized video details without specifying the default language.',
  ),
  mediaBodyRequired: invalid('mediaBodyRequired', 'The request does not include the video content.'),
  forbiddenPrivacySetting: refusal(
    403,
    'PERMISSION_DENIED',
    'forbiddenPrivacySetting',
    'The request attempts to set an invalid privacy setting for the video.',
    'youtube.video',
  ),
  forbiddenLicenseSetting: refusal(
    403,
    'PERMISSION_DENIED',
    'forbiddenLicenseSetting',
    'The request attempts to set an invalid license for the video.',
    'youtube.video',
  ),
  playlistNotFound: refusal(
    404,
    'NOT_FOUND',
    'playlistNotFound',
    "The playlist identified with the request's playlistId parameter cannot be found.",
    'youtube.playlistItem',
  ),
  videoNotFound: refusal(
    404,
    'NOT_FOUND',
    'videoNotFound',
    'The video identified by the videoId parameter cannot be found.',
    'youtube.video',
  ),
  channelNotFound: refusal(
    404,
    'NOT_FOUND',
    'channelNotFound',
    'The channel identified in the request cannot be found.',
    'youtube.channel',
  ),
  ...Object.fromEntries(
    FAILURES.map((r) => [
      `failed_${r}`,
      { outcome: { uploadStatus: 'failed', failureReason: r, processingStatus: 'failed' } },
    ]),
  ),
  ...Object.fromEntries(
    REJECTIONS.map((r) => [
      `rejected_${r}`,
      { outcome: { uploadStatus: 'rejected', rejectionReason: r, processingStatus: 'succeeded' } },
    ]),
  ),
  deleted: { outcome: { uploadStatus: 'deleted', processingStatus: 'succeeded' } },
  terminated: { outcome: { uploadStatus: 'uploaded', processingStatus: 'terminated' } },
};
