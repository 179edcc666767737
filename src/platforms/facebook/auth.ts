// Facebook Login. The code buys a 1-hour user token, which is swapped at once for a ~60-day one (fb_exchange_token):
// Page tokens minted from a long-lived user token never expire, while those from a short-lived one die within the
// hour. There is no refresh grant; when the user token dies the user must log in again.
import type { AdapterDeps, OAuth2Auth, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { FACEBOOK_GRAPH_VERSION, FACEBOOK_SCOPES, facebookUrls, pageTokenKey } from './config.ts';
import { facebookOk } from './errors.ts';
import { appCredentials, expiryFrom, isRecord, required, str } from '../meta/graph.ts';
import { pageTokens } from './pages.ts';

const PAGE_TOKEN_PREFIX = pageTokenKey('');

function withPageTokens(
  extra: Record<string, string> | undefined,
  pages: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(extra ?? {})) if (!k.startsWith(PAGE_TOKEN_PREFIX)) out[k] = v;
  for (const [id, token] of Object.entries(pages)) out[pageTokenKey(id)] = token;
  return out;
}

export function facebookAuth(deps: AdapterDeps): OAuth2Auth {
  const urls = facebookUrls(deps);
  const graph = `${urls.graphBase}/${FACEBOOK_GRAPH_VERSION}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function tokenCall(query: Record<string, string>): Promise<Record<string, unknown>> {
    const res = await deps.http.request('facebook', { url: `${graph}/oauth/access_token`, query });
    return facebookOk(res, 'token');
  }

  /** Permissions the user actually granted; the dialog lets them untick some. */
  async function grantedScopes(userToken: string): Promise<string[]> {
    const res = await deps.http.request('facebook', { url: `${graph}/me/permissions`, headers: bearer(userToken) });
    const body = facebookOk(res);
    const rows = Array.isArray(body.data) ? body.data.filter(isRecord) : [];
    return rows.filter((r) => r.status === 'granted').flatMap((r) => str(r.permission) ?? []);
  }

  /**
   * Right after the code exchange the code is spent, so a failing secondary read must not cost the user a new login:
   * Page tokens can be re-derived by refresh() and scopes are informational.
   */
  async function soft<T>(work: Promise<T>, fallback: T, what: string): Promise<T> {
    try {
      return await work;
    } catch (err) {
      deps.logger.warn(
        { platform: 'facebook', kind: err instanceof PlatformError ? err.kind : 'unknown' },
        `facebook ${what} unavailable after login`,
      );
      return fallback;
    }
  }

  /** Page tokens, tolerating a user who declined pages_show_list (they simply have no Pages to post to). */
  async function pagesOrNone(userToken: string): Promise<Record<string, string>> {
    try {
      return await pageTokens(deps, userToken);
    } catch (err) {
      if (err instanceof PlatformError && err.kind === 'permission') return {};
      throw err;
    }
  }

  return {
    kind: 'oauth2',
    // Facebook Login's documented web flow (reference/platforms/facebook.md) has no PKCE; `state` guards the callback.
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      const { clientId } = appCredentials('facebook', deps.config);
      const url = new URL(`${urls.authBase}/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`);
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', FACEBOOK_SCOPES.join(','));
      return url.toString();
    },

    async exchangeCode({ code, redirectUri }) {
      const { clientId, clientSecret } = appCredentials('facebook', deps.config);
      const short = await tokenCall({
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uri: redirectUri,
        code,
      });
      const long = await tokenCall({
        grant_type: 'fb_exchange_token',
        client_id: clientId,
        client_secret: clientSecret,
        fb_exchange_token: required('facebook', short.access_token, 'an access token'),
      });
      const accessToken = required('facebook', long.access_token, 'a long-lived access token');
      const [pages, scopes] = await Promise.all([
        soft(pagesOrNone(accessToken), {}, 'Page tokens'),
        soft(grantedScopes(accessToken), undefined, 'granted permissions'),
      ]);
      return {
        accessToken,
        refreshToken: null,
        expiresAt: expiryFrom(deps.clock, long.expires_in),
        ...(scopes ? { scopes } : {}),
        extra: withPageTokens(undefined, pages),
      };
    },

    /**
     * No refresh grant exists, so this does not extend the user token: it re-derives the Page tokens from it (Pages
     * added or removed since, a Page token invalidated by a role change). A dead user token means a new login.
     */
    async refresh(tokens: TokenSet): Promise<TokenSet> {
      const pages = await pagesOrNone(tokens.accessToken).catch((err: unknown) => {
        if (err instanceof PlatformError && err.kind === 'auth_expired') {
          throw new PlatformError(
            'facebook',
            'reauth_required',
            'facebook user token is no longer valid; log in again',
            {
              ...(err.status !== undefined ? { status: err.status } : {}),
              ...(err.code !== undefined ? { code: err.code } : {}),
            },
          );
        }
        throw err;
      });
      return { ...tokens, extra: withPageTokens(tokens.extra, pages) };
    },

    /** Removes the app from the user's account, which invalidates the user token and every Page token with it. */
    async revoke(tokens: TokenSet): Promise<void> {
      const res = await deps.http.request('facebook', {
        method: 'DELETE',
        url: `${graph}/me/permissions`,
        headers: bearer(tokens.accessToken),
      });
      try {
        facebookOk(res);
      } catch (err) {
        // A token that is already dead has nothing left to revoke.
        if (err instanceof PlatformError && (err.kind === 'auth_expired' || err.kind === 'reauth_required')) return;
        throw err;
      }
    },
  };
}
