// Instagram's documented errors for what Herald calls (container creation, status, media_publish), from Meta's
// Instagram error-code reference and content-publishing guide. See ../documented-errors.ts.
import { metaGrantErrors, metaThrottleErrors } from '../meta/documented-errors.ts';
import type { DocumentedError } from '../documented-errors.ts';

const DAY = 24 * 3600;
const graph = (code: number, subcode: number | null, message: string, extra: Record<string, unknown> = {}) => ({
  error: { message, type: 'OAuthException', code, ...(subcode !== null ? { error_subcode: subcode } : {}), ...extra },
});

export const INSTAGRAM_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  ...metaGrantErrors('after a token refresh'),
  ...metaThrottleErrors(),
  {
    code: 'not-business', meaning: '"the user is not an Instagram Business" account', kind: 'invalid_content', retry: 'no', account: true,
    words: 'This Instagram account is not a professional account: switch it to a Business or Creator account in the Instagram app, then reconnect it',
    simulated: { operation: 'upload', fault: 'error', error: 'not_business' },
  },
  { code: '-2/2207003', meaning: 'media download timed out', kind: 'transient', retry: 'retried', simulated: { operation: 'upload', fault: 'error', error: 'download_timeout' } },
  {
    code: '-2/2207020', meaning: 'container expired', kind: 'transient', retry: 'new container',
    words: 'Instagram let the prepared media expire; Herald prepares it again and retries',
    simulated: { operation: 'publish', fault: 'error', error: 'container_expired' },
  },
  { code: '-1/2207001', meaning: 'Instagram server error', kind: 'transient', retry: 'retried', simulated: { operation: 'publish', fault: 'error', error: 'server_error' } },
  {
    code: '-1/2207032', meaning: 'creating the media failed', kind: 'transient', retry: 'new container',
    words: 'Instagram could not prepare the media; Herald prepares it again and retries',
    simulated: { operation: 'publish', fault: 'error', error: 'create_failed' },
  },
  {
    code: '-1/2207053', meaning: 'unknown upload error', kind: 'transient', retry: 'new container',
    words: 'Instagram could not prepare the media; Herald prepares it again and retries',
    simulated: { operation: 'publish', fault: 'error', error: 'unknown_upload' },
  },
  {
    code: '1/2207057', meaning: '`thumb_offset` outside the video', kind: 'invalid_content', retry: 'no',
    words: 'Instagram refused the cover frame: choose a thumbnail time within the video',
    simulated: { operation: 'upload', fault: 'error', error: 'thumb_offset' },
  },
  {
    code: '4/2207051', meaning: 'publishing restricted as suspected spam', kind: 'rate_limited', retry: 'after 24 h', retryAfterSeconds: DAY, account: true,
    words: 'Instagram restricted this account\'s publishing as suspected spam; Herald tries again in 24 hours. If you think this is a mistake, tell Instagram in its app',
    simulated: { operation: 'publish', fault: 'error', error: 'spam_restricted' },
  },
  {
    code: '9/2207042', meaning: 'daily (rolling 24 h) publishing limit reached', kind: 'rate_limited', retry: 'after the window (content_publishing_limit)', retryAfterSeconds: DAY,
    words: 'Instagram\'s daily publishing limit for this account is reached; Herald tries again when the 24-hour window frees a slot',
    simulated: { operation: 'publish', fault: 'error', error: 'quota_reached' },
  },
  {
    code: '24/2207006', meaning: 'media not found (permission or expired token)', kind: 'transient', retry: 'new container',
    words: 'Instagram no longer finds the prepared media; Herald prepares it again and retries',
    simulated: { operation: 'publish', fault: 'error', error: 'media_not_found' },
  },
  { code: '24/2207008', meaning: 'media builder not ready or expired', kind: 'transient', retry: 'retried', simulated: { operation: 'publish', fault: 'error', error: 'builder_not_ready' } },
  {
    code: '25/2207050', meaning: 'Instagram account inactive, checkpointed or restricted', kind: 'invalid_content', retry: 'no', account: true,
    words: 'Instagram has restricted this account: sign in to the Instagram app and complete what it asks to re-enable the account, then publish again',
    simulated: { operation: 'publish', fault: 'error', error: 'account_restricted' },
  },
  { code: '100/2207023', meaning: 'unknown media type', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'unknown_media_type' } },
  { code: '100/2207028', meaning: 'a carousel needs 2 to 10 items', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'carousel_items' } },
  { code: '100/2207035', meaning: 'product tags invalid (2207035–2207037)', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'product_tags' } },
  { code: '100/2207040', meaning: 'more than 20 @-tags', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'too_many_tags' } },
  { code: '352/2207026', meaning: 'unsupported video format', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'video_format' } },
  { code: '9004/2207052', meaning: 'media could not be fetched from the URL', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'fetch_failed' } },
  { code: '9007/2207027', meaning: 'media not ready for publishing', kind: 'transient', retry: 'polled again (processing)', outcome: 'processing', simulated: { operation: 'publish', fault: 'error', error: 'not_ready' } },
  { code: '36000/2207004', meaning: 'image larger than 8 MB', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'image_too_large' } },
  { code: '36001/2207005', meaning: 'unsupported image format', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'image_format' } },
  { code: '36003/2207009', meaning: 'aspect ratio outside 4:5–1.91:1', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'aspect_ratio' } },
  { code: '36004/2207010', meaning: 'caption too long (2,200 characters, 30 hashtags)', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'caption_too_long' } },
  {
    code: '2207081', meaning: 'the account cannot publish trial Reels', kind: 'invalid_content', retry: 'no',
    simulated: { reason: 'only a trial Reel (`trial_params`) gets it, and Herald publishes none', status: 400, body: graph(100, 2207081, 'This account is not eligible for trial reels.') },
  },
  { code: 'ERROR', meaning: 'container `status_code` ERROR naming a lasting subcode (e.g. 2207026)', kind: 'invalid_content', retry: 'no', simulated: { operation: 'upload', fault: 'error', error: 'container_error' } },
  { code: 'ERROR passing', meaning: 'container `status_code` ERROR naming a passing subcode (2207001, 2207003, 2207008)', kind: 'transient', retry: 'new container', simulated: { operation: 'upload', fault: 'error', error: 'container_error_passing' } },
  { code: '1/2207082', meaning: '"An unknown error occurred"', kind: 'transient', retry: 'retried', simulated: { operation: 'publish', fault: 'error', error: 'unknown_error' } },
  { code: '80002', meaning: 'Instagram Business Use Case limit (X-Business-Use-Case-Usage)', kind: 'rate_limited', retry: 'after `estimated_time_to_regain_access`', simulated: { operation: 'publish', fault: 'error', error: 'buc_limit' } },
];
