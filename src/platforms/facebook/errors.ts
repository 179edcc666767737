// Facebook's refinements of the shared Graph mapping: the documented codes and Page-specific subcodes the other Meta
// networks do not send (documented-errors.ts), looked up by code/subcode, then subcode, then code.
import type { HttpResponse } from '../http.ts';
import type { PlatformError } from '../types.ts';
import { bodyOf, graphErrorFrom, isRecord, readGraphError, type GraphPhase } from '../meta/graph.ts';
import { documentedError } from '../documented-errors.ts';
import { FACEBOOK_DOCUMENTED_ERRORS } from './documented-errors.ts';

export function facebookError(res: HttpResponse, phase: GraphPhase = 'api'): PlatformError {
  const mapped = graphErrorFrom('facebook', res, phase);
  const e = readGraphError(bodyOf(res));
  if (phase !== 'api' || !e) return mapped;
  const code = String(e.code ?? '');
  // A subcode the table does not know falls back to its code only where the shared mapping found nothing more
  // specific than its default (100/33 stays "not found"; 368 with an unknown subcode is still the policy block).
  const keys =
    e.subcode === undefined
      ? [code]
      : [`${code}/${e.subcode}`, String(e.subcode), ...(mapped.kind === 'invalid_content' ? [code] : [])];
  return documentedError(FACEBOOK_DOCUMENTED_ERRORS, keys, mapped);
}

/** The JSON object of a 2xx answer, or the mapped PlatformError. */
export function facebookOk(res: HttpResponse, phase: GraphPhase = 'api'): Record<string, unknown> {
  if (res.status >= 200 && res.status < 300) {
    const body = bodyOf(res);
    return isRecord(body) ? body : {};
  }
  throw facebookError(res, phase);
}
