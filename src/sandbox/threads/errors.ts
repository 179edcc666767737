// Threads' documented errors that no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
// (core/documented.ts): Graph-envelope answers of type THApiException, and container outcomes (ERROR with an
// `error_message`, EXPIRED) applied to the container the call creates.
import type { ErrorCatalogue } from '../core/documented.ts';
import { deadSessions, metaThrottles } from '../core/meta-errors.ts';
import { notReady, threadsError } from './actor.ts';

/** The `error_message` values of a container in ERROR (Threads' troubleshooting page). */
const CONTAINER_ERRORS = [
  'FAILED_DOWNLOADING_VIDEO',
  'FAILED_PROCESSING_AUDIO',
  'FAILED_PROCESSING_VIDEO',
  'INVALID_ASPEC_RATIO',
  'INVALID_BIT_RATE',
  'INVALID_DURATION',
  'INVALID_FRAME_RATE',
  'INVALID_AUDIO_CHANNELS',
  'INVALID_AUDIO_CHANNEL_LAYOUT',
  'UNKNOWN',
];

export const THREADS_ERRORS: ErrorCatalogue = {
  ...deadSessions(),
  ...metaThrottles('25000000000000000'),
  permission_denied: {
    answer: threadsError('(#10) The user has not granted the permission required for this action', 10),
  },
  permission_200: { answer: threadsError('(#200) Permissions error', 200) },
  invalid_parameter: { answer: threadsError('(#100) Param text must be at most 500 characters long.', 100) },
  link_limit: {
    answer: threadsError('THREADS_API__LINK_LIMIT_EXCEEDED: a post can have at most 5 links.', 100, {
      userMsg: 'THREADS_API__LINK_LIMIT_EXCEEDED',
    }),
  },
  spam_restricted: {
    answer: threadsError(
      'We restrict certain activity to protect our community. Tell us if you think we made a mistake.',
      4,
      { subcode: 2207051 },
    ),
  },
  user_restricted: { answer: threadsError('User restricted', 100, { subcode: 4279013, userTitle: 'User restricted' }) },
  media_not_fetched: {
    answer: threadsError('The media could not be fetched from this URI', 100, {
      userTitle: 'Media download has failed.',
    }),
  },
  ...Object.fromEntries(
    CONTAINER_ERRORS.map((message) => [
      `container_${message.toLowerCase()}`,
      { outcome: { status: 'ERROR', error_message: message } },
    ]),
  ),
  container_expired: { outcome: { status: 'EXPIRED' } },
  quota_reached: { answer: threadsError('(#9) The post publishing limit of 250 per 24 hours has been reached.', 9) },
  unknown_error: { answer: threadsError('An unknown error occurred', 1) },
  media_not_found: { answer: notReady() },
};
