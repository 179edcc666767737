// LinkedIn's 3-legged OAuth. Access tokens last 60 days. Apps with programmatic refresh (Community Management
// partners) also get a refresh token with a fixed ~365-day life that using it does not extend; apps without one must
// send the member through consent again before day 60.
import type { AdapterDeps, OAuth2Auth, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { linkedinScopes, linkedinUrls } from './config.ts';
import { linkedinOk, type LinkedInPhase } from './errors.ts';

function app(deps: AdapterDeps): { clientId: string; clientSecret: string } {
  const { clientId, clientSecret } = deps.config;
  if (!clientId || !clientSecret) {
    throw new PlatformError(
      'linkedin',
      'unsupported',
      'linkedin is not configured on this server (client id and secret)',
    );
  }
  return { clientId, clientSecret };
}

function seconds(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** LinkedIn documents `scope` as comma-separated but has been seen sending spaces. */
function scopesOf(value: unknown): string[] | undefined {
  return typeof value === 'string' ? value.split(/[ ,]+/).filter(Boolean) : undefined;
}

export function linkedinAuth(deps: AdapterDeps): OAuth2Auth {
  const urls = linkedinUrls(deps);

  async function tokenCall(form: Record<string, string>, phase: LinkedInPhase): Promise<Record<string, unknown>> {
    const res = await deps.http.request('linkedin', {
      method: 'POST',
      url: `${urls.authBase}/oauth/v2/accessToken`,
      form,
    });
    return linkedinOk(res, phase, deps.clock);
  }

  function tokenSet(body: Record<string, unknown>, previous?: TokenSet): TokenSet {
    const accessToken = body.access_token;
    if (typeof accessToken !== 'string' || !accessToken) {
      throw new PlatformError('linkedin', 'transient', 'linkedin answered without an access token');
    }
    const now = deps.clock().getTime();
    const expiresIn = seconds(body.expires_in);
    const refreshIn = seconds(body.refresh_token_expires_in);
    const refreshToken = typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : null;
    const scopes = scopesOf(body.scope) ?? previous?.scopes;
    return {
      accessToken,
      refreshToken: refreshToken ?? previous?.refreshToken ?? null,
      expiresAt: expiresIn ? new Date(now + expiresIn * 1000) : null,
      refreshExpiresAt: refreshIn ? new Date(now + refreshIn * 1000) : (previous?.refreshExpiresAt ?? null),
      ...(scopes ? { scopes } : {}),
      ...(previous?.extra ? { extra: previous.extra } : {}),
    };
  }

  async function revokeOne(token: string): Promise<void> {
    const { clientId, clientSecret } = app(deps);
    const res = await deps.http.request('linkedin', {
      method: 'POST',
      url: `${urls.authBase}/oauth/v2/revoke`,
      form: { client_id: clientId, client_secret: clientSecret, token },
    });
    linkedinOk(res, 'token', deps.clock);
  }

  return {
    kind: 'oauth2',
    // LinkedIn offers PKCE only to approved native clients; the documented web flow relies on `state`.
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      const url = new URL(`${urls.authBase}/oauth/v2/authorization`);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', app(deps).clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('scope', linkedinScopes(deps).join(' '));
      // URLSearchParams writes spaces as '+'; LinkedIn's examples use %20, which every decoder reads the same way.
      return url.toString().replace(/\+/g, '%20');
    },

    async exchangeCode({ code, redirectUri }) {
      const { clientId, clientSecret } = app(deps);
      const body = await tokenCall(
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: clientId,
          client_secret: clientSecret,
        },
        'token',
      );
      return tokenSet(body);
    },

    // Programmatic refresh is granted to few apps; without a refresh token the 60-day access token is all there is.
    canRefresh: (tokens) => Boolean(tokens.refreshToken),

    async refresh(tokens) {
      if (!tokens.refreshToken) {
        throw new PlatformError(
          'linkedin',
          'reauth_required',
          'linkedin issued no refresh token to this app; the member must reconnect',
        );
      }
      const { clientId, clientSecret } = app(deps);
      const body = await tokenCall(
        {
          grant_type: 'refresh_token',
          refresh_token: tokens.refreshToken,
          client_id: clientId,
          client_secret: clientSecret,
        },
        'refresh',
      );
      return tokenSet(body, tokens);
    },

    async revoke(tokens) {
      await revokeOne(tokens.accessToken);
      // Revoking the access token is documented; revoking the refresh token as well leaves nothing usable behind.
      if (tokens.refreshToken) await revokeOne(tokens.refreshToken);
    },
  };
}
