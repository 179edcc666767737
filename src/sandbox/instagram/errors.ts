// Instagram's documented errors that no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
// (see core/documented.ts). Bodies follow Meta's Instagram error-code reference: the code, the subcode, the message
// and the user title it documents.
import type { ErrorCatalogue } from '../core/documented.ts';
import { graphError } from '../core/graph.ts';
import { deadSessions, metaThrottles } from '../core/meta-errors.ts';
import { igError, notReady } from './actor.ts';

export const INSTAGRAM_ERRORS: ErrorCatalogue = {
  ...deadSessions(),
  ...metaThrottles('17841400000000000', { type: 'instagram', code: 80002 }),
  permission_denied: { answer: igError(10, 0, '(#10) Application does not have permission for this action') },
  permission_200: { answer: igError(200, 0, '(#200) Not enough permissions to post to this account') },
  not_business: { answer: igError(100, 0, 'The user is not an Instagram Business Account') },
  download_timeout: { answer: igError(-2, 2207003, 'It takes too long to download the media.') },
  container_expired: {
    answer: igError(-2, 2207020, 'The media you are trying to access has expired. Please try to upload again.'),
  },
  server_error: { answer: igError(-1, 2207001, 'Instagram server error. Try again.') },
  create_failed: { answer: igError(-1, 2207032, 'Create media fail, please try to re-create media') },
  unknown_upload: { answer: igError(-1, 2207053, 'unknown upload error') },
  thumb_offset: {
    answer: igError(
      1,
      2207057,
      'Thumbnail offset must be greater than or equal to 0 and less than video duration, i.e. 12000',
    ),
  },
  spam_restricted: {
    answer: igError(
      4,
      2207051,
      'We restrict certain activity to protect our community. Tell us if you think we made a mistake.',
      'Action is blocked',
    ),
  },
  media_not_found: {
    answer: igError(24, 2207006, 'The media with id 17900000000000000 cannot be found.', 'Media not found'),
  },
  builder_not_ready: {
    answer: igError(24, 2207008, 'The media builder with creation id does not exist or has expired.'),
  },
  account_restricted: { answer: igError(25, 2207050, 'The Instagram account is restricted.', 'Restricted account') },
  unknown_media_type: { answer: igError(100, 2207023, 'The media type is not one of the expected types.') },
  product_tags: { answer: igError(100, 2207035, 'Product tag positions should not be specified for videos.') },
  video_format: {
    answer: igError(352, 2207026, 'The video format is not supported. Please check the spec for supported formats.'),
  },
  image_too_large: {
    answer: igError(
      36000,
      2207004,
      'The image is too large to download. It should be less than 8 MiB.',
      'Image size too large',
    ),
  },
  aspect_ratio: {
    answer: igError(
      36003,
      2207009,
      'The submitted image with aspect ratio 0.5 cannot be published. Please submit an image with a valid aspect ratio.',
    ),
  },
  quota_reached: {
    answer: igError(
      9,
      2207042,
      'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
      'Max posts reached',
    ),
  },
  carousel_items: {
    answer: igError(100, 2207028, 'Your post could not be shared. Carousels need 2 to 10 photos or videos.'),
  },
  too_many_tags: { answer: igError(100, 2207040, 'Cannot use more than 20 tags per media.') },
  fetch_failed: {
    answer: igError(9004, 2207052, 'The media could not be fetched from this uri.', 'Media download has failed'),
  },
  not_ready: { answer: notReady() },
  image_format: { answer: igError(36001, 2207005, 'The image format is not supported.', 'Unsupported image format') },
  caption_too_long: { answer: igError(36004, 2207010, 'The caption is too long.', 'Caption too long') },
  container_error: {
    outcome: { status_code: 'ERROR', status: 'Error: Media upload has failed with error code 2207026' },
  },
  container_error_passing: {
    outcome: { status_code: 'ERROR', status: 'Error: Media upload has failed with error code 2207001' },
  },
  unknown_error: {
    answer: graphError(400, { message: 'An unknown error occurred', code: 1, subcode: 2207082, transient: true }),
  },
};
