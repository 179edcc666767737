// Pieces shared by the three Meta adapters (Facebook, Instagram, Threads): the Graph error envelope
// `{error: {message, type, code, error_subcode, is_transient}}` and its mapping to PlatformError kinds, body parsing,
// expiry and app-credential helpers.
import type { Platform } from '../types.ts';
import { PlatformError, type PlatformErrorKind } from '../types.ts';
import { kindOfStatus, safeText } from '../errors.ts';
import { retryAfterSeconds, type HttpResponse } from '../http.ts';

/** Which kind of call failed: the same Graph code means different things on a token endpoint. */
export type GraphPhase = 'api' | 'token' | 'refresh';

export interface GraphErrorBody {
  message: string;
  code: number | undefined;
  subcode: number | undefined;
  transient: boolean;
}

/** The parsed body, also when a proxy or an old Graph host labels JSON as text/javascript. */
export function bodyOf(res: HttpResponse): unknown {
  if (res.data !== undefined) return res.data;
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export function num(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return null;
}

export function readGraphError(body: unknown): GraphErrorBody | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const e = body.error;
  return {
    message: typeof e.message === 'string' ? e.message : '',
    code: num(e.code) ?? undefined,
    subcode: num(e.error_subcode) ?? undefined,
    transient: e.is_transient === true,
  };
}

// 190 subcodes where logging in again is the only cure (app removed, checkpoint, password changed, unconfirmed user,
// session invalidated, Page role lost). 463 (expired) is the one a refresh may fix.
const GRANT_GONE_SUBCODES = new Set([458, 459, 460, 464, 467, 492]);
const THROTTLE_CODES = new Set([4, 17, 32, 341, 613]);

/**
 * Meta reports how long a throttled app–account pair stays blocked in X-Business-Use-Case-Usage
 * (`estimated_time_to_regain_access`, minutes); a plain Retry-After wins when present.
 */
export function graphRetryAfter(res: HttpResponse): number | undefined {
  const header = retryAfterSeconds(res.headers);
  if (header !== undefined) return header;
  const usage = res.headers.get('x-business-use-case-usage');
  if (!usage) return undefined;
  try {
    const parsed: unknown = JSON.parse(usage);
    if (!isRecord(parsed)) return undefined;
    let minutes = 0;
    for (const entries of Object.values(parsed)) {
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        const m = isRecord(entry) ? num(entry.estimated_time_to_regain_access) : null;
        if (m !== null && m > minutes) minutes = m;
      }
    }
    return minutes > 0 ? minutes * 60 : undefined;
  } catch {
    return undefined;
  }
}

function tokenKind(e: GraphErrorBody): PlatformErrorKind {
  if (e.subcode !== undefined && GRANT_GONE_SUBCODES.has(e.subcode)) return 'reauth_required';
  if (/session has been invalidated|has not authorized application|revoked/i.test(e.message)) return 'reauth_required';
  return 'auth_expired';
}

/**
 * Content-publishing subcodes Meta documents as passing: -1/2207001 server error, -2/2207003 download timeout,
 * 24/2207008 media builder not ready yet. Retried later (a failed container is recreated then).
 */
export const TRANSIENT_SUBCODES = new Set([2207001, 2207003, 2207008]);
/** 9/2207042: the account's daily (rolling 24-hour) API publishing limit is reached. */
export const PUBLISH_LIMIT_SUBCODE = 2207042;
/** How long to wait on a spent publishing quota: its window is a rolling 24 hours, so a slot is free within one. */
export const PUBLISH_LIMIT_WAIT_SECONDS = 24 * 3600;

function kindOf(e: GraphErrorBody, status: number, phase: GraphPhase): PlatformErrorKind {
  const code = e.code;
  if (e.subcode === PUBLISH_LIMIT_SUBCODE) return 'rate_limited';
  if (e.subcode !== undefined && TRANSIENT_SUBCODES.has(e.subcode)) return 'transient';
  if (code === -1 || code === -2) return 'transient';
  if (phase === 'token') {
    // The app's own id/secret were refused: this server is not permitted, and no retry or reconnect fixes that.
    if (code === 101 || /client secret|application id|invalid platform app/i.test(e.message)) return 'permission';
    // 36007 expired, 36008 redirect mismatch, 36009 already used: this code is spent, the user must start over.
    if (code === 100 && (e.subcode === 36007 || e.subcode === 36008 || e.subcode === 36009)) return 'reauth_required';
    if (code === 100 && /verification code|authorization code/i.test(e.message)) return 'reauth_required';
    if (code === 191) return 'reauth_required';
  }
  if (code === 190 || code === 102) return tokenKind(e);
  // 104 and 2500 "an (active) access token must be used": no token reached Graph. 2500 also means an unknown path.
  if (code === 104 || (code === 2500 && /access token/i.test(e.message))) return 'reauth_required';
  if (code === 2500) return 'not_found';
  if (code !== undefined && (THROTTLE_CODES.has(code) || (code >= 80001 && code <= 80014))) return 'rate_limited';
  if (code === 1 || code === 2 || e.transient) return 'transient';
  if (code === 10 || code === 3 || (code !== undefined && code >= 200 && code <= 299)) return 'permission';
  if ((code === 100 && e.subcode === 33) || code === 803) return 'not_found';
  if (status >= 500) return 'transient';
  if (status === 429) return 'rate_limited';
  return 'invalid_content';
}

/**
 * Maps a failed Graph-style response. On token endpoints a dead-token answer means reauth_required: nothing is left to
 * refresh.
 */
export function graphErrorFrom(platform: Platform, res: HttpResponse, phase: GraphPhase): PlatformError {
  const e = readGraphError(bodyOf(res));
  let kind: PlatformErrorKind = e ? kindOf(e, res.status, phase) : kindOfStatus(res.status);
  if (phase !== 'api' && kind === 'auth_expired') kind = 'reauth_required';
  const detail = e
    ? `${e.code ?? '?'}${e.subcode !== undefined ? `/${e.subcode}` : ''}: ${safeText(e.message)}`
    : `HTTP ${res.status}`;
  const retryAfter =
    kind === 'rate_limited'
      ? (graphRetryAfter(res) ?? (e?.subcode === PUBLISH_LIMIT_SUBCODE ? PUBLISH_LIMIT_WAIT_SECONDS : undefined))
      : undefined;
  return new PlatformError(
    platform,
    kind,
    `${platform} ${phase === 'api' ? 'request' : 'token request'} failed (${detail})`,
    {
      status: res.status,
      ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
      ...(e?.code !== undefined ? { code: String(e.code) } : {}),
      // The app id or secret refused on a token call: this server's configuration.
      ...(phase !== 'api' &&
      kind === 'permission' &&
      e &&
      (e.code === 101 || /client secret|application id|invalid platform app/i.test(e.message))
        ? { serverConfig: true }
        : {}),
    },
  );
}

/**
 * Whether a container's ERROR status text names a passing failure (a transient subcode), worth a new container later.
 */
export function transientStatus(message: string | null): boolean {
  return [...TRANSIENT_SUBCODES].some((c) => (message ?? '').includes(String(c)));
}

/** `expires_in` seconds → an absolute Date on the adapter's clock; 0 or absent means the network gave no expiry. */
export function expiryFrom(clock: () => Date, expiresIn: unknown): Date | null {
  const seconds = num(expiresIn);
  return seconds && seconds > 0 ? new Date(clock().getTime() + seconds * 1000) : null;
}

/** The app's credentials, or an `unsupported` error when this server has none for the network. */
export function appCredentials(
  platform: Platform,
  config: { clientId?: string | undefined; clientSecret?: string | undefined },
): {
  clientId: string;
  clientSecret: string;
} {
  if (!config.clientId || !config.clientSecret) {
    throw new PlatformError(
      platform,
      'unsupported',
      `${platform} is not configured on this server (client id and secret)`,
    );
  }
  return { clientId: config.clientId, clientSecret: config.clientSecret };
}

/** A string field the network must have sent; its absence is a protocol break, not a user error. */
export function required(platform: Platform, value: unknown, what: string): string {
  const s = str(value);
  if (s === null) throw new PlatformError(platform, 'transient', `${platform} answered without ${what}`);
  return s;
}
