// Threads answers in the Graph envelope (shared mapping in ../meta/graph.ts); a few of its errors carry a
// symbolic `THREADS_API__*` code or message instead of a number. Documented codes with their own words and kinds are
// in documented-errors.ts.
import type { HttpResponse } from '../http.ts';
import { PlatformError } from '../types.ts';
import { bodyOf, graphErrorFrom, isRecord, readGraphError, type GraphPhase } from '../meta/graph.ts';
import { documentedError } from '../documented-errors.ts';
import { THREADS_DOCUMENTED_ERRORS } from './documented-errors.ts';

export function threadsError(res: HttpResponse, phase: GraphPhase = 'api'): PlatformError {
  const mapped = graphErrorFrom('threads', res, phase);
  const body = bodyOf(res);
  const e = isRecord(body) && isRecord(body.error) ? body.error : {};
  const symbolic = [e.code, e.message, e.error_user_msg].find(
    (v): v is string => typeof v === 'string' && v.includes('THREADS_API__'),
  );
  // Features that need a linked Instagram account (e.g. follower counts) are missing for this profile, not broken.
  if (symbolic?.includes('THREADS_API__FEATURE_NOT_AVAILABLE')) {
    return new PlatformError('threads', 'unsupported', mapped.message, {
      status: res.status,
      code: 'THREADS_API__FEATURE_NOT_AVAILABLE',
    });
  }
  const graph = readGraphError(body);
  if (phase !== 'api' || !graph) return mapped;
  // Code 9 without a subcode is the publishing quota (threads_publishing_limit reports quota_duration 86400).
  const code = graph.subcode !== undefined ? `${graph.code ?? ''}/${graph.subcode}` : String(graph.code ?? '');
  return documentedError(THREADS_DOCUMENTED_ERRORS, code, mapped);
}

export function threadsOk(res: HttpResponse, phase: GraphPhase = 'api'): Record<string, unknown> {
  if (res.status >= 200 && res.status < 300) {
    const body = bodyOf(res);
    return isRecord(body) ? body : {};
  }
  throw threadsError(res, phase);
}
