// Threads answers in the Graph envelope (shared mapping in ../meta/graph.ts); a few of its errors carry a
// symbolic `THREADS_API__*` code or message instead of a number.
import type { HttpResponse } from '../http.ts';
import { PlatformError } from '../types.ts';
import { bodyOf, graphErrorFrom, isRecord, PUBLISH_LIMIT_WAIT_SECONDS, readGraphError, type GraphPhase } from '../meta/graph.ts';

/**
 * Code 9 without a subcode is Threads' publishing quota: 250 posts and 1,000 replies per rolling 24 hours
 * (`threads_publishing_limit` reports `quota_duration` 86400). It passes when the window moves on.
 */
export const THREADS_QUOTA_CODE = 9;
export const THREADS_QUOTA_WORDS = 'Threads\' daily publishing limit (250 posts, 1,000 replies a day) is reached; Herald tries again when the 24-hour window frees a slot';

export function threadsError(res: HttpResponse, phase: GraphPhase = 'api'): PlatformError {
  const mapped = graphErrorFrom('threads', res, phase);
  const body = bodyOf(res);
  const e = isRecord(body) && isRecord(body.error) ? body.error : {};
  const symbolic = [e.code, e.message, e.error_user_msg].find((v): v is string => typeof v === 'string' && v.includes('THREADS_API__'));
  // Features that need a linked Instagram account (e.g. follower counts) are missing for this profile, not broken.
  if (symbolic?.includes('THREADS_API__FEATURE_NOT_AVAILABLE')) {
    return new PlatformError('threads', 'unsupported', mapped.message, {
      status: res.status,
      code: 'THREADS_API__FEATURE_NOT_AVAILABLE',
    });
  }
  const graph = readGraphError(body);
  if (graph?.code === THREADS_QUOTA_CODE && graph.subcode === undefined) {
    return new PlatformError('threads', 'rate_limited', `${THREADS_QUOTA_WORDS} (${mapped.message})`, {
      status: res.status,
      retryAfterSeconds: mapped.retryAfterSeconds ?? PUBLISH_LIMIT_WAIT_SECONDS,
      code: String(THREADS_QUOTA_CODE),
    });
  }
  return mapped;
}

export function threadsOk(res: HttpResponse, phase: GraphPhase = 'api'): Record<string, unknown> {
  if (res.status >= 200 && res.status < 300) {
    const body = bodyOf(res);
    return isRecord(body) ? body : {};
  }
  throw threadsError(res, phase);
}
