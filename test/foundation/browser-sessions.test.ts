// Browser sessions: the web app's login sets an httpOnly cookie instead of answering the token, the cookie works
// wherever a session JWT does, writes made with it need the CSRF token, and ending the session clears it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, bearer } from '../helpers/harness.ts';
import { browserLogin, setCookie, WEB_CLIENT } from '../helpers/browser.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await h.signup(); // the instance's administrator; the users below are not
});
afterAll(async () => h?.close());

const CSRF_REFUSAL = { detail: 'CSRF token missing or invalid' };

describe('signing in from the web app', () => {
  it('login with X-Herald-Client: web sets the httpOnly session cookie and answers no token', async () => {
    const u = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: '/auth/login',
      headers: WEB_CLIENT,
      payload: { email: u.email, password: u.password },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ user: expect.objectContaining({ id: u.userId, email: u.email }) });
    expect(res.body).not.toContain(setCookie(res, 'herald_session')!.value);
    const header = String(res.headers['set-cookie']);
    expect(header).toMatch(/^herald_session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    // Loopback over plain http: no Secure, or the browser would drop it.
    expect(header).not.toContain('Secure');
  });

  it('the cookie is Secure anywhere but plain-http loopback', async () => {
    const u = await h.signup();
    for (const headers of [
      { host: 'herald.example' },
      { host: 'localhost:8080', 'x-forwarded-proto': 'https' },
    ] as Record<string, string>[]) {
      const res = await h.req({
        method: 'POST',
        url: '/auth/login',
        headers: { ...WEB_CLIENT, ...headers },
        payload: { email: u.email, password: u.password },
      });
      expect(res.statusCode).toBe(200);
      // Without a trusted proxy the forwarded protocol is ignored: `localhost` over http stays loopback.
      const secure = headers.host === 'herald.example';
      expect(setCookie(res, 'herald_session')?.secure ?? false).toBe(secure);
    }
  });

  it('signup with X-Herald-Client: web is signed in by the cookie alone', async () => {
    const res = await h.req({
      method: 'POST',
      url: '/auth/signup',
      headers: WEB_CLIENT,
      payload: { email: `web-${Date.now()}@example.test`, password: 'correct horse battery' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).not.toHaveProperty('access_token');
    const jwt = setCookie(res, 'herald_session')!.value;
    const me = await h.req({ method: 'GET', url: '/auth/me', headers: { cookie: `herald_session=${jwt}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(res.json().user.id);
  });

  it('without the header, login answers the token and sets no cookie', async () => {
    const u = await h.signup();
    const res = await h.req({ method: 'POST', url: '/auth/login', payload: { email: u.email, password: u.password } });
    expect(res.json()).toHaveProperty('access_token');
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('the cookie as a credential', () => {
  it('works on user routes and, with X-Workspace-Id, on workspace routes', async () => {
    const u = await h.signup();
    const b = await browserLogin(h, u);
    const me = await h.req({ method: 'GET', url: '/auth/me', headers: b.headers({ csrf: false }) });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(u.userId);
    const list = await h.req({ method: 'GET', url: '/workspaces', headers: b.headers({ csrf: false }) });
    expect(list.json().map((w: { id: string }) => w.id)).toEqual([u.workspaceId]);
    const usage = await h.req({
      method: 'GET',
      url: '/billing/usage',
      headers: b.headers({ csrf: false, workspaceId: u.workspaceId }),
    });
    expect(usage.statusCode, usage.body).toBe(200);
  });

  it('a write without the CSRF token, or with a wrong one, is 403; with it, it goes through', async () => {
    const u = await h.signup();
    const b = await browserLogin(h, u);
    const other = await browserLogin(h, await h.signup());
    const draft = { post_type: 'text', platforms: ['threads'], default_text: 'From the browser' };
    const attempts = [
      b.headers({ csrf: false, workspaceId: u.workspaceId }),
      b.headers({ csrf: 'not-a-token', workspaceId: u.workspaceId }),
      // Another browser's token does not match this browser's secret.
      b.headers({ csrf: other.csrf, workspaceId: u.workspaceId }),
    ];
    for (const headers of attempts) {
      const res = await h.req({ method: 'POST', url: '/unified/drafts', headers, payload: draft });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(CSRF_REFUSAL);
    }
    const created = await h.req({
      method: 'POST',
      url: '/unified/drafts',
      headers: b.headers({ workspaceId: u.workspaceId }),
      payload: draft,
    });
    expect(created.statusCode, created.body).toBe(200);
    // Nothing was made by the refused attempts: one draft only.
    const drafts = await h.req({
      method: 'GET',
      url: '/unified/drafts',
      headers: b.headers({ csrf: false, workspaceId: u.workspaceId }),
    });
    expect(drafts.json().total).toBe(1);
    // A user route too.
    const refused = await h.req({
      method: 'POST',
      url: '/workspaces',
      headers: b.headers({ csrf: false }),
      payload: { name: 'X' },
    });
    expect(refused.statusCode).toBe(403);
    const made = await h.req({ method: 'POST', url: '/workspaces', headers: b.headers(), payload: { name: 'X' } });
    expect(made.statusCode, made.body).toBe(201);
  });

  it('Bearer and API-key requests need no CSRF token, even when a cookie is sent along', async () => {
    const u = await h.signup();
    const b = await browserLogin(h, u);
    const key = await h.createKey(u);
    const draft = { post_type: 'text', platforms: ['threads'], default_text: 'From a program' };
    for (const headers of [
      { ...bearer(u.token), 'x-workspace-id': u.workspaceId },
      { 'x-api-key': key },
      { ...bearer(u.token), 'x-workspace-id': u.workspaceId, cookie: b.cookie },
    ]) {
      const res = await h.req({ method: 'POST', url: '/unified/drafts', headers, payload: draft });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('an API key or a bad value in the cookie is no credential', async () => {
    const u = await h.signup();
    const key = await h.createKey(u);
    for (const value of [key, 'a.b.c', u.token.slice(0, -2)]) {
      const res = await h.req({
        method: 'GET',
        url: '/billing/usage',
        headers: { cookie: `herald_session=${value}`, 'x-workspace-id': u.workspaceId },
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it("another workspace's member signed in by cookie sees nothing of this workspace", async () => {
    const owner = await h.signup();
    const stranger = await browserLogin(h, await h.signup());
    for (const [method, url] of [
      ['GET', '/unified/drafts'],
      ['GET', '/billing/usage'],
      ['POST', '/unified/drafts'],
    ] as const) {
      const res = await h.req({
        method,
        url,
        headers: stranger.headers({ workspaceId: owner.workspaceId }),
        ...(method === 'POST' ? { payload: { post_type: 'text', platforms: ['threads'], default_text: 'x' } } : {}),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'You are not a member of this workspace.' });
    }
    const members = await h.req({
      method: 'GET',
      url: `/workspaces/${owner.workspaceId}/members`,
      headers: stranger.headers({ csrf: false }),
    });
    expect(members.statusCode).toBe(403);
  });
});

describe('ending the cookie session', () => {
  const cleared = (res: Awaited<ReturnType<Harness['req']>>) => {
    const c = setCookie(res, 'herald_session');
    expect(c?.value).toBe('');
    expect(c?.maxAge ?? (c?.expires as Date | undefined)?.getTime() ?? 1).toBeLessThanOrEqual(0);
  };

  it('logout needs the CSRF token, then clears the cookie and revokes its JWT', async () => {
    const u = await h.signup();
    const b = await browserLogin(h, u);
    const forged = await h.req({ method: 'POST', url: '/auth/logout', headers: b.headers({ csrf: false }) });
    expect(forged.statusCode).toBe(403);
    expect((await h.req({ method: 'GET', url: '/auth/me', headers: b.headers() })).statusCode).toBe(200);
    const out = await h.req({ method: 'POST', url: '/auth/logout', headers: b.headers() });
    expect(out.statusCode).toBe(200);
    cleared(out);
    // The JWT is revoked, not only forgotten by this browser.
    expect((await h.req({ method: 'GET', url: '/auth/me', headers: b.headers() })).statusCode).toBe(401);
    expect((await h.req({ method: 'GET', url: '/auth/me', headers: bearer(b.jwt) })).statusCode).toBe(401);
    // The other sessions of the account stay signed in.
    expect((await h.req({ method: 'GET', url: '/auth/me', headers: bearer(u.token) })).statusCode).toBe(200);
  });

  it('logout-all clears the cookie and ends every session', async () => {
    const u = await h.signup();
    const b = await browserLogin(h, u);
    const out = await h.req({ method: 'POST', url: '/auth/logout-all', headers: b.headers() });
    expect(out.statusCode).toBe(200);
    cleared(out);
    expect((await h.req({ method: 'GET', url: '/auth/me', headers: b.headers() })).statusCode).toBe(401);
    expect((await h.req({ method: 'GET', url: '/auth/me', headers: bearer(u.token) })).statusCode).toBe(401);
  });

  it('change-password by cookie clears it and answers no token; the new password signs in', async () => {
    const u = await h.signup();
    const b = await browserLogin(h, u);
    const res = await h.req({
      method: 'POST',
      url: '/auth/change-password',
      headers: b.headers(),
      payload: { current_password: u.password, new_password: 'a brand new password' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ user: expect.objectContaining({ id: u.userId }) });
    cleared(res);
    expect((await h.req({ method: 'GET', url: '/auth/me', headers: b.headers() })).statusCode).toBe(401);
    const again = await browserLogin(h, { email: u.email, password: 'a brand new password' });
    expect((await h.req({ method: 'GET', url: '/auth/me', headers: again.headers() })).statusCode).toBe(200);
  });
});
