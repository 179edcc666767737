// Pinterest v5 errors, read into PlatformErrors. Every failure is {code, message} with the HTTP status carrying the
// class; the numeric code refines it where one status means several things (401 from the token endpoint is either the
// app's credentials or a dead grant).
import { errorFromResponse, kindOfStatus, record, safeText, statusKind } from '../errors.ts';
import type { HttpResponse } from '../http.ts';
import { documentedError } from '../documented-errors.ts';
import type { PlatformErrorKind } from '../types.ts';
import { PINTEREST_DOCUMENTED_ERRORS } from './documented-errors.ts';

const API_CODES: Record<number, PlatformErrorKind> = {
  1: 'invalid_content',
  // A scope the grant lacks: only a new authorization that approves it helps.
  3: 'reauth_required',
  7: 'permission',
  29: 'permission',
  30: 'not_found',
  40: 'not_found',
  50: 'not_found',
};

// "The authorization grant is invalid": a refresh token (or code) that was revoked, expired or already rotated out.
const GRANT_INVALID = 283;
// "Authentication failed." — at the token endpoint this is the app's Basic credentials, not the user's grant.
const AUTH_FAILED = 2;

function errorBody(res: HttpResponse): { code: number | undefined; detail: string } {
  const body = record(res.data);
  return { code: typeof body.code === 'number' ? body.code : undefined, detail: safeText(body.message) };
}

function fail(res: HttpResponse, kind: PlatformErrorKind, message: string, code: number | undefined): never {
  throw errorFromResponse('pinterest', res, { kind, message, ...(code !== undefined ? { code: String(code) } : {}) });
}

function describe(what: string, res: HttpResponse, code: number | undefined, detail: string): string {
  const label = code !== undefined ? `code ${code}` : `HTTP ${res.status}`;
  return `Pinterest ${what} failed: ${label}${detail ? ` (${detail})` : ''}`;
}

/** The JSON body of a successful API answer, or the PlatformError its {code, message} describes. */
export function readApi(res: HttpResponse, what: string): Record<string, unknown> {
  if (res.status >= 200 && res.status < 300) {
    if (res.data !== undefined) return record(res.data);
    return fail(res, 'transient', `Pinterest ${what}: unexpected answer (HTTP ${res.status}, not JSON)`, undefined);
  }
  const { code, detail } = errorBody(res);
  const mapped = errorFromResponse('pinterest', res, {
    kind: apiKind(res.status, code),
    message: describe(what, res, code, detail),
    ...(code !== undefined ? { code: String(code) } : {}),
  });
  throw documentedError(PINTEREST_DOCUMENTED_ERRORS, documentedCode(code, detail), mapped);
}

/** The documented entry a code stands for: code 1 is also Pinterest's answer to an image URL it could not fetch. */
function documentedCode(code: number | undefined, detail: string): string {
  if (code === 1 && /Unable to reach the URL/i.test(detail)) return '1/unreachable';
  return code === undefined ? '' : String(code);
}

function apiKind(status: number, code: number | undefined): PlatformErrorKind {
  // A 401 is the access token whatever the code (2 or the ads API's 1104); 404 is not found whatever the object.
  if (status === 401) return 'auth_expired';
  if (status === 404) return 'not_found';
  return statusKind(status) ?? (code !== undefined ? API_CODES[code] : undefined) ?? kindOfStatus(status);
}

export type OAuthStep = 'code exchange' | 'token refresh';

/** The body of a successful token-endpoint answer, or the PlatformError it carries. */
export function readOAuth(res: HttpResponse, step: OAuthStep): Record<string, unknown> {
  const body = record(res.data);
  if (res.status >= 200 && res.status < 300 && typeof body.access_token === 'string' && body.access_token) return body;
  const { code, detail } = errorBody(res);
  // A 2xx without a token is a broken answer, not a verdict on the grant.
  const answered = res.status >= 200 && res.status < 300;
  const kind = answered ? 'transient' : (statusKind(res.status) ?? tokenEndpointKind(res.status, code));
  // "Authentication failed." on the token endpoint is the app's Basic credentials: this server's configuration.
  if (!answered && res.status === 401 && code === AUTH_FAILED) {
    throw errorFromResponse('pinterest', res, {
      kind,
      message: describe(step, res, code, detail),
      code: String(code),
      serverConfig: true,
    });
  }
  return fail(res, kind, describe(step, res, code, detail), code);
}

function tokenEndpointKind(status: number, code: number | undefined): PlatformErrorKind {
  if (code === GRANT_INVALID) return 'reauth_required';
  if (status === 401 && code === AUTH_FAILED) return 'permission';
  if (status === 403) return 'permission';
  // Any other refusal of a code or refresh token: only a new authorization gets past it.
  if (status === 400 || status === 401) return 'reauth_required';
  return kindOfStatus(status);
}
