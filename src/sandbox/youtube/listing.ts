// Listings in the YouTube simulator's read side (engagement.ts): maxResults, opaque page tokens bound to their
// listing, the list envelope, and the parameter errors YouTube answers.
import type { ErrorAnswer } from '../core/route.ts';
import { randomUrlSafe } from '../core/ids.ts';
import type { JsonObject } from '../core/types.ts';
import { googleApiError } from './errors.ts';

export const etag = (): string => randomUrlSafe(27);

export function parameterError(message: string, reason: string, location?: string): ErrorAnswer {
  return googleApiError(400, 'INVALID_ARGUMENT', message, reason, {
    domain: 'youtube.parameter',
    ...(location ? { location } : {}),
  });
}

/** maxResults within [min, max], or the error; default when absent. */
export function pageSize(raw: string | undefined, min: number, max: number, fallback: number): number | ErrorAnswer {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    return parameterError(
      `Invalid value '${raw}'. Values must be within the range: [${min}, ${max}]`,
      'invalidParameter',
      'maxResults',
    );
  return n;
}

/** Page tokens are opaque to callers: the offset and the listing they belong to. */
function pageToken(scope: string, offset: number): string {
  return Buffer.from(JSON.stringify({ s: scope, o: offset })).toString('base64url');
}

export function offsetOf(raw: string | undefined, scope: string): number | ErrorAnswer {
  if (!raw) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { s?: unknown; o?: unknown };
    if (parsed.s === scope && typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0)
      return parsed.o;
  } catch {
    // fall through
  }
  return parameterError('The request specifies an invalid page token.', 'invalidPageToken', 'pageToken');
}

export function isError(v: unknown): v is ErrorAnswer {
  return typeof v === 'object' && v !== null && 'status' in v && 'body' in v;
}

/** One page of `all` and the listing envelope. */
export function paged(kind: string, all: JsonObject[], offset: number, size: number, scope: string): JsonObject {
  const items = all.slice(offset, offset + size);
  const next: JsonObject = offset + size < all.length ? { nextPageToken: pageToken(scope, offset + size) } : {};
  return { kind, etag: etag(), ...next, pageInfo: { totalResults: all.length, resultsPerPage: size }, items };
}
