// Instagram errors. graph.instagram.com uses the Graph envelope (shared with Facebook and Threads); the code
// exchange on api.instagram.com has its own flat shape `{error_type, code, error_message}`.
import type { HttpResponse } from '../http.ts';
import { PlatformError, type PlatformErrorKind } from '../types.ts';
import { safeText } from '../errors.ts';
import { bodyOf, graphErrorFrom, isRecord, readGraphError, type GraphPhase } from '../meta/graph.ts';
import { documentedError } from '../documented-errors.ts';
import { INSTAGRAM_DOCUMENTED_ERRORS } from './documented-errors.ts';

function flatKind(status: number, message: string): PlatformErrorKind {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'transient';
  // The app's own id or secret was refused: this server is not permitted, whatever the user does.
  if (/client secret|platform app|client_id/i.test(message)) return 'permission';
  // "Matching code was not found or was already used", an expired code or a redirect_uri mismatch: the code is spent.
  if (/code|redirect_uri/i.test(message)) return 'reauth_required';
  return 'invalid_content';
}

export function instagramError(res: HttpResponse, phase: GraphPhase = 'api'): PlatformError {
  const body = bodyOf(res);
  if (isRecord(body) && typeof body.error_message === 'string') {
    const message = body.error_message;
    return new PlatformError(
      'instagram',
      flatKind(res.status, message),
      `instagram token request failed (${safeText(message)})`,
      {
        status: res.status,
        ...(typeof body.error_type === 'string' ? { code: body.error_type } : {}),
      },
    );
  }
  const mapped = graphErrorFrom('instagram', res, phase);
  if (phase !== 'api') return mapped;
  const e = readGraphError(body);
  if (!e) return mapped;
  if (/not an instagram business/i.test(e.message))
    return documentedError(INSTAGRAM_DOCUMENTED_ERRORS, 'not-business', mapped);
  return documentedError(
    INSTAGRAM_DOCUMENTED_ERRORS,
    e.subcode !== undefined ? `${e.code ?? ''}/${e.subcode}` : String(e.code ?? ''),
    mapped,
  );
}

export function instagramOk(res: HttpResponse, phase: GraphPhase = 'api'): Record<string, unknown> {
  if (res.status >= 200 && res.status < 300) {
    const body = bodyOf(res);
    return isRecord(body) ? body : {};
  }
  throw instagramError(res, phase);
}
