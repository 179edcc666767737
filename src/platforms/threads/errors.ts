// Threads answers in the Graph envelope (shared mapping in ../meta/graph.ts); a few of its errors carry a
// symbolic `THREADS_API__*` code or message instead of a number.
import type { HttpResponse } from '../http.ts';
import { PlatformError } from '../types.ts';
import { bodyOf, graphErrorFrom, isRecord, type GraphPhase } from '../meta/graph.ts';

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
  return mapped;
}

export function threadsOk(res: HttpResponse, phase: GraphPhase = 'api'): Record<string, unknown> {
  if (res.status >= 200 && res.status < 300) {
    const body = bodyOf(res);
    return isRecord(body) ? body : {};
  }
  throw threadsError(res, phase);
}
