// Pinterest OAuth 2.0 (authorization code, no PKCE). Access tokens last about 30 days. Refresh tokens are
// "continuous": each refresh returns a new refresh token with a fresh 60-day window and retires the old one, so the
// TokenSet a refresh returns must replace the stored one whole. There is no revocation for user tokens: Pinterest's
// /v5/oauth/token/revoke only accepts system-user tokens, so a user disconnects the app in Pinterest's settings.
import { keepUnrestated, requestTokens, tokenSetFrom } from '../oauth.ts';
import type { OAuth2Auth, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { basicAuth, clientId } from './context.ts';
import type { PinterestContext } from './context.ts';
import { readOAuth } from './errors.ts';
import type { OAuthStep } from './errors.ts';

/**
 * Reading the profile and boards, and creating pins (POST /v5/pins lists boards:read, boards:write, pins:read and
 * pins:write; video uploads via /v5/media need pins:write). Secret boards would need the *_secret variants.
 */
export const PINTEREST_SCOPES = [
  'boards:read',
  'boards:write',
  'pins:read',
  'pins:write',
  'user_accounts:read',
] as const;

function toTokenSet(body: Record<string, unknown>, issuedAt: Date): TokenSet {
  // The scope separator is not pinned down by the spec; accept either.
  const tokens = tokenSetFrom(body, issuedAt, /[\s,]+/);
  // Prefer the relative lifetime: it does not depend on Herald's clock agreeing with Pinterest's.
  const absolute =
    typeof body.refresh_token_expires_at === 'number' ? new Date(body.refresh_token_expires_at * 1000) : null;
  return { ...tokens, refreshExpiresAt: tokens.refreshExpiresAt ?? absolute };
}

function tokenCall(
  ctx: PinterestContext,
  form: Record<string, string | undefined>,
  step: OAuthStep,
): Promise<TokenSet> {
  const request = { url: `${ctx.apiBase}/v5/oauth/token`, headers: basicAuth(ctx), form };
  return requestTokens(ctx.deps, 'pinterest', request, (res) => readOAuth(res, step), toTokenSet);
}

async function refresh(ctx: PinterestContext, tokens: TokenSet): Promise<TokenSet> {
  if (!tokens.refreshToken) {
    throw new PlatformError(
      'pinterest',
      'reauth_required',
      'Pinterest connection has no refresh token; reconnect the account',
    );
  }
  const next = await tokenCall(
    ctx,
    // Apps created before 25 Sep 2025 only get continuous refresh tokens when asking; for newer apps it is the default.
    { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, continuous_refresh: 'true' },
    'token refresh',
  );
  return keepUnrestated(tokens, next);
}

export function pinterestAuth(ctx: PinterestContext): OAuth2Auth {
  return {
    kind: 'oauth2',
    pkce: false,
    authorizeUrl({ state, redirectUri }) {
      const url = new URL(`${ctx.authBase}/oauth/`);
      url.searchParams.set('client_id', clientId(ctx));
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', PINTEREST_SCOPES.join(','));
      url.searchParams.set('state', state);
      return url.toString();
    },
    exchangeCode: ({ code, redirectUri }) =>
      tokenCall(ctx, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, 'code exchange'),
    refresh: (tokens) => refresh(ctx, tokens),
  };
}
