// Threads OAuth. The code buys a 1-hour token, swapped at once for a 60-day one (th_exchange_token). Refreshing
// (th_refresh_token) gives a new 60-day token for one at least 24 hours old and still valid; an expired token means a
// new login. Threads has no revocation endpoint: users remove the app in their Threads settings.
import type { AdapterDeps, OAuth2Auth } from '../types.ts';
import { appCredentials, expiryFrom, required } from '../meta/graph.ts';
import { THREADS_SCOPES, threadsUrls } from './config.ts';
import { threadsOk } from './errors.ts';

export function threadsAuth(deps: AdapterDeps): OAuth2Auth {
  const urls = threadsUrls(deps);

  return {
    kind: 'oauth2',
    // Not offered by Threads (reference/platforms/threads.md); `state` guards the callback.
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      const { clientId } = appCredentials('threads', deps.config);
      const url = new URL(`${urls.authBase}/oauth/authorize`);
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('scope', THREADS_SCOPES.join(','));
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('state', state);
      return url.toString();
    },

    async exchangeCode({ code, redirectUri }) {
      const { clientId, clientSecret } = appCredentials('threads', deps.config);
      const res = await deps.http.request('threads', {
        method: 'POST',
        url: `${urls.graphBase}/oauth/access_token`,
        form: {
          client_id: clientId,
          client_secret: clientSecret,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
          code,
        },
      });
      const short = threadsOk(res, 'token');
      const long = threadsOk(
        await deps.http.request('threads', {
          url: `${urls.graphBase}/access_token`,
          query: {
            grant_type: 'th_exchange_token',
            client_secret: clientSecret,
            access_token: required('threads', short.access_token, 'an access token'),
          },
        }),
        'token',
      );
      return {
        accessToken: required('threads', long.access_token, 'a long-lived access token'),
        refreshToken: null,
        expiresAt: expiryFrom(deps.clock, long.expires_in),
      };
    },

    async refresh(tokens) {
      const res = await deps.http.request('threads', {
        url: `${urls.graphBase}/refresh_access_token`,
        query: { grant_type: 'th_refresh_token', access_token: tokens.accessToken },
      });
      const body = threadsOk(res, 'refresh');
      return {
        ...tokens,
        accessToken: required('threads', body.access_token, 'a refreshed access token'),
        expiresAt: expiryFrom(deps.clock, body.expires_in),
      };
    },
  };
}
