// Sessions: logout, logout everywhere, password change and password reset by mail; a revoked JWT is
// refused within a second by every instance sharing the database.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from '../../src/db/orm.ts';
import { mailOutbox } from '../../src/db/schema.ts';
import { passwordResetTokens } from '../../src/db/schema-accounts.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/client.ts';
import { buildApp } from '../../src/transports/rest/app.ts';
import { bearer, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';

let now = new Date('2026-06-01T08:00:00Z');
const clock = () => now;
let h: Harness;
beforeAll(async () => {
  // Caches on, as in production: revocation must still take effect within a second.
  h = await createHarness({
    clock,
    env: { HERALD_API_KEY_CACHE_SECONDS: '3', HERALD_PASSWORD_RESET_TTL_SECONDS: '900' },
  });
});
afterAll(async () => h?.close());

const me = (hh: Harness | { req: Harness['req'] }, token: string) =>
  hh.req({ method: 'GET', url: '/auth/me', headers: bearer(token) });
const login = (email: string, password: string) =>
  h.req({ method: 'POST', url: '/auth/login', payload: { email, password } });
async function secondSession(u: TestUser): Promise<string> {
  return (await login(u.email, u.password)).json().access_token;
}
function later(ms: number) {
  now = new Date(now.getTime() + ms);
}

describe('logout', () => {
  it('POST /auth/logout refuses that token at once and leaves the other sessions signed in', async () => {
    const u = await h.signup();
    const other = await secondSession(u);
    expect((await me(h, u.token)).statusCode).toBe(200); // cached now
    const out = await h.req({
      method: 'POST',
      url: '/auth/logout',
      headers: { ...bearer(u.token), 'content-type': 'application/json' },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true, message: 'Signed out.' });
    const refused = await me(h, u.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ detail: 'Invalid or expired token.' });
    expect(
      (
        await h.req({
          method: 'GET',
          url: '/billing/usage',
          headers: { ...bearer(u.token), 'x-workspace-id': u.workspaceId },
        })
      ).statusCode,
    ).toBe(401);
    expect((await me(h, other)).statusCode).toBe(200);
  });

  it('POST /auth/logout-all ends every session of the account; signing in again works', async () => {
    const u = await h.signup();
    const other = await secondSession(u);
    expect((await h.req({ method: 'POST', url: '/auth/logout-all', headers: bearer(u.token) })).statusCode).toBe(200);
    for (const t of [u.token, other]) expect((await me(h, t)).statusCode).toBe(401);
    const fresh = await secondSession(u);
    expect((await me(h, fresh)).statusCode).toBe(200);
  });
});

describe('a revoked session on another instance', () => {
  it('is refused there within a second (two app instances sharing one database)', async () => {
    // The same configuration (and so the same secrets). PostgreSQL: a pool of its own, as another
    // process has; PGlite: the same embedded database.
    const database = h.config.databaseUrl
      ? await openDatabase({ databaseUrl: h.config.databaseUrl, dataDir: h.config.dataDir, poolSize: 2 })
      : h.ctx.database;
    const ctx = await createContext(h.config, { database, logger: pino({ level: 'silent' }), clock });
    const other = await buildApp(ctx);
    await other.ready();
    try {
      const u = await h.signup();
      const second = await secondSession(u);
      const viaB = (token: string) => other.inject({ method: 'GET', url: '/auth/me', headers: bearer(token) });
      expect((await viaB(u.token)).statusCode).toBe(200);
      expect((await viaB(second)).statusCode).toBe(200);
      expect((await h.req({ method: 'POST', url: '/auth/logout', headers: bearer(u.token) })).statusCode).toBe(200);
      later(1001);
      expect((await viaB(u.token)).statusCode).toBe(401);
      expect((await viaB(second)).statusCode).toBe(200);
      // Logging out everywhere on instance A reaches instance B within the same second.
      expect((await h.req({ method: 'POST', url: '/auth/logout-all', headers: bearer(second) })).statusCode).toBe(200);
      later(1001);
      expect((await viaB(second)).statusCode).toBe(401);
    } finally {
      await other.close();
      if (database === h.ctx.database) await ctx.scheduleWorker.stop();
      else await ctx.close();
    }
  });
});

describe('change password', () => {
  it('needs the current password, signs out every other session and answers with a fresh one', async () => {
    const u = await h.signup();
    const other = await secondSession(u);
    const url = '/auth/change-password';
    const wrong = await h.req({
      method: 'POST',
      url,
      headers: bearer(u.token),
      payload: { current_password: 'not it', new_password: 'a new long password' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail[0].loc).toEqual(['body', 'current_password']);
    const short = await h.req({
      method: 'POST',
      url,
      headers: bearer(u.token),
      payload: { current_password: u.password, new_password: 'short' },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().detail[0].loc).toEqual(['body', 'new_password']);
    const res = await h.req({
      method: 'POST',
      url,
      headers: bearer(u.token),
      payload: { current_password: u.password, new_password: 'a new long password' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ token_type: 'bearer', user: { id: u.userId } });
    for (const t of [u.token, other]) expect((await me(h, t)).statusCode).toBe(401);
    expect((await me(h, res.json().access_token)).statusCode).toBe(200);
    expect((await login(u.email, u.password)).statusCode).toBe(401);
    expect((await login(u.email, 'a new long password')).statusCode).toBe(200);
  });
});

describe('password reset by mail', () => {
  const forgot = (email: string) => h.req({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
  async function mailedToken(email: string): Promise<string | undefined> {
    await h.ctx.passwordReset.settled();
    const mails = await h.ctx.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'password_reset')))
      .orderBy(desc(mailOutbox.createdAt));
    return mails.length ? /Reset token: (\S+)/.exec(mails[0]!.body)?.[1] : undefined;
  }

  it('answers alike for registered and unknown addresses and mails a token only to an account', async () => {
    const u = await h.signup();
    const unknown = `nobody-${Date.now()}@example.test`;
    const a = await forgot(u.email);
    const b = await forgot(unknown);
    expect([a.statusCode, a.body]).toEqual([b.statusCode, b.body]);
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ message: expect.any(String) });
    expect(await mailedToken(u.email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await mailedToken(unknown)).toBeUndefined();
    const bad = await forgot('not-an-address');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'email']);
  });

  it('resets with a single-use token stored hashed, and signs out every session', async () => {
    const u = await h.signup();
    const other = await secondSession(u);
    await forgot(u.email);
    const token = (await mailedToken(u.email))!;
    const rows = await h.ctx.database.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, u.userId));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    const verify = (t: string) =>
      h.req({ method: 'GET', url: `/auth/verify-reset-token?token=${encodeURIComponent(t)}` });
    expect((await verify(token)).json()).toEqual({ valid: true });
    expect((await verify('nope')).json()).toEqual({ valid: false });
    const reset = (t: string, pw = 'brand new password') =>
      h.req({ method: 'POST', url: '/auth/reset-password', payload: { token: t, new_password: pw } });
    expect((await reset(token, 'short')).statusCode).toBe(422);
    const ok = await reset(token);
    expect(ok.statusCode, ok.body).toBe(200);
    for (const t of [u.token, other]) expect((await me(h, t)).statusCode).toBe(401);
    expect((await login(u.email, 'brand new password')).statusCode).toBe(200);
    expect((await login(u.email, u.password)).statusCode).toBe(401);
    const again = await reset(token, 'yet another password');
    expect(again.statusCode).toBe(400);
    expect((await verify(token)).json()).toEqual({ valid: false });
  });

  it('tokens expire, and one mail per account per minute however often it is asked for', async () => {
    const u = await h.signup();
    await forgot(u.email);
    const first = (await mailedToken(u.email))!;
    await forgot(u.email);
    await forgot(u.email);
    expect(await mailedToken(u.email)).toBe(first);
    later(901_000);
    expect((await h.req({ method: 'GET', url: `/auth/verify-reset-token?token=${first}` })).json()).toEqual({
      valid: false,
    });
    expect(
      (
        await h.req({
          method: 'POST',
          url: '/auth/reset-password',
          payload: { token: first, new_password: 'brand new password' },
        })
      ).statusCode,
    ).toBe(400);
    await forgot(u.email);
    const second = await mailedToken(u.email);
    expect(second).not.toBe(first);
    expect((await h.req({ method: 'GET', url: `/auth/verify-reset-token?token=${second}` })).json()).toEqual({
      valid: true,
    });
  });
});
