// The MCP SDK's own OAuth client (what MCP Inspector and SDK-based connectors run) against Herald:
// discovery from the MCP endpoint, dynamic registration, PKCE, the resource parameter, code exchange, refresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { pathOf, signInAt } from './helpers.ts';

let h: Harness;
let user: TestUser;
beforeAll(async () => {
  h = await createHarness();
  await h.signup();
  user = await h.signup();
});
afterAll(async () => h?.close());

/** fetch over fastify.inject, as the SDK would reach Herald over the network. */
const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  expect(url.origin).toBe(h.url);
  const headers = Object.fromEntries(new Headers(init?.headers).entries());
  const body = init?.body === undefined || init.body === null ? undefined : String(init.body);
  const res = await h.app.inject({
    method: (init?.method ?? 'GET') as 'GET',
    url: url.pathname + url.search,
    headers,
    ...(body !== undefined ? { payload: body } : {}),
  });
  const out = new Headers();
  for (const [k, v] of Object.entries(res.headers)) for (const one of [v ?? []].flat()) out.append(k, String(one));
  return new Response(res.statusCode === 204 ? null : res.body, { status: res.statusCode, headers: out });
};

describe('the MCP SDK OAuth client', () => {
  it('discovers Herald from /web/mcp, registers, authorizes with PKCE for that resource, exchanges and refreshes', async () => {
    const redirect = 'http://localhost:6274/oauth/callback';
    let info: OAuthClientInformationMixed | undefined;
    let tokens: OAuthTokens | undefined;
    let verifier = '';
    let authUrl: URL | undefined;
    const provider: OAuthClientProvider = {
      get redirectUrl() {
        return redirect;
      },
      get clientMetadata() {
        return {
          client_name: 'Inspector',
          redirect_uris: [redirect],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        };
      },
      clientInformation: () => info,
      saveClientInformation: (i) => {
        info = i;
      },
      tokens: () => tokens,
      saveTokens: (t) => {
        tokens = t;
      },
      redirectToAuthorization: (u) => {
        authUrl = u;
      },
      saveCodeVerifier: (v) => {
        verifier = v;
      },
      codeVerifier: () => verifier,
    };
    const serverUrl = `${h.url}/web/mcp`;
    expect(await auth(provider, { serverUrl, fetchFn })).toBe('REDIRECT');
    expect(info?.client_id).toBeTruthy();
    expect(authUrl!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl!.searchParams.get('resource')).toBe(serverUrl);

    const back = await signInAt(h, user, pathOf(authUrl!.toString()));
    expect(`${back.origin}${back.pathname}`).toBe(redirect);
    expect(await auth(provider, { serverUrl, authorizationCode: back.searchParams.get('code')!, fetchFn })).toBe(
      'AUTHORIZED',
    );
    expect(await h.ctx.oauth.verifyAccessToken(tokens!.access_token, serverUrl)).toMatchObject({
      workspaceId: user.workspaceId,
      resource: serverUrl,
    });
    // Issued for the MCP endpoint: not for the rest of the API.
    expect(await h.ctx.oauth.verifyAccessToken(tokens!.access_token, `${h.url}/billing/usage`)).toBeNull();

    // Refresh, as the SDK does when it holds a refresh token.
    const first = tokens!.access_token;
    expect(await auth(provider, { serverUrl, fetchFn })).toBe('AUTHORIZED');
    expect(tokens!.access_token).not.toBe(first);
    expect(await h.ctx.oauth.verifyAccessToken(tokens!.access_token, serverUrl)).not.toBeNull();
  });
});
