// LinkedIn's error bodies mapped to PlatformError kinds. The API answers `{status, serviceErrorCode, code, message}`
// (older resources omit `code`); the OAuth endpoints answer `{error, error_description}`.
import { kindOfStatus, safeText } from '../errors.ts';
import { retryAfterSeconds, type HttpResponse } from '../http.ts';
import { documentedError } from '../documented-errors.ts';
import { PlatformError, type PlatformErrorKind } from '../types.ts';
import { LINKEDIN_DOCUMENTED_ERRORS } from './documented-errors.ts';

/** api = resource calls; token = code exchange; refresh = refresh-token grant. */
export type LinkedInPhase = 'api' | 'token' | 'refresh';

function bodyOf(res: HttpResponse): Record<string, unknown> {
  let body = res.data;
  if (body === undefined) {
    try {
      body = JSON.parse(res.text) as unknown;
    } catch {
      body = undefined;
    }
  }
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

// serviceErrorCode values LinkedIn sends with 401s: 65600 invalid, 65601 expired, 65602 revoked, 65604 empty.
const TOKEN_CODES: Record<string, PlatformErrorKind> = {
  REVOKED_ACCESS_TOKEN: 'reauth_required',
  '65602': 'reauth_required',
  EMPTY_ACCESS_TOKEN: 'reauth_required',
  '65604': 'reauth_required',
  EXPIRED_ACCESS_TOKEN: 'auth_expired',
  '65601': 'auth_expired',
  INVALID_ACCESS_TOKEN: 'auth_expired',
  '65600': 'auth_expired',
};

function apiKind(status: number, code: string, serviceCode: string, message: string): PlatformErrorKind {
  if (status === 401) {
    const known = TOKEN_CODES[code] ?? TOKEN_CODES[serviceCode];
    if (known) return known;
    return /revoked/i.test(message) ? 'reauth_required' : 'auth_expired';
  }
  // A sunset or missing LinkedIn-Version is this server's configuration, not something a retry fixes.
  if (status === 426 || code === 'VERSION_MISSING' || code === 'NONEXISTENT_VERSION') return 'unsupported';
  // "A write conflict occurred": LinkedIn's advice is to retry once.
  if (status === 409) return 'transient';
  return kindOfStatus(status);
}

function oauthKind(status: number, error: string, description: string): PlatformErrorKind {
  if (status === 429 || error === 'temporarily_unavailable') return 'rate_limited';
  if (status >= 500 || error === 'server_error') return 'transient';
  if (error === 'invalid_grant') return 'reauth_required';
  // LinkedIn reports spent, unknown or mismatched codes and dead refresh tokens as `invalid_request`.
  if (/refresh token|authorization code|authorization grant|code verifier|redirect uri/i.test(description))
    return 'reauth_required';
  if (error === 'invalid_redirect_uri') return 'reauth_required';
  // The app's own credentials were refused: this server is not permitted, whatever the member does.
  if (error === 'invalid_client' || error === 'unauthorized_client') return 'permission';
  // unsupported_grant_type, a missing parameter: Herald's request, not the member's.
  return 'invalid_content';
}

/** Seconds until the next 00:00 UTC, when LinkedIn's daily quotas reset. */
export function secondsToUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** The Rest.li input errors of a validation answer (`errorDetails.inputErrors[]`): their codes and descriptions. */
export function inputErrorsOf(res: HttpResponse): { code: string; description: string }[] {
  const details = bodyOf(res).errorDetails;
  const list = details && typeof details === 'object' ? (details as Record<string, unknown>).inputErrors : undefined;
  if (!Array.isArray(list)) return [];
  return list
    .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
    .map((e) => ({ code: text(e.code), description: text(e.description) || text(e.message) }));
}

/**
 * LinkedIn's "media not processed yet" refusal, at the top level or (as validation reports it) among the input errors.
 */
export function waitingForUpload(res: HttpResponse, err: PlatformError): boolean {
  if (err.code === 'MEDIA_ASSET_WAITING_UPLOAD') return true;
  return inputErrorsOf(res).some(
    (e) => e.code === 'MEDIA_ASSET_WAITING_UPLOAD' || /WAITING_UPLOAD/.test(e.description),
  );
}

export function linkedinError(
  res: HttpResponse,
  phase: LinkedInPhase = 'api',
  now: () => Date = () => new Date(),
): PlatformError {
  const body = bodyOf(res);
  const oauthError = text(body.error);
  let kind: PlatformErrorKind;
  let detail: string;
  let code: string;
  if (oauthError) {
    const description = text(body.error_description);
    kind = oauthKind(res.status, oauthError, description);
    detail = `${oauthError}${description ? `: ${safeText(description)}` : ''}`;
    code = oauthError;
  } else {
    const serviceCode = text(body.serviceErrorCode);
    // Validation answers name their code only among the input errors (`DUPLICATE_POST`, `MISSING_FIELD`).
    code =
      text(body.code) || serviceCode || (inputErrorsOf(res).find((e) => /^[A-Z_]{3,64}$/.test(e.code))?.code ?? '');
    const message = text(body.message);
    kind = apiKind(res.status, text(body.code), serviceCode, message);
    detail = `${code || `HTTP ${res.status}`}${message ? `: ${safeText(message)}` : ''}`;
  }
  // On the token endpoint there is nothing left to refresh: a dead credential means a new consent.
  if (phase !== 'api' && kind === 'auth_expired') kind = 'reauth_required';
  // LinkedIn sends no Retry-After: its 429s are daily quotas (per member, per app) that reset at 00:00 UTC.
  const retryAfter =
    kind === 'rate_limited' ? (retryAfterSeconds(res.headers) ?? secondsToUtcMidnight(now())) : undefined;
  const mapped = new PlatformError(
    'linkedin',
    kind,
    `linkedin ${phase === 'api' ? 'request' : 'token request'} failed (${detail})`,
    {
      status: res.status,
      ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
      ...(code ? { code } : {}),
    },
  );
  return phase === 'api' && code ? documentedError(LINKEDIN_DOCUMENTED_ERRORS, code, mapped) : mapped;
}

/** The JSON object of a 2xx answer (empty for bodiless ones), or the mapped PlatformError. */
export function linkedinOk(
  res: HttpResponse,
  phase: LinkedInPhase = 'api',
  now: () => Date = () => new Date(),
): Record<string, unknown> {
  if (res.status >= 200 && res.status < 300) return bodyOf(res);
  throw linkedinError(res, phase, now);
}
