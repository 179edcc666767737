// Threads' documented errors for what Herald calls (containers, status, threads_publish), from Meta's Threads
// documentation (troubleshooting, publishing limits, reply management). See ../documented-errors.ts.
import { metaGrantErrors, metaThrottleErrors } from '../meta/documented-errors.ts';
import type { DocumentedError } from '../documented-errors.ts';
import { PUBLISH_LIMIT_WAIT_SECONDS } from '../meta/graph.ts';

export const THREADS_QUOTA_WORDS =
  "Threads' daily publishing limit (250 posts, 1,000 replies a day) is reached; Herald tries again when the 24-hour window frees a slot";

/** The `error_message` values of a container in ERROR (Threads' troubleshooting page). */
export const CONTAINER_ERRORS = [
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

export const THREADS_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  ...metaGrantErrors('after a token refresh'),
  ...metaThrottleErrors(),
  {
    code: '100',
    meaning: 'invalid parameter (text too long, bad media_type)',
    kind: 'invalid_content',
    retry: 'no',
    simulated: { operation: 'upload', fault: 'error', error: 'invalid_parameter' },
  },
  {
    code: 'THREADS_API__LINK_LIMIT_EXCEEDED',
    meaning: 'more than 5 links',
    kind: 'invalid_content',
    retry: 'no',
    simulated: { operation: 'upload', fault: 'error', error: 'link_limit' },
  },
  {
    code: 'THREADS_API__FEATURE_NOT_AVAILABLE',
    meaning: 'the feature needs a linked Instagram account',
    kind: 'unsupported',
    retry: 'no',
    simulated: {
      reason: 'Herald meets it only reading the follower count, which it then leaves empty instead of failing',
      status: 400,
      body: { error: { message: 'THREADS_API__FEATURE_NOT_AVAILABLE', type: 'THApiException', code: 100 } },
    },
  },
  {
    code: '4/2207051',
    meaning: '"We restrict certain activity to protect our community"',
    kind: 'rate_limited',
    retry: 'after 24 h',
    retryAfterSeconds: 24 * 3600,
    account: true,
    words:
      "Threads restricted this account's publishing as suspected spam; Herald tries again in 24 hours. If you think this is a mistake, tell Threads in its app",
    simulated: { operation: 'publish', fault: 'error', error: 'spam_restricted' },
  },
  {
    code: '100/4279013',
    meaning: 'user restricted',
    kind: 'invalid_content',
    retry: 'no',
    account: true,
    words:
      'Threads has restricted this account: open the Threads app and follow what it asks to lift the restriction, then publish again',
    simulated: { operation: 'publish', fault: 'error', error: 'user_restricted' },
  },
  {
    code: 'media-not-fetched',
    meaning: '"The media could not be fetched from this URI"',
    kind: 'invalid_content',
    retry: 'no',
    simulated: { operation: 'upload', fault: 'error', error: 'media_not_fetched' },
  },
  ...CONTAINER_ERRORS.map(
    (message): DocumentedError => ({
      code: `ERROR ${message}`,
      meaning: 'container processing failed with this `error_message`',
      kind: 'invalid_content',
      retry: 'no',
      simulated: { operation: 'upload', fault: 'error', error: `container_${message.toLowerCase()}` },
    }),
  ),
  {
    code: 'EXPIRED',
    meaning: 'container not published within 24 h',
    kind: 'transient',
    retry: 'new container',
    outcome: 'processing',
    simulated: { operation: 'upload', fault: 'error', error: 'container_expired' },
  },
  {
    code: '24/4279009',
    meaning: '"Media Not Found": the container is unknown',
    kind: 'transient',
    retry: 'new container',
    words: 'Threads no longer finds the prepared post; Herald prepares it again and retries',
    simulated: { operation: 'publish', fault: 'error', error: 'media_not_found' },
  },
  {
    code: '9',
    meaning: 'publishing quota: 250 posts / 1,000 replies per rolling 24 h',
    kind: 'rate_limited',
    retry: 'after the window (threads_publishing_limit)',
    retryAfterSeconds: PUBLISH_LIMIT_WAIT_SECONDS,
    words: THREADS_QUOTA_WORDS,
    simulated: { operation: 'publish', fault: 'error', error: 'quota_reached' },
  },
  {
    code: '1',
    meaning: 'unknown error',
    kind: 'transient',
    retry: 'retried',
    simulated: { operation: 'publish', fault: 'error', error: 'unknown_error' },
  },
  {
    code: '2',
    meaning: 'service temporarily unavailable (and HTTP 5xx)',
    kind: 'transient',
    retry: 'retried',
    simulated: { operation: 'publish', fault: 'server_error' },
  },
];
