// TikTok's two error dialects, read into PlatformErrors. The v2 API wraps every answer in
// {data, error: {code, message, log_id}} and success is error.code == "ok"; the OAuth endpoints answer RFC 6749 style
// {error, error_description, log_id}, sometimes with HTTP 200, so the body decides rather than the status.
import { errorFromResponse, kindOfStatus, record, safeText, statusKind } from '../errors.ts';
import type { HttpResponse } from '../http.ts';
import { readOAuthAnswer } from '../oauth.ts';
import type { OAuthStep } from '../oauth.ts';
import type { PlatformErrorKind } from '../types.ts';
import { documentedError } from '../documented-errors.ts';
import { TIKTOK_DOCUMENTED_ERRORS } from './documented-errors.ts';

const API_KINDS: Record<string, PlatformErrorKind> = {
  access_token_invalid: 'auth_expired',
  scope_not_authorized: 'permission',
  scope_permission_missed: 'permission',
  rate_limit_exceeded: 'rate_limited',
  invalid_params: 'invalid_content',
  invalid_file_upload: 'invalid_content',
  internal_error: 'transient',
  spam_risk_too_many_posts: 'rate_limited',
  spam_risk_too_many_pending_share: 'rate_limited',
  reached_active_user_cap: 'rate_limited',
  spam_risk_user_banned_from_posting: 'permission',
  unaudited_client_can_only_post_to_private_accounts: 'permission',
  url_ownership_unverified: 'permission',
  privacy_level_option_mismatch: 'invalid_content',
  spam_risk_text: 'invalid_content',
  spam_risk: 'invalid_content',
};

// Daily caps: the doc says to come back after 24 h, and retrying sooner only burns the per-minute budget.
const DAILY_CAPS = new Set(['spam_risk_too_many_posts', 'spam_risk_too_many_pending_share', 'reached_active_user_cap']);
const DAY_SECONDS = 86_400;

const OAUTH_KINDS: Record<string, PlatformErrorKind> = {
  invalid_grant: 'reauth_required',
  invalid_client: 'permission',
  unauthorized_client: 'permission',
  access_denied: 'permission',
  invalid_request: 'invalid_content',
  invalid_scope: 'invalid_content',
  unsupported_grant_type: 'invalid_content',
  unsupported_response_type: 'invalid_content',
  temporarily_unavailable: 'transient',
  server_error: 'transient',
};

/** The `data` of a v2 API answer, or the PlatformError its `error` describes. */
export function readApi(res: HttpResponse, what: string): Record<string, unknown> {
  const body = record(res.data);
  const error = record(body.error);
  const code = typeof error.code === 'string' ? error.code : undefined;
  const ok = res.status >= 200 && res.status < 300 && (code === undefined || code === 'ok');
  if (ok && res.data !== undefined) return record(body.data);
  if (ok) return fail(res, 'transient', `TikTok ${what}: unexpected answer (HTTP ${res.status}, not JSON)`);
  const kind = statusKind(res.status) ?? (code ? API_KINDS[code] : undefined) ?? kindOfStatus(res.status);
  const detail = safeText(error.message);
  const message = `TikTok ${what} failed: ${code ?? `HTTP ${res.status}`}${detail ? ` (${detail})` : ''}`;
  if (code && DAILY_CAPS.has(code)) {
    return fail(res, kind, message, code, DAY_SECONDS);
  }
  return fail(res, kind, message, code);
}

function fail(
  res: HttpResponse,
  kind: PlatformErrorKind,
  message: string,
  code?: string,
  impliedRetryAfter?: number,
): never {
  const err = errorFromResponse('tiktok', res, {
    kind,
    message,
    ...(code ? { code } : {}),
    ...(impliedRetryAfter !== undefined ? { impliedRetryAfter } : {}),
  });
  throw code ? documentedError(TIKTOK_DOCUMENTED_ERRORS, code, err) : err;
}

/** The body of a successful token-endpoint answer, or the PlatformError it carries (see readOAuthAnswer). */
export function readOAuth(res: HttpResponse, step: OAuthStep, requireToken: boolean): Record<string, unknown> {
  // The v2 envelope's `error` is an object; the OAuth dialect's is a string. Some answers (revoke) may come in the
  // API envelope instead; a failure there reads like any API failure.
  const envelopeCode = record(record(res.data).error).code;
  if (typeof envelopeCode === 'string' && envelopeCode !== 'ok') return readApi(res, step);
  return readOAuthAnswer({ platform: 'tiktok', name: 'TikTok', kinds: OAUTH_KINDS }, res, step, requireToken);
}
