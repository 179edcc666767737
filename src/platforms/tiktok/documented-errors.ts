// TikTok's documented errors for what Herald calls (creator_info, video and photo inits, chunk uploads,
// status/fetch): the v2 API error codes and the Content Posting API's init refusals and status `fail_reason`s.
// See ../documented-errors.ts.
import type { DocumentedError } from '../documented-errors.ts';

const DAY = 86_400;
const outcome = (error: string) => ({ operation: 'upload', fault: 'error', error }) as const;
const refusal = (error: string) => ({ operation: 'publish', fault: 'error', error }) as const;

export const TIKTOK_INTERNAL_WORDS =
  'TikTok reported an internal error for this post; Herald checks the post again before uploading it anew, so it is not posted twice';

export const TIKTOK_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  {
    code: 'access_token_invalid',
    meaning: 'access token expired or invalid',
    kind: 'auth_expired',
    retry: 'after a token refresh',
    simulated: { operation: 'publish', fault: 'expire_token' },
  },
  {
    code: 'scope_not_authorized',
    meaning: 'the user did not grant the scope',
    kind: 'permission',
    retry: 'no: reconnect with the scope',
    simulated: refusal('scope_not_authorized'),
  },
  {
    code: 'scope_permission_missed',
    meaning: 'the call needs a scope not granted',
    kind: 'permission',
    retry: 'no',
    simulated: refusal('scope_permission_missed'),
  },
  {
    code: 'invalid_params',
    meaning: 'a field is invalid (the message says which)',
    kind: 'invalid_content',
    retry: 'no',
    simulated: refusal('invalid_params'),
  },
  {
    code: 'invalid_file_upload',
    meaning: 'the file fails the upload specification',
    kind: 'invalid_content',
    retry: 'no',
    simulated: refusal('invalid_file_upload'),
  },
  {
    code: 'rate_limit_exceeded',
    meaning: 'per-minute rate limit of the token',
    kind: 'rate_limited',
    retry: 'retried with backoff',
    simulated: { operation: 'publish', fault: 'rate_limit' },
  },
  {
    code: 'internal_error',
    meaning: 'TikTok server error (HTTP 500)',
    kind: 'transient',
    retry: 'retried',
    simulated: { operation: 'publish', fault: 'server_error' },
  },
  {
    code: 'spam_risk_too_many_posts',
    meaning: "the creator's daily post cap is reached",
    kind: 'rate_limited',
    retry: 'after 24 h',
    retryAfterSeconds: DAY,
    words: 'This TikTok account reached its daily posting limit; Herald tries again in 24 hours',
    simulated: refusal('spam_risk_too_many_posts'),
  },
  {
    code: 'spam_risk_user_banned_from_posting',
    meaning: 'the creator is banned from posting',
    kind: 'permission',
    retry: 'no',
    account: true,
    words:
      'TikTok has banned this account from posting: check the account in the TikTok app; Herald cannot post for it until TikTok lifts the ban',
    simulated: refusal('spam_risk_user_banned_from_posting'),
  },
  {
    code: 'spam_risk_too_many_pending_share',
    meaning: 'more than 5 inbox uploads pending in 24 h',
    kind: 'rate_limited',
    retry: 'after 24 h',
    retryAfterSeconds: DAY,
    words:
      'Too many TikTok drafts await the creator in the TikTok inbox; post or delete them there, Herald tries again in 24 hours',
    simulated: refusal('spam_risk_too_many_pending_share'),
  },
  {
    code: 'spam_risk_text',
    meaning: 'the caption is judged spam',
    kind: 'invalid_content',
    retry: 'no',
    words: 'TikTok judged the caption as spam: change the text and publish again',
    simulated: refusal('spam_risk_text'),
  },
  {
    code: 'spam_risk',
    meaning: 'the post is judged spam',
    kind: 'invalid_content',
    retry: 'no',
    words: 'TikTok judged this post as spam: change it and publish again',
    simulated: refusal('spam_risk'),
  },
  {
    code: 'reached_active_user_cap',
    meaning: "the app's daily cap of posting creators is reached",
    kind: 'rate_limited',
    retry: 'after 24 h',
    retryAfterSeconds: DAY,
    words: "This server's TikTok app reached its daily limit of posting creators; Herald tries again in 24 hours",
    simulated: refusal('reached_active_user_cap'),
  },
  {
    code: 'unaudited_client_can_only_post_to_private_accounts',
    meaning: 'an unaudited app posts SELF_ONLY only',
    kind: 'permission',
    retry: 'no',
    simulated: refusal('unaudited_client'),
  },
  {
    code: 'url_ownership_unverified',
    meaning: "the pull URL's domain is not verified for the app",
    kind: 'permission',
    retry: 'no',
    simulated: refusal('url_ownership_unverified'),
  },
  {
    code: 'privacy_level_option_mismatch',
    meaning: "privacy level not among the creator's options",
    kind: 'invalid_content',
    retry: 'no',
    simulated: refusal('privacy_level_option_mismatch'),
  },
  {
    code: 'file_format_check_failed',
    meaning: 'status: the file format is refused',
    kind: 'invalid_content',
    retry: 'no',
    simulated: outcome('file_format_check_failed'),
  },
  {
    code: 'duration_check_failed',
    meaning: 'status: the video duration is refused',
    kind: 'invalid_content',
    retry: 'no',
    simulated: outcome('duration_check_failed'),
  },
  {
    code: 'frame_rate_check_failed',
    meaning: 'status: the frame rate is refused',
    kind: 'invalid_content',
    retry: 'no',
    simulated: outcome('frame_rate_check_failed'),
  },
  {
    code: 'picture_size_check_failed',
    meaning: 'status: the picture size is refused',
    kind: 'invalid_content',
    retry: 'no',
    simulated: outcome('picture_size_check_failed'),
  },
  {
    code: 'video_pull_failed',
    meaning: 'status: TikTok could not download the video',
    kind: 'invalid_content',
    retry: 'no',
    simulated: outcome('video_pull_failed'),
  },
  {
    code: 'photo_pull_failed',
    meaning: 'status: TikTok could not download a photo',
    kind: 'invalid_content',
    retry: 'no',
    simulated: outcome('photo_pull_failed'),
  },
  {
    code: 'internal',
    meaning: 'status: TikTok failed internally (a new init may duplicate the post)',
    kind: 'transient',
    retry: 'same post read again in 10 min, then a new init',
    retryAfterSeconds: 600,
    words: TIKTOK_INTERNAL_WORDS,
    simulated: outcome('internal'),
  },
  {
    code: 'publish_cancelled',
    meaning: 'status: the publish was cancelled',
    kind: 'invalid_content',
    retry: 'no',
    words: "The post was cancelled on TikTok's side; publish it again if it should still go out",
    simulated: outcome('publish_cancelled'),
  },
  {
    code: 'auth_removed',
    meaning: "status: the creator removed the app's access",
    kind: 'reauth_required',
    retry: 'no: reconnect',
    words:
      "The TikTok account removed Herald's access while the post was processing: reconnect TikTok, then publish again",
    simulated: outcome('auth_removed'),
  },
];
