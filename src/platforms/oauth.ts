// What the networks with RFC 6749 token endpoints (TikTok, YouTube, Pinterest) read the same way: the token answer's
// common fields, the {error, error_description} dialect of a refusal, and what a refresh answer leaves out.
import type { Platform } from './slugs.ts';
import { errorFromResponse, kindOfStatus, record, safeText, statusKind } from './errors.ts';
import type { HttpRequest, HttpResponse } from './http.ts';
import type { AdapterDeps, PlatformErrorKind, TokenSet } from './types.ts';

export type OAuthStep = 'code exchange' | 'token refresh' | 'token revocation';

export function secondsFrom(at: Date, seconds: unknown): Date | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? new Date(at.getTime() + seconds * 1000)
    : null;
}

/**
 * The fields every token answer carries. The refresh window is read from `refresh_token_expires_in` (Google's and
 * Pinterest's name); a network that names it otherwise overrides it.
 */
export function tokenSetFrom(body: Record<string, unknown>, issuedAt: Date, scopeSeparator: string | RegExp): TokenSet {
  const scope = typeof body.scope === 'string' ? body.scope : '';
  return {
    accessToken: String(body.access_token),
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : null,
    expiresAt: secondsFrom(issuedAt, body.expires_in),
    refreshExpiresAt: secondsFrom(issuedAt, body.refresh_token_expires_in),
    scopes: scope
      .split(scopeSeparator)
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

/** POSTs to a token endpoint and reads the answer, which `read` returns as a body or throws as a PlatformError. */
export async function requestTokens(
  deps: AdapterDeps,
  platform: Platform,
  request: Omit<HttpRequest, 'method'>,
  read: (res: HttpResponse) => Record<string, unknown>,
  toTokenSet: (body: Record<string, unknown>, issuedAt: Date) => TokenSet,
): Promise<TokenSet> {
  // Expiry is counted from before the call, so a slow answer errs towards refreshing early.
  const issuedAt = deps.clock();
  const res = await deps.http.request(platform, { method: 'POST', ...request });
  return toTokenSet(read(res), issuedAt);
}

/**
 * The body of a successful token-endpoint answer in the RFC 6749 dialect, or the PlatformError its
 * {error, error_description} carries (`kinds` maps the network's error codes). Some networks refuse with HTTP 200, so
 * the body decides rather than the status; `requireToken` marks answers that must hold an access token (exchange,
 * refresh): one without is a failure even with HTTP 200.
 */
export function readOAuthAnswer(
  network: { platform: Platform; name: string; kinds: Record<string, PlatformErrorKind> },
  res: HttpResponse,
  step: OAuthStep,
  requireToken: boolean,
): Record<string, unknown> {
  const body = record(res.data);
  const code = typeof body.error === 'string' && body.error !== '' ? body.error : undefined;
  const hasToken = typeof body.access_token === 'string' && body.access_token !== '';
  if (res.status >= 200 && res.status < 300 && !code && (!requireToken || hasToken)) return body;
  const kind =
    statusKind(res.status) ??
    (code ? network.kinds[code] : undefined) ??
    (res.status < 300 ? 'transient' : kindOfStatus(res.status));
  const detail = safeText(body.error_description);
  const what = code ?? (res.status < 300 ? 'no access token in the answer' : `HTTP ${res.status}`);
  const message = `${network.name} ${step} failed: ${what}${detail ? ` (${detail})` : ''}`;
  throw errorFromResponse(network.platform, res, { kind, message, ...(code ? { code } : {}) });
}

/**
 * The TokenSet a refresh leaves behind: the answer, plus what it does not restate. A network that does not rotate
 * refresh tokens omits the one in use, and then a refresh window without a new token is the old token's; an answer
 * without scopes leaves the granted ones as they were. Callers of the adapter get a whole TokenSet, not a patch.
 */
export function keepUnrestated(old: TokenSet, next: TokenSet): TokenSet {
  return {
    ...next,
    refreshToken: next.refreshToken ?? old.refreshToken ?? null,
    refreshExpiresAt: next.refreshExpiresAt ?? (next.refreshToken ? null : (old.refreshExpiresAt ?? null)),
    scopes: next.scopes?.length ? next.scopes : old.scopes,
    ...(old.extra || next.extra ? { extra: { ...old.extra, ...next.extra } } : {}),
  };
}
