import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, bearer, type Harness } from '../helpers/harness.ts';

let h: Harness;
let now = new Date('2026-03-10T12:00:00Z');
beforeAll(async () => {
  h = await createHarness({ clock: () => now });
});
afterAll(async () => h?.close());

describe('signup, login, me', () => {
  it('the first user is an admin and owns a first workspace; later users are not admins', async () => {
    const res = await h.req({
      method: 'POST',
      url: '/auth/signup',
      payload: {
        email: 'Ada@Example.test',
        password: 'analytical engine',
        full_name: 'Ada',
        workspace_name: 'Engines',
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token_type).toBe('bearer');
    expect(body.user).toMatchObject({ email: 'Ada@Example.test', full_name: 'Ada', is_admin: true, is_active: true });
    expect(body.user).not.toHaveProperty('password_hash');
    const ws = await h.req({ method: 'GET', url: '/workspaces', headers: bearer(body.access_token) });
    expect(ws.json()).toMatchObject([{ name: 'Engines', owner_id: body.user.id, role: 'owner' }]);

    const second = await h.signup();
    const me = await h.req({ method: 'GET', url: '/auth/me', headers: bearer(second.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: second.userId, is_admin: false });
  });

  it('refuses an existing email with 409, whatever its case', async () => {
    const u = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: u.email.toUpperCase(), password: 'another password' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: 'An account with this email already exists.' });
  });

  it('logs in with the right password and answers unknown email and wrong password alike', async () => {
    const u = await h.signup();
    const ok = await h.req({ method: 'POST', url: '/auth/login', payload: { email: u.email, password: u.password } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ token_type: 'bearer', user: { id: u.userId } });
    const wrong = await h.req({
      method: 'POST',
      url: '/auth/login',
      payload: { email: u.email, password: 'not it at all' },
    });
    const unknown = await h.req({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'nobody@example.test', password: 'not it at all' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('stores an argon2id hash, never the password', async () => {
    const u = await h.signup({ password: 'a very secret phrase' });
    const row = await h.ctx.accounts.byId(u.userId);
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain('a very secret phrase');
  });

  it('rejects bad input with 422 and field-level detail, never a 500', async () => {
    const cases: [string, unknown, (string | number)[]][] = [
      ['missing password', { email: 'x@example.test' }, ['body', 'password']],
      ['wrong type', { email: 'x@example.test', password: 12345678 }, ['body', 'password']],
      ['bad email', { email: 'not-an-email', password: 'long enough pw' }, ['body', 'email']],
      ['short password', { email: 'x@example.test', password: 'short' }, ['body', 'password']],
    ];
    for (const [label, payload, loc] of cases) {
      const res = await h.req({ method: 'POST', url: '/auth/signup', payload: payload as object });
      expect(res.statusCode, label).toBe(422);
      expect(res.json().detail, label).toEqual(
        expect.arrayContaining([expect.objectContaining({ loc, msg: expect.any(String), type: expect.any(String) })]),
      );
    }
    const malformed = await h.req({
      method: 'POST',
      url: '/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().detail[0].loc).toEqual(['body']);
  });

  it('refuses a tampered or expired session token with 401', async () => {
    const u = await h.signup();
    const [head, payload, sig] = u.token.split('.');
    const tampered = `${head}.${payload}.${sig!.slice(0, -2)}xx`;
    expect((await h.req({ method: 'GET', url: '/auth/me', headers: bearer(tampered) })).statusCode).toBe(401);
    const saved = now;
    now = new Date(now.getTime() + (h.config.jwtTtlSeconds + 1) * 1000);
    try {
      const res = await h.req({ method: 'GET', url: '/auth/me', headers: bearer(u.token) });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Invalid or expired token.' });
    } finally {
      now = saved;
    }
  });

  it('an API key cannot act as a user session', async () => {
    const u = await h.signup();
    const key = await h.createKey(u);
    const res = await h.req({ method: 'GET', url: '/auth/me', headers: bearer(key) });
    expect(res.statusCode).toBe(403);
  });
});

describe('sign-up by invitation (HERALD_SIGNUP=invite)', () => {
  it('admits the first user, then only invited addresses; the refusal says how to get in', async () => {
    const invite = await createHarness({ env: { HERALD_SIGNUP: 'invite' } });
    try {
      expect(invite.ctx.config.signup).toBe('invite');
      const admin = await invite.signup(); // the first account of an install is its administrator
      const refused = await invite.req({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: 'walk-in@example.test', password: 'long enough pw' },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toMatch(/by invitation only \(HERALD_SIGNUP=invite\).*invitation_token/);
      const inv = await invite.req({
        method: 'POST',
        url: `/workspaces/${admin.workspaceId}/invitations`,
        headers: bearer(admin.token),
        payload: { email: 'invited@example.test', role: 'member' },
      });
      expect(inv.statusCode, inv.body).toBe(201);
      const joined = await invite.req({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: 'invited@example.test', password: 'long enough pw', invitation_token: inv.json().token },
      });
      expect(joined.statusCode, joined.body).toBe(201);
    } finally {
      await invite.close();
    }
  });
});

describe('closed sign-up (the older name of invite)', () => {
  it('refuses new accounts but admins can still create users', async () => {
    const closed = await createHarness({ env: { HERALD_SIGNUP: 'closed' } });
    try {
      const admin = await closed.signup(); // the first user of a fresh install always gets in
      const refused = await closed.req({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: 'late@example.test', password: 'long enough pw' },
      });
      expect(refused.statusCode).toBe(403);
      const created = await closed.req({
        method: 'POST',
        url: '/admin/users',
        headers: bearer(admin.token),
        payload: { email: 'late@example.test', password: 'long enough pw' },
      });
      expect(created.statusCode).toBe(201);
      const notAdmin = await closed.req({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'late@example.test', password: 'long enough pw' },
      });
      const denied = await closed.req({
        method: 'POST',
        url: '/admin/users',
        headers: bearer(notAdmin.json().access_token),
        payload: { email: 'later@example.test', password: 'long enough pw' },
      });
      expect(denied.statusCode).toBe(403);
    } finally {
      await closed.close();
    }
  });
});
