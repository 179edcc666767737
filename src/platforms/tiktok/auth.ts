// TikTok Login Kit (OAuth v2, web). Access tokens are short-lived and refresh tokens rotate: every refresh returns a
// new refresh token and retires the old one, so the TokenSet a refresh returns must replace the stored one whole.
import { keepUnrestated, requestTokens, secondsFrom, tokenSetFrom } from '../oauth.ts';
import type { OAuthStep } from '../oauth.ts';
import type { OAuth2Auth, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { appCredentials } from './context.ts';
import type { TikTokContext } from './context.ts';
import { readOAuth } from './errors.ts';

/**
 * Posting (direct and to the inbox), the three user.info tiers the profile slice reads, and video.list for the posts
 * read model (the Display API's video/list and video/query). TikTok lets the user grant a subset; what was granted
 * comes back in the token answer and is kept in TokenSet.scopes.
 */
export const TIKTOK_SCOPES = [
  'user.info.basic',
  'user.info.profile',
  'user.info.stats',
  'video.publish',
  'video.upload',
  'video.list',
] as const;

function toTokenSet(body: Record<string, unknown>, issuedAt: Date): TokenSet {
  return {
    ...tokenSetFrom(body, issuedAt, ','),
    refreshExpiresAt: secondsFrom(issuedAt, body.refresh_expires_in),
    ...(typeof body.open_id === 'string' ? { extra: { open_id: body.open_id } } : {}),
  };
}

function tokenCall(ctx: TikTokContext, form: Record<string, string | undefined>, step: OAuthStep): Promise<TokenSet> {
  const request = { url: `${ctx.apiBase}/v2/oauth/token/`, form: { ...appCredentials(ctx), ...form } };
  return requestTokens(ctx.deps, 'tiktok', request, (res) => readOAuth(res, step, true), toTokenSet);
}

async function refresh(ctx: TikTokContext, tokens: TokenSet): Promise<TokenSet> {
  if (!tokens.refreshToken) {
    throw new PlatformError(
      'tiktok',
      'reauth_required',
      'TikTok connection has no refresh token; reconnect the account',
    );
  }
  const next = await tokenCall(
    ctx,
    { grant_type: 'refresh_token', refresh_token: tokens.refreshToken },
    'token refresh',
  );
  // Rotation means a new refresh token always comes back; keeping the old one is only a fallback for an answer that
  // omits it.
  return keepUnrestated(tokens, next);
}

async function revoke(ctx: TikTokContext, tokens: TokenSet): Promise<void> {
  let live = tokens;
  const expired = tokens.expiresAt ? tokens.expiresAt.getTime() <= ctx.deps.clock().getTime() : false;
  if (expired && tokens.refreshToken) {
    // Revocation takes the access token; a dead one cannot end a grant that its refresh token still keeps alive.
    try {
      live = await refresh(ctx, tokens);
    } catch (err) {
      // A refused refresh means the grant is already gone: there is nothing left to revoke.
      if (err instanceof PlatformError && err.kind === 'reauth_required') return;
      throw err;
    }
  }
  const res = await ctx.deps.http.request('tiktok', {
    method: 'POST',
    url: `${ctx.apiBase}/v2/oauth/revoke/`,
    form: { ...appCredentials(ctx), token: live.accessToken },
  });
  readOAuth(res, 'token revocation', false);
}

export function tiktokAuth(ctx: TikTokContext): OAuth2Auth {
  return {
    kind: 'oauth2',
    // Login Kit for Web takes no code_challenge (PKCE is for the mobile and desktop kits), so none is sent.
    pkce: false,
    authorizeUrl({ state, redirectUri }) {
      const url = new URL(`${ctx.authBase}/v2/auth/authorize/`);
      url.searchParams.set('client_key', appCredentials(ctx).client_key);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', TIKTOK_SCOPES.join(','));
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    },
    exchangeCode: ({ code, redirectUri }) =>
      tokenCall(ctx, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, 'code exchange'),
    refresh: (tokens) => refresh(ctx, tokens),
    revoke: (tokens) => revoke(ctx, tokens),
  };
}
