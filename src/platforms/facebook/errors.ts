// Facebook's refinements of the shared Graph mapping: Page-specific subcodes the other Meta networks do not send.
import type { HttpResponse } from '../http.ts';
import { PlatformError, type PlatformErrorKind } from '../types.ts';
import { bodyOf, graphErrorFrom, isRecord, readGraphError, type GraphPhase } from '../meta/graph.ts';

// Page Publishing Authorization (1404078) and identity confirmation (4854002) need the user to act on facebook.com;
// 1390008 is the "posting too fast" spam guard, which clears with time; 368 is a temporary policy block.
const SUBCODE_KINDS: Record<number, PlatformErrorKind> = {
  1404078: 'permission',
  4854002: 'permission',
  1390008: 'rate_limited',
  1366046: 'invalid_content',
};

export function facebookError(res: HttpResponse, phase: GraphPhase = 'api'): PlatformError {
  const mapped = graphErrorFrom('facebook', res, phase);
  const e = readGraphError(bodyOf(res));
  const override = e?.subcode !== undefined ? SUBCODE_KINDS[e.subcode] : e?.code === 368 ? 'rate_limited' : undefined;
  if (!override || override === mapped.kind) return mapped;
  return new PlatformError('facebook', override, mapped.message, {
    ...(mapped.status !== undefined ? { status: mapped.status } : {}),
    ...(mapped.retryAfterSeconds !== undefined ? { retryAfterSeconds: mapped.retryAfterSeconds } : {}),
    ...(mapped.code !== undefined ? { code: mapped.code } : {}),
  });
}

/** The JSON object of a 2xx answer, or the mapped PlatformError. */
export function facebookOk(res: HttpResponse, phase: GraphPhase = 'api'): Record<string, unknown> {
  if (res.status >= 200 && res.status < 300) {
    const body = bodyOf(res);
    return isRecord(body) ? body : {};
  }
  throw facebookError(res, phase);
}
