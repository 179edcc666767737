import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHarness, type HarnessOptions } from '../helpers/harness.ts';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl)
  console.warn(
    '[herald tests] REDIS_URL is not set: the shared (Redis-backed) rate-limit tests do NOT run here. CI sets it.',
  );

const randomKey = () => `psk_live_${randomBytes(32).toString('base64url')}`;
const login = (
  email: string,
  password: string,
  extra: { headers?: Record<string, string>; remoteAddress?: string } = {},
) => ({ method: 'POST' as const, url: '/auth/login', payload: { email, password }, ...extra });

// Each store runs the same behaviour: in-process memory, and Redis (a prefix of its own per run).
const stores: [string, Record<string, string> | undefined][] = [
  ['memory', {}],
  [
    'redis',
    redisUrl
      ? { REDIS_URL: redisUrl, HERALD_RATE_LIMIT_REDIS_PREFIX: `herald-rl-test-${randomBytes(6).toString('hex')}:` }
      : undefined,
  ],
];

async function withHarness(
  env: Record<string, string>,
  fn: (h: Awaited<ReturnType<typeof createHarness>>) => Promise<void>,
  opts: HarnessOptions = {},
) {
  const h = await createHarness({ ...opts, env: { ...env, ...opts.env } });
  try {
    await fn(h);
  } finally {
    await h.close();
  }
}

describe('rate limiting per API key', () => {
  it('answers 429 APIKEY_RATE_LIMIT with Retry-After and RateLimit headers, per key', async () => {
    await withHarness({ HERALD_RATE_LIMIT_MAX: '3', HERALD_RATE_LIMIT_WINDOW_SECONDS: '60' }, async (h) => {
      const u = await h.signup();
      const key = await h.createKey(u, 'full');
      const other = await h.createKey(u, 'full');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key } })).statusCode,
        );
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key } });
      expect(limited.json()).toEqual({
        detail: { error: 'APIKEY_RATE_LIMIT', message: 'API key rate limit exceeded.' },
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['ratelimit-limit']).toBe('3');
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      // Another key has its own budget; health checks are never limited.
      expect((await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': other } })).statusCode).toBe(
        200,
      );
      for (let i = 0; i < 5; i++) expect((await h.req({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });
  });

  it.skipIf(!redisUrl)('shares one budget across instances through Redis', async () => {
    // A prefix of its own keeps this run's counters apart from earlier runs on the same Redis.
    const env = {
      HERALD_RATE_LIMIT_MAX: '4',
      HERALD_RATE_LIMIT_WINDOW_SECONDS: '60',
      HERALD_RATE_LIMIT_REDIS_PREFIX: `herald-rl-test-${randomBytes(6).toString('hex')}:`,
      REDIS_URL: redisUrl!,
    };
    await withHarness(env, async (a) => {
      const u = await a.signup();
      const key = await a.createKey(u, 'full');
      // The second instance shares a's database through the key: simulate by building an app on the same context.
      const { buildApp } = await import('../../src/transports/rest/app.ts');
      const b = await buildApp(a.ctx);
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) {
          const app = i % 2 === 0 ? a.app : b;
          statuses.push(
            (await app.inject({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key } })).statusCode,
          );
        }
        expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      } finally {
        await b.close();
      }
    });
  });
});

describe.each(stores)('budgets by client address (%s store)', (_name, storeEnv) => {
  it.skipIf(!storeEnv)(
    'a random X-API-Key header per request does not escape the sign-in budget of an address',
    async () => {
      await withHarness(
        { ...storeEnv, HERALD_AUTH_RATE_LIMIT_MAX: '5', HERALD_LOGIN_FREE_ATTEMPTS: '100' },
        async (h) => {
          const u = await h.signup();
          const statuses: number[] = [];
          for (let i = 0; i < 6; i++)
            statuses.push(
              (
                await h.req(
                  login(u.email, 'wrong password', {
                    headers: { 'x-api-key': randomKey() },
                    remoteAddress: '198.51.100.7',
                  }),
                )
              ).statusCode,
            );
          expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
          const limited = await h.req(
            login(u.email, u.password, {
              headers: { authorization: `Bearer ${u.token}` },
              remoteAddress: '198.51.100.7',
            }),
          );
          expect(limited.statusCode).toBe(429);
          expect(limited.json()).toEqual({
            detail: { error: 'APIKEY_RATE_LIMIT', message: 'Rate limit exceeded for this client address.' },
          });
          expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
          // Another address has a budget of its own.
          expect((await h.req(login(u.email, u.password, { remoteAddress: '198.51.100.8' }))).statusCode).toBe(200);
          // Account recovery shares the sign-in budget of the address.
          const recovery = await h.req({
            method: 'POST',
            url: '/auth/forgot-password',
            payload: { email: u.email },
            remoteAddress: '198.51.100.7',
          });
          expect(recovery.statusCode).toBe(429);
        },
      );
    },
  );

  it.skipIf(!storeEnv)('failed authentications spend the address budget; a valid key keeps its own', async () => {
    await withHarness({ ...storeEnv, HERALD_RATE_LIMIT_MAX: '4' }, async (h) => {
      const u = await h.signup();
      const key = await h.createKey(u, 'full');
      const from = { remoteAddress: '203.0.113.20' };
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': randomKey() }, ...from }))
            .statusCode,
        );
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      // Garbage bearer tokens and anonymous calls count against the same address.
      expect(
        (await h.req({ method: 'GET', url: '/auth/me', headers: { authorization: 'Bearer not-a-token' }, ...from }))
          .statusCode,
      ).toBe(429);
      expect((await h.req({ method: 'GET', url: '/billing/usage', ...from })).statusCode).toBe(429);
      // A valid key from the same address spends its own budget.
      expect(
        (await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key }, ...from })).statusCode,
      ).toBe(200);
    });
  });

  it.skipIf(!storeEnv)(
    'a trusted proxy: the client is the address the proxy appended, not what the client wrote',
    async () => {
      const env = {
        ...storeEnv,
        HERALD_AUTH_RATE_LIMIT_MAX: '2',
        HERALD_LOGIN_FREE_ATTEMPTS: '100',
        HERALD_TRUST_PROXY: '10.0.0.0/8',
      };
      await withHarness(env, async (h) => {
        const viaProxy = (spoofed: string, client: string) =>
          h.req(
            login('who@example.test', 'wrong password', {
              remoteAddress: '10.1.2.3',
              headers: { 'x-forwarded-for': `${spoofed}, ${client}` },
            }),
          );
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) statuses.push((await viaProxy(`192.0.2.${i}`, '203.0.113.50')).statusCode);
        expect(statuses).toEqual([401, 401, 429]);
        expect((await viaProxy('192.0.2.9', '203.0.113.51')).statusCode).toBe(401);
        // X-Forwarded-For from a client that is not a trusted proxy is ignored.
        const direct = (spoofed: string) =>
          h.req(
            login('who@example.test', 'wrong password', {
              remoteAddress: '198.51.100.99',
              headers: { 'x-forwarded-for': spoofed },
            }),
          );
        expect([
          (await direct('192.0.2.1')).statusCode,
          (await direct('192.0.2.2')).statusCode,
          (await direct('192.0.2.3')).statusCode,
        ]).toEqual([401, 401, 429]);
      });
    },
  );

  it.skipIf(!storeEnv)(
    'HERALD_TRUST_PROXY=true trusts the one proxy in front: a forged leftmost X-Forwarded-For changes nothing',
    async () => {
      await withHarness(
        { ...storeEnv, HERALD_AUTH_RATE_LIMIT_MAX: '2', HERALD_LOGIN_FREE_ATTEMPTS: '100', HERALD_TRUST_PROXY: 'true' },
        async (h) => {
          const statuses: number[] = [];
          for (let i = 0; i < 3; i++) {
            statuses.push(
              (
                await h.req(
                  login('x@example.test', 'wrong password', {
                    remoteAddress: '127.0.0.1',
                    headers: { 'x-forwarded-for': `192.0.2.${i}, 203.0.113.60` },
                  }),
                )
              ).statusCode,
            );
          }
          expect(statuses).toEqual([401, 401, 429]);
        },
      );
    },
  );

  it.skipIf(!storeEnv)(
    'per-account sign-in throttle: backs off for one email across addresses, unknown emails alike',
    async () => {
      let now = new Date('2030-01-01T00:00:00Z');
      const env = { ...storeEnv, HERALD_LOGIN_FREE_ATTEMPTS: '3', HERALD_LOGIN_BACKOFF_MAX_SECONDS: '8' };
      await withHarness(
        env,
        async (h) => {
          const u = await h.signup();
          const at = (i: number) => ({ remoteAddress: `192.0.2.${i}` });
          // Three failures from three addresses, then the fourth attempt is still allowed and starts a 1 s backoff.
          for (let i = 0; i < 4; i++)
            expect((await h.req(login(u.email, 'wrong password', at(i)))).statusCode).toBe(401);
          const refused = await h.req(login(u.email.toUpperCase(), u.password, at(9)));
          expect(refused.statusCode).toBe(429);
          expect(refused.json()).toEqual({
            detail: { error: 'LOGIN_THROTTLED', message: 'Too many attempts for this account. Try again in 1 second.' },
          });
          expect(refused.headers['retry-after']).toBe('1');
          // Each further failure doubles the wait, up to the ceiling.
          const waits: string[] = [];
          for (let i = 0; i < 5; i++) {
            now = new Date(now.getTime() + 60_000);
            expect((await h.req(login(u.email, 'wrong password', at(i)))).statusCode).toBe(401);
            waits.push(String((await h.req(login(u.email, 'wrong password', at(i)))).headers['retry-after']));
          }
          expect(waits).toEqual(['2', '4', '8', '8', '8']);
          // Once the wait is over, the right password works and clears the count.
          now = new Date(now.getTime() + 8_000);
          expect((await h.req(login(u.email, u.password, at(1)))).statusCode).toBe(200);
          for (let i = 0; i < 3; i++)
            expect((await h.req(login(u.email, 'wrong password', at(2)))).statusCode).toBe(401);

          // An email nobody registered is throttled exactly alike.
          const ghost = 'nobody-here@example.test';
          const ghostStatuses: number[] = [];
          for (let i = 0; i < 5; i++)
            ghostStatuses.push((await h.req(login(ghost, 'wrong password', at(i)))).statusCode);
          expect(ghostStatuses).toEqual([401, 401, 401, 401, 429]);
          const ghostRefusal = await h.req(login(ghost, 'wrong password', at(7)));
          expect(ghostRefusal.json()).toEqual(refused.json());
        },
        { clock: () => now },
      );
    },
  );

  it.skipIf(!storeEnv)(
    'changing the password backs off too: a stolen session cannot guess the current one',
    async () => {
      await withHarness({ ...storeEnv, HERALD_LOGIN_FREE_ATTEMPTS: '3' }, async (h) => {
        const u = await h.signup();
        const change = (current: string) =>
          h.req({
            method: 'POST',
            url: '/auth/change-password',
            headers: { authorization: `Bearer ${u.token}` },
            payload: { current_password: current, new_password: 'a brand new password' },
          });
        const codes: number[] = [];
        for (let i = 0; i < 4; i++) codes.push((await change('a wrong guess')).statusCode);
        expect(codes).toEqual([422, 422, 422, 422]);
        const refused = await change(u.password);
        expect(refused.statusCode).toBe(429);
        expect(refused.json().detail.error).toBe('LOGIN_THROTTLED');
        // Signing in is counted apart: the owner is not locked out of a new session by it.
        expect((await h.req(login(u.email, u.password))).statusCode).toBe(200);
      });
    },
  );

  it.skipIf(!storeEnv)('parallel guesses cannot slip past the per-account count', async () => {
    await withHarness({ ...storeEnv, HERALD_LOGIN_FREE_ATTEMPTS: '3' }, async (h) => {
      const u = await h.signup();
      const all = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          h.req(login(u.email, 'wrong password', { remoteAddress: `192.0.2.${i}` })),
        ),
      );
      const codes = all.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 401)).toHaveLength(4);
      expect(codes.filter((c) => c === 429)).toHaveLength(8);
    });
  });
});
