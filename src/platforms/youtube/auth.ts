// Google OAuth 2.0 (web-server flow) for YouTube. Access tokens last about an hour; the refresh token comes only with
// access_type=offline and, on a re-connect, only with prompt=consent. Refreshing never rotates it: the answer carries
// no refresh_token and the stored one stays valid until revoked, unused for six months, or pushed out by newer ones.
import { record } from '../errors.ts';
import { keepUnrestated, requestTokens, tokenSetFrom } from '../oauth.ts';
import type { OAuthStep } from '../oauth.ts';
import type { OAuth2Auth, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { appCredentials } from './context.ts';
import type { YouTubeContext } from './context.ts';
import { readOAuth } from './errors.ts';

const G = 'https://www.googleapis.com/auth/';

/**
 * Uploading (youtube.upload), reading the channel and managing playlists (youtube), and reading and replying to
 * comments (youtube.force-ssl, the only scope comments.insert accepts). youtube.readonly adds nothing to `youtube`.
 */
export const YOUTUBE_SCOPES = [`${G}youtube.upload`, `${G}youtube`, `${G}youtube.force-ssl`] as const;

// Only time-limited grants carry refresh_token_expires_in; an ordinary refresh token has no fixed end.
const toTokenSet = (body: Record<string, unknown>, issuedAt: Date): TokenSet => tokenSetFrom(body, issuedAt, ' ');

function tokenCall(ctx: YouTubeContext, form: Record<string, string | undefined>, step: OAuthStep): Promise<TokenSet> {
  const request = { url: `${ctx.tokenBase}/token`, form: { ...appCredentials(ctx), ...form } };
  return requestTokens(ctx.deps, 'youtube', request, (res) => readOAuth(res, step, true), toTokenSet);
}

async function refresh(ctx: YouTubeContext, tokens: TokenSet): Promise<TokenSet> {
  if (!tokens.refreshToken) {
    throw new PlatformError(
      'youtube',
      'reauth_required',
      'YouTube connection has no refresh token; reconnect the account',
    );
  }
  const next = await tokenCall(
    ctx,
    { grant_type: 'refresh_token', refresh_token: tokens.refreshToken },
    'token refresh',
  );
  return keepUnrestated(tokens, next);
}

async function revoke(ctx: YouTubeContext, tokens: TokenSet): Promise<void> {
  // Revoking the refresh token ends the whole grant; an access token may already be expired while the grant lives.
  const token = tokens.refreshToken ?? tokens.accessToken;
  const res = await ctx.deps.http.request('youtube', {
    method: 'POST',
    url: `${ctx.tokenBase}/revoke`,
    // In the body rather than the query string, so it stays out of every URL that gets logged.
    form: { token },
  });
  const body = record(res.data);
  // Google's answer for a token that is already expired or revoked: the disconnect has nothing left to do.
  if (res.status === 400 && body.error === 'invalid_token') return;
  readOAuth(res, 'token revocation', false);
}

export function youtubeAuth(ctx: YouTubeContext): OAuth2Auth {
  return {
    kind: 'oauth2',
    pkce: true,
    authorizeUrl({ state, redirectUri, codeChallenge }) {
      const url = new URL(`${ctx.authBase}/o/oauth2/v2/auth`);
      url.searchParams.set('client_id', appCredentials(ctx).client_id);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', YOUTUBE_SCOPES.join(' '));
      url.searchParams.set('state', state);
      // offline: a refresh token at all; consent: a new one on every re-connect, not only the first.
      url.searchParams.set('access_type', 'offline');
      url.searchParams.set('prompt', 'consent');
      if (codeChallenge) {
        url.searchParams.set('code_challenge', codeChallenge);
        url.searchParams.set('code_challenge_method', 'S256');
      }
      return url.toString();
    },
    exchangeCode: ({ code, redirectUri, codeVerifier }) =>
      tokenCall(
        ctx,
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier },
        'code exchange',
      ),
    refresh: (tokens) => refresh(ctx, tokens),
    revoke: (tokens) => revoke(ctx, tokens),
  };
}
