// Business Login for Instagram. The code buys a 1-hour token on api.instagram.com, swapped at once for a 60-day one
// (ig_exchange_token). Refreshing (ig_refresh_token) gives a new 60-day token; Instagram accepts it only for tokens at
// least 24 hours old and still valid, so an expired token means a new login. There is no revocation endpoint:
// users remove the app in their Instagram settings.
import type { AdapterDeps, OAuth2Auth } from '../types.ts';
import { appCredentials, expiryFrom, isRecord, required } from '../meta/graph.ts';
import { INSTAGRAM_SCOPES, instagramUrls } from './config.ts';
import { instagramOk } from './errors.ts';

/** The current doc sample wraps the code-exchange answer in `{data: [...]}`; the older flat shape is still served. */
function unwrap(body: Record<string, unknown>): Record<string, unknown> {
  const first: unknown = Array.isArray(body.data) ? body.data[0] : undefined;
  return isRecord(first) ? first : body;
}

function permissionsOf(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value === 'string') return value.split(/[ ,]+/).filter(Boolean);
  return undefined;
}

export function instagramAuth(deps: AdapterDeps): OAuth2Auth {
  const urls = instagramUrls(deps);

  return {
    kind: 'oauth2',
    // Not offered by Instagram Login (reference/platforms/instagram.md); `state` guards the callback.
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      const { clientId } = appCredentials('instagram', deps.config);
      const url = new URL(`${urls.authBase}/oauth/authorize`);
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', INSTAGRAM_SCOPES.join(','));
      url.searchParams.set('state', state);
      return url.toString();
    },

    async exchangeCode({ code, redirectUri }) {
      const { clientId, clientSecret } = appCredentials('instagram', deps.config);
      const res = await deps.http.request('instagram', {
        method: 'POST',
        url: `${urls.tokenBase}/oauth/access_token`,
        form: {
          client_id: clientId,
          client_secret: clientSecret,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
          // Instagram appends `#_` to the redirect; a callback that kept it would send a code that never matches.
          code: code.replace(/#_$/, ''),
        },
      });
      const short = unwrap(instagramOk(res, 'token'));
      const long = instagramOk(
        await deps.http.request('instagram', {
          url: `${urls.graphBase}/access_token`,
          query: {
            grant_type: 'ig_exchange_token',
            client_secret: clientSecret,
            access_token: required('instagram', short.access_token, 'an access token'),
          },
        }),
        'token',
      );
      const scopes = permissionsOf(short.permissions);
      return {
        accessToken: required('instagram', long.access_token, 'a long-lived access token'),
        refreshToken: null,
        expiresAt: expiryFrom(deps.clock, long.expires_in),
        ...(scopes ? { scopes } : {}),
      };
    },

    async refresh(tokens) {
      const res = await deps.http.request('instagram', {
        url: `${urls.graphBase}/refresh_access_token`,
        query: { grant_type: 'ig_refresh_token', access_token: tokens.accessToken },
      });
      const body = instagramOk(res, 'refresh');
      return {
        ...tokens,
        accessToken: required('instagram', body.access_token, 'a refreshed access token'),
        expiresAt: expiryFrom(deps.clock, body.expires_in),
      };
    },
  };
}
