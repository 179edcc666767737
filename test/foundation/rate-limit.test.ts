import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../helpers/harness.ts';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('[herald tests] REDIS_URL is not set: the shared (Redis-backed) rate-limit test does NOT run here. CI sets it.');

describe('rate limiting per API key', () => {
  it('answers 429 APIKEY_RATE_LIMIT with Retry-After and RateLimit headers, per key', async () => {
    const h = await createHarness({ env: { HERALD_RATE_LIMIT_MAX: '3', HERALD_RATE_LIMIT_WINDOW_SECONDS: '60' } });
    try {
      const u = await h.signup();
      const key = await h.createKey(u, 'full');
      const other = await h.createKey(u, 'full');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key } })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key } });
      expect(limited.json()).toEqual({ detail: { error: 'APIKEY_RATE_LIMIT', message: 'API key rate limit exceeded.' } });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['ratelimit-limit']).toBe('3');
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      // Another key has its own budget; health checks are never limited.
      expect((await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': other } })).statusCode).toBe(200);
      for (let i = 0; i < 5; i++) expect((await h.req({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });

  it.skipIf(!redisUrl)('shares one budget across instances through Redis', async () => {
    // A prefix of its own keeps this run's counters apart from earlier runs on the same Redis.
    const env = { HERALD_RATE_LIMIT_MAX: '4', HERALD_RATE_LIMIT_WINDOW_SECONDS: '60', HERALD_RATE_LIMIT_REDIS_PREFIX: `herald-rl-test-${randomBytes(6).toString('hex')}:`, REDIS_URL: redisUrl! };
    const a = await createHarness({ env });
    try {
      const u = await a.signup();
      const key = await a.createKey(u, 'full');
      // The second instance shares a's database through the key: simulate by building an app on the same context.
      const { buildApp } = await import('../../src/transports/rest/app.ts');
      const b = await buildApp(a.ctx);
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) {
          const app = i % 2 === 0 ? a.app : b;
          statuses.push((await app.inject({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key } })).statusCode);
        }
        expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      } finally {
        await b.close();
      }
    } finally {
      await a.close();
    }
  });
});
