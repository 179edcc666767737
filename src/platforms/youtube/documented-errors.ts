// YouTube's documented errors for what Herald calls (resumable uploads, videos.list, playlistItems.insert): the Data
// API's error reasons and the video resource's states after an upload (failureReason, rejectionReason, deleted,
// processing terminated). See ../documented-errors.ts.
import type { DocumentedError, SimulatedBy } from '../documented-errors.ts';

const refusal = (error: string): SimulatedBy => ({ operation: 'publish', fault: 'error', error });
/** States reached after the upload: the last chunk creates the video, which then ends that way. */
const after = (error: string): SimulatedBy => ({ operation: 'upload', fault: 'error', error });
const input = (reason: string, meaning: string): DocumentedError => ({ code: reason, meaning, kind: 'invalid_content', retry: 'no', simulated: refusal(reason) });
const failed = (reason: string, meaning: string): DocumentedError => ({ code: reason, meaning: `status failed: ${meaning}`, kind: 'invalid_content', retry: 'no', simulated: after(`failed_${reason}`) });
const rejected = (reason: string, meaning: string, words?: string): DocumentedError => ({
  code: reason, meaning: `status rejected: ${meaning}`, kind: 'invalid_content', retry: 'no', ...(words ? { words } : {}), simulated: after(`rejected_${reason}`),
});

export const YOUTUBE_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  {
    code: 'quotaExceeded', meaning: 'the project\'s daily quota is spent (domain youtube.quota)', kind: 'rate_limited', retry: 'after midnight Pacific time',
    words: 'The YouTube API quota of this server\'s Google project is spent for today; Herald tries again after it resets at midnight Pacific time',
    simulated: refusal('quotaExceeded'),
  },
  { code: 'rateLimitExceeded', meaning: 'too many requests (HTTP 429)', kind: 'rate_limited', retry: 'retried with backoff', simulated: { operation: 'publish', fault: 'rate_limit' } },
  { code: 'userRateLimitExceeded', meaning: 'too many requests for the user', kind: 'rate_limited', retry: 'retried with backoff', simulated: refusal('userRateLimitExceeded') },
  {
    code: 'uploadRateLimitExceeded', meaning: 'the channel uploaded too many videos in a short time', kind: 'rate_limited', retry: 'after 1 h', retryAfterSeconds: 3600,
    words: 'This YouTube channel uploaded too many videos in a short time; Herald tries again in an hour',
    simulated: refusal('uploadRateLimitExceeded'),
  },
  {
    code: 'uploadLimitExceeded', meaning: 'the channel\'s daily upload limit is reached', kind: 'rate_limited', retry: 'after 24 h', retryAfterSeconds: 86_400,
    words: 'This YouTube channel reached its daily upload limit; Herald tries again in 24 hours',
    simulated: refusal('uploadLimitExceeded'),
  },
  { code: 'authError', meaning: 'invalid credentials (HTTP 401)', kind: 'auth_expired', retry: 'after a token refresh', simulated: { operation: 'publish', fault: 'expire_token' } },
  { code: 'forbidden', meaning: 'the request is not allowed', kind: 'permission', retry: 'no', simulated: refusal('forbidden') },
  { code: 'insufficientPermissions', meaning: 'the token lacks a scope', kind: 'permission', retry: 'no', simulated: refusal('insufficientPermissions') },
  {
    code: 'youtubeSignupRequired', meaning: 'the Google account has no YouTube channel', kind: 'unsupported', retry: 'no', account: true,
    words: 'This Google account has no YouTube channel: create one on YouTube, then reconnect',
    simulated: refusal('youtubeSignupRequired'),
  },
  input('invalidTitle', 'title missing, too long or with < >'),
  input('invalidDescription', 'description too long or with < >'),
  input('invalidTags', 'tags too long'),
  input('invalidCategoryId', 'category not assignable'),
  input('invalidPublishAt', 'scheduled time invalid'),
  input('invalidFilename', 'file name invalid'),
  input('invalidVideoMetadata', 'metadata invalid'),
  input('defaultLanguageNotSet', 'a localization without a default language'),
  input('mediaBodyRequired', 'the request carries no video'),
  { code: 'forbiddenPrivacySetting', meaning: 'the privacy setting is not allowed', kind: 'permission', retry: 'no', simulated: refusal('forbiddenPrivacySetting') },
  { code: 'forbiddenLicenseSetting', meaning: 'the license is not allowed', kind: 'permission', retry: 'no', simulated: refusal('forbiddenLicenseSetting') },
  { code: 'playlistNotFound', meaning: 'the playlist does not exist', kind: 'not_found', retry: 'no', simulated: refusal('playlistNotFound') },
  { code: 'videoNotFound', meaning: 'the video does not exist', kind: 'not_found', retry: 'no', simulated: refusal('videoNotFound') },
  { code: 'channelNotFound', meaning: 'the channel does not exist', kind: 'not_found', retry: 'no', simulated: refusal('channelNotFound') },
  { code: 'backendError', meaning: 'server error (HTTP 5xx)', kind: 'transient', retry: 'retried (the upload resumes)', simulated: { operation: 'publish', fault: 'server_error' } },
  failed('codec', 'unsupported codec'),
  failed('conversion', 'the video could not be converted'),
  failed('emptyFile', 'the file is empty'),
  failed('invalidFile', 'the file is not a video'),
  failed('tooSmall', 'the file is too small'),
  failed('uploadAborted', 'the upload was aborted'),
  rejected('claim', 'a rights claim'),
  rejected('copyright', 'copyright infringement', 'YouTube rejected the video for copyright: publish only material you have the rights to'),
  rejected('duplicate', 'a duplicate upload', 'YouTube rejected the video as a duplicate of one already on the channel'),
  rejected('inappropriate', 'inappropriate content'),
  rejected('legal', 'a legal reason'),
  rejected('length', 'longer than the channel may upload', 'YouTube rejected the video as too long for this channel: verify the channel on YouTube to upload videos over 15 minutes, or shorten it'),
  rejected('termsOfUse', 'a terms-of-use violation'),
  rejected('trademark', 'trademark infringement'),
  rejected('uploaderAccountClosed', 'the uploader\'s account is closed', 'YouTube rejected the video because this channel\'s account is closed'),
  rejected('uploaderAccountSuspended', 'the uploader\'s account is suspended', 'YouTube rejected the video because this channel\'s account is suspended: resolve it on YouTube'),
  {
    code: 'deleted', meaning: 'status deleted: the video was deleted while processing', kind: 'invalid_content', retry: 'no',
    words: 'The video was deleted on YouTube before it finished processing; publish it again if it should go out',
    simulated: after('deleted'),
  },
  {
    code: 'terminated', meaning: 'processing terminated', kind: 'invalid_content', retry: 'no',
    words: 'YouTube stopped processing the video; publish it again, or check the file',
    simulated: after('terminated'),
  },
];
