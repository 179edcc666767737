// Bluesky's XRPC errors ({error, message} plus HTTP status) read as PlatformErrors. The same code means different
// things depending on which credential was presented, so every call names its context.
import type { HttpResponse } from '../http.ts';
import { retryAfterSeconds } from '../http.ts';
import { kindOfStatus, safeText } from '../errors.ts';
import { documentedError } from '../documented-errors.ts';
import { PlatformError } from '../types.ts';
import { BLUESKY_DOCUMENTED_ERRORS } from './documented-errors.ts';
import type { PlatformErrorKind } from '../types.ts';

/**
 * login: createSession with the user's handle and app password; access: a call with the access JWT;
 * refresh: refreshSession / deleteSession with the refresh JWT; public: no credential (identity lookups).
 */
export type XrpcContext = 'login' | 'access' | 'refresh' | 'public';

const ACCOUNT_STATUS: Record<string, string> = {
  AccountTakedown: 'This Bluesky account has been taken down',
  AccountDeactivated: 'This Bluesky account is deactivated',
  AccountSuspended: 'This Bluesky account is suspended',
};

const NOT_FOUND = new Set([
  'NotFound',
  'RecordNotFound',
  'HandleNotFound',
  'RepoNotFound',
  'ProfileNotFound',
  'BlobNotFound',
]);

/** The server's own words, as far as they are fit to show: any PDS (or whatever answers in its place) writes them. */
function networkMessage(data: unknown): string | undefined {
  const message = data && typeof data === 'object' ? (data as { message?: unknown }).message : undefined;
  return safeText(message) || undefined;
}

function errorName(data: unknown): string | undefined {
  const name = data && typeof data === 'object' ? (data as { error?: unknown }).error : undefined;
  return typeof name === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(name) ? name : undefined;
}

/**
 * Seconds until the limit resets. The PDS sends `RateLimit-Reset` as an epoch second rather than the usual delta,
 * which Retry-After parsing would misread.
 */
function rateLimitWait(res: HttpResponse, now: Date): number | undefined {
  const reset = res.headers.get('ratelimit-reset');
  if (reset && /^\d+$/.test(reset.trim())) {
    const value = Number(reset.trim());
    // Small values are deltas (draft RateLimit header fields); epoch seconds are far larger.
    return value > 1_000_000_000 ? Math.max(0, value - Math.floor(now.getTime() / 1000)) : value;
  }
  return retryAfterSeconds(res.headers, now);
}

interface Reading {
  kind: PlatformErrorKind;
  message: string;
}

function read(res: HttpResponse, context: XrpcContext, code: string | undefined): Reading {
  const status = res.status;
  const said = networkMessage(res.data);
  if (status === 429 || code === 'RateLimitExceeded')
    return { kind: 'rate_limited', message: 'Bluesky rate limit reached' };
  if (code && ACCOUNT_STATUS[code]) return { kind: 'reauth_required', message: ACCOUNT_STATUS[code] };
  if (code === 'ExpiredToken' || code === 'InvalidToken') {
    // An access JWT that fails is refreshed and retried; a refresh JWT that fails means the session is over.
    return context === 'access'
      ? { kind: 'auth_expired', message: 'Bluesky session expired' }
      : { kind: 'reauth_required', message: 'Bluesky session ended; reconnect the account' };
  }
  if (status === 401) {
    if (context === 'login') {
      return code === 'AuthFactorTokenRequired'
        ? {
            kind: 'invalid_content',
            message: 'This Bluesky account asks for an email sign-in code; use an app password instead',
          }
        : { kind: 'invalid_content', message: 'Invalid handle or app password' };
    }
    return context === 'access'
      ? { kind: 'auth_expired', message: 'Bluesky refused the session' }
      : { kind: 'reauth_required', message: 'Bluesky session ended; reconnect the account' };
  }
  if (status === 501 || code === 'MethodNotImplemented')
    return { kind: 'unsupported', message: 'This Bluesky server does not offer that method' };
  if (status >= 500) return { kind: 'transient', message: `Bluesky is unavailable (HTTP ${status})` };
  if (status === 404 || (code && NOT_FOUND.has(code)))
    return { kind: 'not_found', message: said ? `Bluesky: ${said}` : 'Not found on Bluesky' };
  const kind = kindOfStatus(status);
  return { kind, message: said ? `Bluesky: ${said}` : `Bluesky answered HTTP ${status}` };
}

/** The PlatformError for a failed XRPC response (`code`: the error name when the body's own is not the one meant). */
export function blueskyError(
  res: HttpResponse,
  context: XrpcContext,
  now: Date,
  code = errorName(res.data),
): PlatformError {
  const { kind, message } = read(res, context, code);
  const wait = kind === 'rate_limited' ? rateLimitWait(res, now) : undefined;
  const mapped = new PlatformError('bluesky', kind, message, {
    status: res.status,
    ...(wait !== undefined ? { retryAfterSeconds: wait } : {}),
    ...(code ? { code } : {}),
  });
  return code ? documented(code, mapped) : mapped;
}

/** The documented entry's kind and words for `code`, unless the mapping already says those words. */
export function documented(code: string, mapped: PlatformError): PlatformError {
  // Only entries with words of their own restate the mapping: the others document what the mapping already decides
  // (the same code can mean another kind on another call, as ExpiredToken does on a refresh).
  const words = BLUESKY_DOCUMENTED_ERRORS.find((d) => d.code === code)?.words;
  return words === undefined || mapped.message.startsWith(words)
    ? mapped
    : documentedError(BLUESKY_DOCUMENTED_ERRORS, code, mapped);
}

/** A PlatformError of ours (not from a response), e.g. a malformed answer or an input we refuse before calling. */
export function blueskyFailure(kind: PlatformErrorKind, message: string, cause?: unknown): PlatformError {
  return new PlatformError('bluesky', kind, message, cause ? { cause } : {});
}
