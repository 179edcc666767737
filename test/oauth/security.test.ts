// The OAuth server's refusals: redirect URIs, PKCE, audiences, workspaces, the sign-in forms, revocation
// seen from another instance, and what its table stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { OAuthService } from '../../src/oauth/service.ts';
import { oauthEntities } from '../../src/db/schema-oauth.ts';
import {
  Browser,
  CHATGPT_CALLBACK,
  authorizeUrl,
  exchange,
  hiddenField,
  pkce,
  register,
  signInAndAuthorize,
} from './helpers.ts';

let h: Harness;
let owner: TestUser;
let other: TestUser;
const GPT_SECRET = 'gpt-secret-0123456789abcdefghijklmnopqrstuvwxyz';
beforeAll(async () => {
  h = await createHarness({
    env: {
      HERALD_OAUTH_CLIENTS: JSON.stringify([
        {
          client_id: 'chatgpt',
          client_secret: GPT_SECRET,
          redirect_uris: [CHATGPT_CALLBACK],
          client_name: 'ChatGPT (GPT Actions)',
        },
      ]),
    },
  });
  await h.signup();
  owner = await h.signup({ workspace_name: 'Owner space' });
  other = await h.signup({ workspace_name: 'Other space' });
});
afterAll(async () => h?.close());

async function tokensFor(user: TestUser, opts: { resource?: string; workspaceId?: string } = {}) {
  const client = await register(h);
  const { verifier, challenge } = pkce();
  const back = await signInAndAuthorize(h, user, {
    clientId: client.client_id,
    challenge,
    resource: opts.resource ?? null,
    workspaceId: opts.workspaceId,
  });
  const res = await exchange(h, {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: CHATGPT_CALLBACK,
    client_id: client.client_id,
    code_verifier: verifier,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { client, ...(res.json() as { access_token: string; refresh_token: string }) };
}

const call = (token: string, url = '/billing/usage', headers: Record<string, string> = {}) =>
  h.req({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, ...headers } });

describe('redirect URIs and PKCE', () => {
  it('never redirects to a URI the client did not register, even one that only extends it', async () => {
    const client = await register(h);
    const { challenge } = pkce();
    for (const uri of [
      `${CHATGPT_CALLBACK}/../evil`,
      `${CHATGPT_CALLBACK}?x=1`,
      'https://evil.example/cb',
      CHATGPT_CALLBACK.replace('https', 'http'),
    ]) {
      const res = await h.req({
        method: 'GET',
        url: authorizeUrl({ clientId: client.client_id, challenge, redirectUri: uri }),
      });
      expect(res.statusCode, uri).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('redirect_uri');
    }
  });

  it('refuses a public client without PKCE, and a code exchanged with the wrong verifier', async () => {
    const client = await register(h);
    const noPkce = await h.req({ method: 'GET', url: authorizeUrl({ clientId: client.client_id }) });
    expect(noPkce.statusCode).toBe(303);
    const denied = new URL(noPkce.headers.location as string);
    expect(`${denied.origin}${denied.pathname}`).toBe(CHATGPT_CALLBACK);
    expect(denied.searchParams.get('error')).toBe('invalid_request');
    expect(denied.searchParams.get('code')).toBeNull();

    const plain = await h.req({
      method: 'GET',
      url: authorizeUrl({ clientId: client.client_id }).replace(
        'scope=',
        'code_challenge=abc&code_challenge_method=plain&scope=',
      ),
    });
    expect(new URL(plain.headers.location as string).searchParams.get('error')).toBe('invalid_request');

    const { challenge } = pkce();
    const back = await signInAndAuthorize(h, owner, { clientId: client.client_id, challenge });
    const wrong = await exchange(h, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: client.client_id,
      code_verifier: pkce().verifier,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('invalid_grant');
  });

  it('registers no client that asks for a plain-http or fragment redirect URI on the web', async () => {
    const res = await h.req({
      method: 'POST',
      url: '/auth/oauth/register',
      payload: { redirect_uris: ['https://chatgpt.com/cb#frag'], token_endpoint_auth_method: 'none' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_redirect_uri');
  });
});

describe('an operator-configured client with a secret (GPT Actions)', () => {
  it('runs without PKCE with its secret in the body, and refuses a wrong secret', async () => {
    const back = await signInAndAuthorize(h, owner, { clientId: 'chatgpt' });
    const code = back.searchParams.get('code')!;
    const bad = await exchange(h, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: 'chatgpt',
      client_secret: 'not-the-secret-0123456789abcdefghij',
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error).toBe('invalid_client');
    const back2 = await signInAndAuthorize(h, owner, { clientId: 'chatgpt' });
    const ok = await exchange(h, {
      grant_type: 'authorization_code',
      code: back2.searchParams.get('code')!,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: 'chatgpt',
      client_secret: GPT_SECRET,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const { access_token: at, refresh_token: rt } = ok.json();
    expect(rt).toBeTruthy();
    expect((await call(at)).statusCode).toBe(200);
    const access = await h.ctx.oauth.verifyAccessToken(at, `${h.url}/unified/gpt-actions/get_accounts`);
    expect(access).toMatchObject({
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      clientId: 'chatgpt',
      resource: h.url,
    });
  });
});

describe('what clients also send', () => {
  it('prompt=consent and the openid scope (an ID token signed ES256) go through the same two forms', async () => {
    const client = await register(h);
    const { verifier, challenge } = pkce();
    const back = await signInAndAuthorize(h, owner, {
      clientId: client.client_id,
      challenge,
      scope: 'openid offline_access herald',
      extra: { prompt: 'consent' },
    });
    const res = await exchange(h, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: client.client_id,
      code_verifier: verifier,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(JSON.parse(Buffer.from(body.id_token.split('.')[0], 'base64url').toString()).alg).toBe('ES256');
    expect((await call(body.access_token)).statusCode).toBe(200);
  });
});

describe('audience (RFC 8707)', () => {
  it('a token for the MCP endpoint works there only; a resource elsewhere is refused at the start', async () => {
    const { access_token: at } = await tokensFor(owner, { resource: `${h.url}/web/mcp` });
    expect(await h.ctx.oauth.verifyAccessToken(at, `${h.url}/web/mcp`)).toMatchObject({
      resource: `${h.url}/web/mcp`,
      workspaceId: owner.workspaceId,
    });
    expect(await h.ctx.oauth.verifyAccessToken(at, `${h.url}/billing/usage`)).toBeNull();
    expect(await h.ctx.oauth.verifyAccessToken(at, `${h.url}/web/mcpx`)).toBeNull();
    expect((await call(at)).statusCode).toBe(401);

    const root = await tokensFor(owner);
    expect(await h.ctx.oauth.verifyAccessToken(root.access_token, 'https://other.example/web/mcp')).toBeNull();

    const client = await register(h);
    const res = await h.req({
      method: 'GET',
      url: authorizeUrl({
        clientId: client.client_id,
        challenge: pkce().challenge,
        resource: 'https://other.example/mcp',
      }),
    });
    expect(new URL(res.headers.location as string).searchParams.get('error')).toBe('invalid_target');
  });
});

describe('one workspace per token', () => {
  it('cannot reach another workspace, even one the same user belongs to', async () => {
    // The owner joins the other user's workspace too, then connects their own.
    const inv = await h.req({
      method: 'POST',
      url: `/workspaces/${other.workspaceId}/invitations`,
      headers: { authorization: `Bearer ${other.token}` },
      payload: { email: owner.email, role: 'member' },
    });
    expect(inv.statusCode, inv.body).toBeLessThan(300);
    const accepted = await h.req({
      method: 'POST',
      url: '/invitations/accept',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { token: inv.json().token },
    });
    expect(accepted.statusCode, accepted.body).toBeLessThan(300);

    const { access_token: at } = await tokensFor(owner);
    const mine = await call(at, '/billing/usage', { 'x-workspace-id': owner.workspaceId });
    expect(mine.statusCode).toBe(200);
    const theirs = await call(at, '/billing/usage', { 'x-workspace-id': other.workspaceId });
    expect(theirs.statusCode).toBe(403);
    const principal = await h.ctx.auth.workspace({ token: at, workspaceHeader: undefined });
    expect(principal.workspaceId).toBe(owner.workspaceId);
    // Workspace management stays with sessions.
    expect((await call(at, `/workspaces/${other.workspaceId}/members`)).statusCode).toBe(401);

    // A token for the workspace the owner joined stops working when they are removed from it.
    const joined = await tokensFor(owner, { workspaceId: other.workspaceId });
    expect((await call(joined.access_token)).statusCode).toBe(200);
    const removed = await h.req({
      method: 'DELETE',
      url: `/workspaces/${other.workspaceId}/members/${owner.userId}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect((await call(joined.access_token)).statusCode).toBe(401);

    // The workspace form accepts only the user's own workspaces.
    const client = await register(h);
    const b = new Browser(h);
    const start = await b.get(authorizeUrl({ clientId: client.client_id, challenge: pkce().challenge }));
    const form = await b.get(start.headers.location as string);
    const uid = hiddenField(form.body, 'uid');
    const signed = await b.post('/auth/oauth/login', {
      uid,
      csrf: hiddenField(form.body, 'csrf'),
      email: other.email,
      password: other.password,
    });
    const pick = await b.get(signed.headers.location as string);
    expect(pick.body).not.toContain(owner.workspaceId);
    const refused = await b.post('/auth/oauth/select-workspace', {
      uid,
      csrf: hiddenField(pick.body, 'csrf'),
      workspace_id: owner.workspaceId,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers.location).toBeUndefined();
  });
});

describe('the sign-in pages', () => {
  it('are not frameable, need the CSRF token, and say nothing about which part was wrong', async () => {
    const client = await register(h);
    const b = new Browser(h);
    const start = await b.get(authorizeUrl({ clientId: client.client_id, challenge: pkce().challenge }));
    const form = await b.get(start.headers.location as string);
    expect(form.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(form.headers['x-frame-options']).toBe('DENY');
    expect(form.headers['cache-control']).toBe('no-store');
    expect(form.body).not.toContain('<script');
    const uid = hiddenField(form.body, 'uid');

    const forged = await b.post('/auth/oauth/login', {
      uid,
      csrf: 'forged',
      email: owner.email,
      password: owner.password,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.headers['set-cookie']).toBeUndefined();
    // The token is bound to the browser's cookie: another browser's token does not work.
    const stranger = new Browser(h);
    const strangerForm = await stranger.get(start.headers.location as string);
    const crossed = await b.post('/auth/oauth/login', {
      uid,
      csrf: hiddenField(strangerForm.body, 'csrf'),
      email: owner.email,
      password: owner.password,
    });
    expect(crossed.statusCode).toBe(403);

    const csrf = hiddenField(form.body, 'csrf');
    const wrong = await b.post('/auth/oauth/login', { uid, csrf, email: owner.email, password: 'not the password' });
    const unknown = await b.post('/auth/oauth/login', {
      uid,
      csrf,
      email: 'nobody@example.test',
      password: 'not the password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body.replace(owner.email, 'X')).toBe(unknown.body.replace('nobody@example.test', 'X'));

    // The end of the flow needs the browser that started it: another one following the same link gets no code.
    const done = await b.post('/auth/oauth/login', { uid, csrf, email: owner.email, password: owner.password });
    const pick = await b.get(done.headers.location as string);
    const chosen = await b.post('/auth/oauth/select-workspace', {
      uid,
      csrf: hiddenField(pick.body, 'csrf'),
      workspace_id: owner.workspaceId,
    });
    expect(chosen.statusCode).toBe(303);
    const elsewhere = await new Browser(h).get(chosen.headers.location as string);
    expect(String(elsewhere.headers.location ?? '')).not.toContain('code=');

    // The workspace step needs the signed-in step of this same request.
    const skip = await b.get(`/auth/oauth/select-workspace?uid=${encodeURIComponent(uid)}`);
    expect(skip.statusCode).toBe(400);
  });

  it('throttles failed passwords per account with the sign-in throttle', async () => {
    const victim = await h.signup();
    const client = await register(h);
    const b = new Browser(h);
    const start = await b.get(authorizeUrl({ clientId: client.client_id, challenge: pkce().challenge }));
    const form = await b.get(start.headers.location as string);
    const fields = { uid: hiddenField(form.body, 'uid'), csrf: hiddenField(form.body, 'csrf'), email: victim.email };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await b.post('/auth/oauth/login', { ...fields, password: `guess ${i}` })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    const blocked = await b.post('/auth/oauth/login', { ...fields, password: victim.password });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(blocked.body).toContain('Too many attempts');
  });

  it('answers an unknown or expired sign-in request with a page, not a redirect', async () => {
    const res = await h.req({ method: 'GET', url: '/auth/oauth/login?uid=nope' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
  });
});

describe('revocation', () => {
  it('ending every session of the account (logout-all, a new password) ends its connectors too', async () => {
    const user = await h.signup();
    const { access_token: at, refresh_token: rt, client } = await tokensFor(user);
    expect((await call(at)).statusCode).toBe(200);
    const out = await h.req({
      method: 'POST',
      url: '/auth/logout-all',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(out.statusCode, out.body).toBeLessThan(300);
    expect((await call(at)).statusCode).toBe(401);
    // The provider still refreshes the grant, but what it gives carries the old session version and is refused too.
    const refreshed = await exchange(h, {
      grant_type: 'refresh_token',
      refresh_token: rt,
      client_id: client.client_id,
    });
    expect(refreshed.statusCode).toBe(200);
    expect((await call(refreshed.json().access_token)).statusCode).toBe(401);
  });

  it('RFC 7009 on an access token ends its grant; revokeGrant does the same', async () => {
    const a = await tokensFor(owner);
    const res = await h.req({
      method: 'POST',
      url: '/auth/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: a.access_token, client_id: a.client.client_id }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect((await call(a.access_token)).statusCode).toBe(401);
    expect(
      (
        await exchange(h, {
          grant_type: 'refresh_token',
          refresh_token: a.refresh_token,
          client_id: a.client.client_id,
        })
      ).statusCode,
    ).toBe(400);

    // Another client cannot revoke someone else's token.
    const b = await tokensFor(owner);
    const c = await register(h);
    await h.req({
      method: 'POST',
      url: '/auth/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: b.access_token, client_id: c.client_id }).toString(),
    });
    expect((await call(b.access_token)).statusCode).toBe(200);

    const principal = await h.ctx.auth.workspace({ token: b.access_token, workspaceHeader: undefined });
    await h.ctx.oauth.revokeGrant(principal.oauthGrantId!);
    expect((await call(b.access_token)).statusCode).toBe(401);
  });

  it('another instance refuses a revoked token within a second', async () => {
    const { access_token: at } = await tokensFor(owner);
    let now = Date.now();
    const elsewhere = new OAuthService({
      db: h.ctx.database.db,
      config: h.config,
      jwtSecret: h.ctx.secrets.jwtSecret,
      clock: () => new Date(now),
      logger: h.ctx.logger,
    });
    const access = await elsewhere.verifyAccessToken(at, `${h.url}/billing/usage`);
    expect(access).not.toBeNull();
    await h.ctx.oauth.revokeGrant(access!.grantId);
    now += 1001;
    expect(await elsewhere.verifyAccessToken(at, `${h.url}/billing/usage`)).toBeNull();
  });
});

describe('deleting a workspace', () => {
  it("removes its connectors' grants and refresh tokens", async () => {
    const user = await h.signup();
    const second = await h.req({
      method: 'POST',
      url: '/workspaces',
      headers: { authorization: `Bearer ${user.token}` },
      payload: { name: 'Second' },
    });
    expect(second.statusCode, second.body).toBeLessThan(300);
    const wsId = (second.json() as { id: string }).id;
    const doomed = await tokensFor(user, { workspaceId: wsId });
    const kept = await tokensFor(user);
    const del = await h.req({
      method: 'DELETE',
      url: `/workspaces/${wsId}`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(del.statusCode, del.body).toBeLessThan(300);
    expect((await call(doomed.access_token)).statusCode).toBe(401);
    const refreshed = await exchange(h, {
      grant_type: 'refresh_token',
      refresh_token: doomed.refresh_token,
      client_id: doomed.client.client_id,
    });
    expect(refreshed.statusCode).toBe(400);
    expect(refreshed.json().error).toBe('invalid_grant');
    expect(
      (
        await exchange(h, {
          grant_type: 'refresh_token',
          refresh_token: kept.refresh_token,
          client_id: kept.client.client_id,
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('storage', () => {
  it('keeps codes and refresh tokens only as hashes', async () => {
    const client = await register(h);
    const { verifier, challenge } = pkce();
    const back = await signInAndAuthorize(h, owner, { clientId: client.client_id, challenge });
    const code = back.searchParams.get('code')!;
    const rowsWithCode = await h.ctx.database.db.select().from(oauthEntities);
    const res = await exchange(h, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: client.client_id,
      code_verifier: verifier,
    });
    const { refresh_token: rt } = res.json();
    const rows = [...rowsWithCode, ...(await h.ctx.database.db.select().from(oauthEntities))];
    expect(rows.some((r) => r.model === 'AuthorizationCode')).toBe(true);
    expect(rows.some((r) => r.model === 'RefreshToken')).toBe(true);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(code);
    expect(dump).not.toContain(rt);
    // …and still works through them.
    expect(
      (await exchange(h, { grant_type: 'refresh_token', refresh_token: rt, client_id: client.client_id })).statusCode,
    ).toBe(200);
  });
});
