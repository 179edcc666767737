// TikTok error shapes: OAuth endpoints answer {error, error_description, log_id}; the v2 API answers
// {data: {}, error: {code, message, log_id}}.
import { randomHex } from '../core/ids.ts';
import type { ErrorCatalogue } from '../core/documented.ts';
import type { ErrorAnswer, Surface, TransientFault } from '../core/route.ts';

export function logId(nowMs: number): string {
  const d = new Date(nowMs).toISOString().replace(/[-:TZ.]/g, '').slice(0, 14);
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
 * creates (arm them on `publish` for pulls and photos, on `upload` for a FILE_UPLOAD video, whose last chunk starts it).
 */
export const TIKTOK_ERRORS: ErrorCatalogue = {
  internal: { outcome: { fail_reason: 'internal' } },
};

/** Requests per user access_token per minute, as the Content Posting API reference gives them for each endpoint. */
export const PER_TOKEN_PER_MINUTE: Record<string, number> = {
  '/v2/post/publish/creator_info/query/': 20,
  '/v2/post/publish/video/init/': 6,
  '/v2/post/publish/inbox/video/init/': 6,
  '/v2/post/publish/content/init/': 6,
  '/v2/post/publish/status/fetch/': 30,
};
