// /metrics protection: a bearer token, and a listener of its own that keeps it off the public port.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/main.ts';
import { createHarness, createTestDatabaseUrl } from '../helpers/harness.ts';

const TOKEN = 'metrics-token-0123456789';

describe('/metrics protection', () => {
  it('requires the bearer token when HERALD_METRICS_TOKEN is set', async () => {
    const h = await createHarness({ env: { HERALD_METRICS_TOKEN: TOKEN } });
    try {
      const anonymous = await h.req({ method: 'GET', url: '/metrics' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ detail: 'Not authenticated' });
      expect(anonymous.headers['www-authenticate']).toBe('Bearer');
      expect(
        (await h.req({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } })).statusCode,
      ).toBe(401);
      expect((await h.req({ method: 'GET', url: '/metrics', headers: { 'x-api-key': TOKEN } })).statusCode).toBe(401);
      const ok = await h.req({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('herald_http_requests_total');
    } finally {
      await h.close();
    }
  });

  it('serves /metrics only on its own listener when HERALD_METRICS_PORT is set', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-metrics-'));
    const testDb = await createTestDatabaseUrl();
    const config = loadConfig({
      HERALD_DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      HERALD_LOG_LEVEL: 'silent',
      HERALD_METRICS_PORT: '0',
      HERALD_METRICS_TOKEN: TOKEN,
      HERALD_SCHEDULER_QUEUE: 'scan',
      ...(testDb ? { DATABASE_URL: testDb.url } : {}),
    });
    const running = await startServer(config, testDb ? {} : { memoryDb: true });
    try {
      expect(running.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(running.metricsUrl).not.toBe(`${running.url}/metrics`);
      await fetch(`${running.url}/healthz`);
      // Not on the public port, token or not.
      const publicPort = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(publicPort.status).toBe(404);
      expect(await publicPort.json()).toEqual({ detail: 'Not Found' });
      // On its own port, behind the token; nothing else is served there.
      const anonymous = await fetch(running.metricsUrl!);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({ detail: 'Not authenticated' });
      const ok = await fetch(running.metricsUrl!, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/herald_http_requests_total\{method="GET",route="\/healthz",status="200"\} 1/);
      const other = await fetch(running.metricsUrl!.replace('/metrics', '/healthz'), {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(other.status).toBe(404);
    } finally {
      await running.stop();
      await testDb?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
