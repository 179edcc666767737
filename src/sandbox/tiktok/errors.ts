// TikTok error shapes: OAuth endpoints answer {error, error_description, log_id}; the v2 API answers
// {data: {}, error: {code, message, log_id}}.
import { randomHex } from '../core/ids.ts';
import type { ErrorCatalogue } from '../core/documented.ts';
import type { ErrorAnswer, Surface, TransientFault } from '../core/route.ts';

export function logId(nowMs: number): string {
  const d = new Date(nowMs)
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 14);
  return `${d}${randomHex(18).toUpperCase()}`;
}

export function oauthFail(status: number, error: string, description: string, nowMs: number): ErrorAnswer {
  return { status, body: { error, error_description: description, log_id: logId(nowMs) } };
}

export function apiFail(status: number, code: string, message: string, nowMs: number): ErrorAnswer {
  return { status, body: { data: {}, error: { code, message, log_id: logId(nowMs) } } };
}

export function ok(data: unknown, nowMs: number): unknown {
  return { data, error: { code: 'ok', message: '', log_id: logId(nowMs) } };
}

export function tiktokFault(kind: TransientFault, surface: Exclude<Surface, 'page'>): ErrorAnswer {
  const now = Date.now();
  if (surface === 'oauth') {
    return kind === 'rate_limit'
      ? oauthFail(429, 'temporarily_unavailable', 'Service is temporarily unavailable.', now)
      : oauthFail(500, 'server_error', 'Other internal server errors.', now);
  }
  return kind === 'rate_limit'
    ? apiFail(429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.', now)
    : apiFail(500, 'internal_error', 'Something went wrong. Please try again later.', now);
}

/**
 * TikTok's documented errors no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
 * (core/documented.ts): init refusals as answers, status/fetch `fail_reason`s as the outcome of the job the call
 * creates (arm them on `publish` for pulls and photos, on `upload` for a FILE_UPLOAD video, whose last chunk starts
 * it).
 */
const refusal = (status: number, code: string, message: string) => ({ answer: apiFail(status, code, message, 0) });
const failReason = (reason: string) => ({ outcome: { fail_reason: reason } });

export const TIKTOK_ERRORS: ErrorCatalogue = {
  scope_not_authorized: refusal(
    401,
    'scope_not_authorized',
    'The user did not authorize the scope required for completing this request.',
  ),
  scope_permission_missed: refusal(401, 'scope_permission_missed', 'The request requires higher scope permission.'),
  invalid_params: refusal(400, 'invalid_params', 'The request parameters are invalid: post_info.title.'),
  invalid_file_upload: refusal(400, 'invalid_file_upload', 'The file does not meet the API specification.'),
  spam_risk_too_many_posts: refusal(
    403,
    'spam_risk_too_many_posts',
    'The daily post cap of this user has been reached.',
  ),
  spam_risk_user_banned_from_posting: refusal(
    403,
    'spam_risk_user_banned_from_posting',
    'The user is banned from making new posts.',
  ),
  spam_risk_too_many_pending_share: refusal(
    403,
    'spam_risk_too_many_pending_share',
    'The daily limit of pending shares to the inbox has been reached.',
  ),
  spam_risk_text: refusal(403, 'spam_risk_text', 'The text is considered a spam risk.'),
  spam_risk: refusal(403, 'spam_risk', 'The request is considered a spam risk.'),
  reached_active_user_cap: refusal(
    403,
    'reached_active_user_cap',
    'The daily quota of active posting users of this client has been reached.',
  ),
  unaudited_client: refusal(
    403,
    'unaudited_client_can_only_post_to_private_accounts',
    'Unaudited clients can only post to private accounts.',
  ),
  url_ownership_unverified: refusal(
    403,
    'url_ownership_unverified',
    'The URL prefix or domain is not verified for this client.',
  ),
  privacy_level_option_mismatch: refusal(
    403,
    'privacy_level_option_mismatch',
    "privacy_level is not one of the creator's privacy_level_options.",
  ),
  file_format_check_failed: failReason('file_format_check_failed'),
  duration_check_failed: failReason('duration_check_failed'),
  frame_rate_check_failed: failReason('frame_rate_check_failed'),
  picture_size_check_failed: failReason('picture_size_check_failed'),
  video_pull_failed: failReason('video_pull_failed'),
  photo_pull_failed: failReason('photo_pull_failed'),
  internal: failReason('internal'),
  publish_cancelled: failReason('publish_cancelled'),
  auth_removed: failReason('auth_removed'),
};

/** Requests per user access_token per minute, as the Content Posting API reference gives them for each endpoint. */
export const PER_TOKEN_PER_MINUTE: Record<string, number> = {
  '/v2/post/publish/creator_info/query/': 20,
  '/v2/post/publish/video/init/': 6,
  '/v2/post/publish/inbox/video/init/': 6,
  '/v2/post/publish/content/init/': 6,
  '/v2/post/publish/status/fetch/': 30,
};
