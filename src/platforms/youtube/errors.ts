// Google's two error dialects, read into PlatformErrors. The OAuth server answers {error, error_description}; the
// Data API answers {error: {code, message, errors: [{reason, domain}], status}} and the reason is what to branch on,
// because one status carries unrelated causes (403 is both "quota spent" and "not allowed").
import { errorFromResponse, kindOfStatus, record, safeText, statusKind } from '../errors.ts';
import type { HttpResponse } from '../http.ts';
import { readOAuthAnswer } from '../oauth.ts';
import type { OAuthStep } from '../oauth.ts';
import type { PlatformErrorKind } from '../types.ts';
import { documentedError } from '../documented-errors.ts';
import { YOUTUBE_DOCUMENTED_ERRORS } from './documented-errors.ts';

const REASON_KINDS: Record<string, PlatformErrorKind> = {
  quotaExceeded: 'rate_limited',
  rateLimitExceeded: 'rate_limited',
  userRateLimitExceeded: 'rate_limited',
  uploadRateLimitExceeded: 'rate_limited',
  uploadLimitExceeded: 'rate_limited',
  authError: 'auth_expired',
  youtubeSignupRequired: 'unsupported',
  insufficientPermissions: 'permission',
  forbidden: 'permission',
  forbiddenPrivacySetting: 'permission',
  forbiddenLicenseSetting: 'permission',
  commentsDisabled: 'unsupported',
  backendError: 'transient',
};

const OAUTH_KINDS: Record<string, PlatformErrorKind> = {
  // A code that is bad, used or expired, and a refresh token that is revoked, expired or unused for six months.
  invalid_grant: 'reauth_required',
  invalid_client: 'permission',
  unauthorized_client: 'permission',
  access_denied: 'permission',
  redirect_uri_mismatch: 'invalid_content',
  invalid_request: 'invalid_content',
  invalid_scope: 'invalid_content',
  unsupported_grant_type: 'invalid_content',
};

const DAY_SECONDS = 86_400;

/**
 * Seconds until the Data API's daily quota resets at midnight Pacific time. Counted from the Pacific wall clock, so it
 * is off by an hour only on the two DST change days, which merely moves one retry.
 */
export function secondsToQuotaReset(now: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(now);
  const part = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const elapsed = (part('hour') % 24) * 3600 + part('minute') * 60 + part('second');
  return Math.max(1, DAY_SECONDS - elapsed);
}

/** When the network said nothing, some reasons still say how long waiting takes. */
function impliedRetryAfter(reason: string | undefined, now: Date): number | undefined {
  if (reason === 'quotaExceeded') return secondsToQuotaReset(now);
  // The per-channel upload cap is a rolling day.
  if (reason === 'uploadLimitExceeded') return DAY_SECONDS;
  return undefined;
}

function fail(
  res: HttpResponse,
  kind: PlatformErrorKind,
  message: string,
  code: string | undefined,
  impliedRetryAfter?: number,
): never {
  const err = errorFromResponse('youtube', res, {
    kind,
    message,
    ...(code ? { code } : {}),
    ...(impliedRetryAfter !== undefined ? { impliedRetryAfter } : {}),
  });
  throw code ? documentedError(YOUTUBE_DOCUMENTED_ERRORS, code, err) : err;
}

/** The JSON body of a successful Data API answer, or the PlatformError its error object describes. */
export function readApi(res: HttpResponse, what: string, now: Date): Record<string, unknown> {
  if (res.status >= 200 && res.status < 300) {
    if (res.data !== undefined) return record(res.data);
    return fail(res, 'transient', `YouTube ${what}: unexpected answer (HTTP ${res.status}, not JSON)`, undefined);
  }
  const error = record(record(res.data).error);
  const first = record(Array.isArray(error.errors) ? error.errors[0] : undefined);
  const reason = typeof first.reason === 'string' ? first.reason : undefined;
  const kind =
    statusKind(res.status) ??
    (reason ? REASON_KINDS[reason] : undefined) ??
    (reason && /NotFound$/.test(reason) ? 'not_found' : undefined) ??
    (reason && /^invalid|Required$|TooLong$/.test(reason) ? 'invalid_content' : undefined) ??
    kindOfStatus(res.status);
  const detail = safeText(error.message ?? first.message);
  const label = reason ?? (typeof error.status === 'string' ? error.status : `HTTP ${res.status}`);
  return fail(
    res,
    kind,
    `YouTube ${what} failed: ${label}${detail ? ` (${detail})` : ''}`,
    reason,
    impliedRetryAfter(reason, now),
  );
}

/** The body of a successful token-endpoint answer, or the PlatformError it carries. */
export function readOAuth(res: HttpResponse, step: OAuthStep, requireToken: boolean): Record<string, unknown> {
  return readOAuthAnswer({ platform: 'youtube', name: 'YouTube', kinds: OAUTH_KINDS }, res, step, requireToken);
}
