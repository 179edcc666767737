// Shared classification of HTTP failures; each network's folder refines it with its own error codes.
import type { Platform } from './slugs.ts';
import { retryAfterSeconds, type HttpResponse } from './http.ts';
import { PlatformError, type PlatformErrorKind } from './types.ts';

/** The default reading of a failed response, used when the network's own codes say nothing more. */
export function kindOfStatus(status: number): PlatformErrorKind {
  if (status === 401) return 'auth_expired';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 408 || status >= 500) return 'transient';
  if (status === 429) return 'rate_limited';
  return 'invalid_content';
}

/** Throttling and server failures are what they are, whatever code the body carries. */
export function statusKind(status: number): PlatformErrorKind | undefined {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'transient';
  return undefined;
}

/** Network-supplied text as it may appear in a message: short, plain, no hosts, addresses or tokens. */
export { networkText as safeText } from './error-text.ts';

/** A JSON object, or an empty one for anything else (arrays, scalars, a body that was not JSON). */
export function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function errorFromResponse(
  platform: Platform,
  res: HttpResponse,
  /** `impliedRetryAfter`: the wait the error itself implies (a daily cap), used when no Retry-After header came. */
  opts: {
    kind?: PlatformErrorKind;
    message?: string;
    code?: string;
    impliedRetryAfter?: number;
    serverConfig?: boolean;
  } = {},
): PlatformError {
  const kind = opts.kind ?? kindOfStatus(res.status);
  const retryAfter = retryAfterSeconds(res.headers) ?? opts.impliedRetryAfter;
  return new PlatformError(platform, kind, opts.message ?? `${platform} answered HTTP ${res.status}`, {
    status: res.status,
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
    ...(opts.code ? { code: opts.code } : {}),
    ...(opts.serverConfig ? { serverConfig: true } : {}),
  });
}

/** Returns the parsed JSON object of a successful response, or throws what the mapper makes of a failure. */
export function expectOk<T>(
  platform: Platform,
  res: HttpResponse,
  map: (res: HttpResponse) => PlatformError = (r) => errorFromResponse(platform, r),
): T {
  if (res.status >= 200 && res.status < 300) return (res.data ?? {}) as T;
  throw map(res);
}
