// The whole OAuth flow as a chat connector runs it: registration, authorization with PKCE, the sign-in and
// workspace forms, the code exchange, a call with the token, refresh, revocation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { CHATGPT_CALLBACK, exchange, pkce, register, signInAndAuthorize } from './helpers.ts';

let h: Harness;
let owner: TestUser;
beforeAll(async () => {
  h = await createHarness();
  await h.signup(); // the instance's administrator
  owner = await h.signup({ workspace_name: 'Launch team' });
});
afterAll(async () => h?.close());

describe('discovery', () => {
  it('publishes authorization server metadata (RFC 8414) with S256 only', async () => {
    const res = await h.req({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    expect(res.statusCode).toBe(200);
    const m = res.json();
    expect(m).toMatchObject({
      issuer: h.url,
      authorization_endpoint: `${h.url}/auth/oauth/authorize`,
      token_endpoint: `${h.url}/auth/oauth/token`,
      registration_endpoint: `${h.url}/auth/oauth/register`,
      revocation_endpoint: `${h.url}/auth/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(m.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
  });

  it('publishes protected resource metadata (RFC 9728) for the API and for the MCP endpoint', async () => {
    const api = await h.req({ method: 'GET', url: '/.well-known/oauth-protected-resource' });
    expect(api.statusCode).toBe(200);
    expect(api.json()).toMatchObject({ resource: h.url, authorization_servers: [h.url], scopes_supported: ['herald'] });
    const mcp = await h.req({ method: 'GET', url: '/.well-known/oauth-protected-resource/web/mcp' });
    expect(mcp.json()).toMatchObject({ resource: `${h.url}/web/mcp`, authorization_servers: [h.url] });
  });
});

describe('CORS for browser-based MCP clients', () => {
  it('lets a page on another origin read the metadata, register and exchange codes', async () => {
    const origin = { origin: 'http://localhost:6274' };
    const prm = await h.req({ method: 'GET', url: '/.well-known/oauth-protected-resource/web/mcp', headers: origin });
    expect(prm.headers['access-control-allow-origin']).toBe('*');
    const as = await h.req({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: origin });
    expect(as.headers['access-control-allow-origin']).toBeTruthy();
    for (const url of ['/auth/oauth/token', '/auth/oauth/register', '/.well-known/oauth-protected-resource']) {
      const pre = await h.req({
        method: 'OPTIONS',
        url,
        headers: {
          ...origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(pre.statusCode, url).toBe(204);
      expect(pre.headers['access-control-allow-origin'], url).toBeTruthy();
      expect(String(pre.headers['access-control-allow-methods']), url).toContain('POST');
    }
    const reg = await h.req({
      method: 'POST',
      url: '/auth/oauth/register',
      headers: origin,
      payload: { redirect_uris: ['http://localhost:6274/oauth/callback'], token_endpoint_auth_method: 'none' },
    });
    expect(reg.statusCode).toBe(201);
    expect(reg.headers['access-control-allow-origin']).toBe('*');
    // RFC 7592: the registration can be read back with its registration access token, and only with it.
    const { registration_client_uri: uri, registration_access_token: rat, client_id: id } = reg.json();
    expect(uri).toBe(`${h.url}/auth/oauth/register/${id}`);
    const read = await h.req({
      method: 'GET',
      url: new URL(uri).pathname,
      headers: { authorization: `Bearer ${rat}` },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().client_id).toBe(id);
    const denied = await h.req({
      method: 'GET',
      url: new URL(uri).pathname,
      headers: { authorization: 'Bearer nope' },
    });
    expect(denied.statusCode).toBe(401);
  });
});

describe('the flow as ChatGPT runs it', () => {
  it('registers, signs in, picks a workspace, exchanges the code, calls the API, refreshes and revokes', async () => {
    const client = await register(h);
    const { verifier, challenge } = pkce();
    const back = await signInAndAuthorize(h, owner, { clientId: client.client_id, challenge, state: 'state-42' });
    expect(`${back.origin}${back.pathname}`).toBe(CHATGPT_CALLBACK);
    expect(back.searchParams.get('state')).toBe('state-42');
    expect(back.searchParams.get('iss')).toBe(h.url);
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const tokenRes = await exchange(h, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: client.client_id,
      code_verifier: verifier,
    });
    expect(tokenRes.statusCode, tokenRes.body).toBe(200);
    const tokens = tokenRes.json();
    expect(tokens).toMatchObject({ token_type: 'Bearer' });
    expect(tokens.access_token.split('.')).toHaveLength(3);
    expect(typeof tokens.refresh_token).toBe('string');

    // A REST route of the workspace, with the token alone (no X-Workspace-Id needed).
    const usage = await h.req({
      method: 'GET',
      url: '/billing/usage',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(usage.statusCode, usage.body).toBe(200);
    const principal = await h.ctx.auth.workspace({ token: tokens.access_token, workspaceHeader: undefined });
    expect(principal).toMatchObject({ kind: 'jwt', workspaceId: owner.workspaceId, oauthResource: h.url });
    expect(principal.user?.id).toBe(owner.userId);
    expect(principal.oauthGrantId).toBeTruthy();
    // Account routes stay for sessions.
    const me = await h.req({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.statusCode).toBe(401);

    const refreshed = await exchange(h, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const next = refreshed.json();
    expect(next.access_token).not.toBe(tokens.access_token);
    const withNew = await h.req({
      method: 'GET',
      url: '/billing/usage',
      headers: { authorization: `Bearer ${next.access_token}` },
    });
    expect(withNew.statusCode).toBe(200);

    const revoked = await h.req({
      method: 'POST',
      url: '/auth/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: next.refresh_token, client_id: client.client_id }).toString(),
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    for (const t of [tokens.access_token, next.access_token]) {
      const after = await h.req({ method: 'GET', url: '/billing/usage', headers: { authorization: `Bearer ${t}` } });
      expect(after.statusCode).toBe(401);
    }
    const refreshAgain = await exchange(h, {
      grant_type: 'refresh_token',
      refresh_token: next.refresh_token,
      client_id: client.client_id,
    });
    expect(refreshAgain.statusCode).toBe(400);
  });

  it('takes a code once: a second exchange fails and ends the tokens the first one gave', async () => {
    const client = await register(h);
    const { verifier, challenge } = pkce();
    const code = (await signInAndAuthorize(h, owner, { clientId: client.client_id, challenge })).searchParams.get(
      'code',
    )!;
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: client.client_id,
      code_verifier: verifier,
    };
    const first = await exchange(h, form);
    expect(first.statusCode).toBe(200);
    const again = await exchange(h, form);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
    const call = await h.req({
      method: 'GET',
      url: '/billing/usage',
      headers: { authorization: `Bearer ${first.json().access_token}` },
    });
    expect(call.statusCode).toBe(401);
  });
});
