// Secrets never reach the logs: passwords, key secrets and session tokens, whatever the route does.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/client.ts';
import { buildApp } from '../../src/transports/rest/app.ts';
import { captureLogs } from '../helpers/log-capture.ts';
import { createLogger, readableLogs } from '../../src/logger.ts';
import { Writable } from 'node:stream';

describe('logging', () => {
  it('writes request logs without passwords, API key secrets or tokens', async () => {
    const { logger, lines } = captureLogs('trace');
    const dir = mkdtempSync(join(tmpdir(), 'herald-log-'));
    const config = loadConfig({ HERALD_DATA_DIR: dir });
    const ctx = await createContext(config, { logger, database: await openDatabase({ dataDir: dir, memory: true }) });
    const app = await buildApp(ctx);
    try {
      const password = 'hunter2 but longer';
      const signup = await app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: 'log@example.test', password },
      });
      const token = signup.json().access_token as string;
      const [ws] = (
        await app.inject({ method: 'GET', url: '/workspaces', headers: { authorization: `Bearer ${token}` } })
      ).json();
      const key = (
        await app.inject({
          method: 'POST',
          url: `/workspaces/${ws.id}/api-keys`,
          headers: { authorization: `Bearer ${token}` },
          payload: { scope: 'full' },
        })
      ).json().secret as string;
      await app.inject({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key } });
      await app.inject({ method: 'GET', url: '/billing/usage', headers: { authorization: `Bearer ${key}` } });
      await app.inject({ method: 'GET', url: `/billing/usage?apikey=${key}`, headers: { 'x-api-key': key } });
      await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'log@example.test', password } });
      const all = lines.join('');
      expect(lines.length).toBeGreaterThan(5);
      // One line per request, with its method, scrubbed URL, status, duration and id.
      expect(all).not.toMatch(/incoming request|request completed/);
      const usage = lines
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg?.startsWith('GET /billing/usage?apikey=[redacted] 200 '));
      expect(usage).toHaveLength(1);
      expect(usage[0]).toMatchObject({
        level: 30,
        reqId: expect.any(String),
        req: { method: 'GET', url: '/billing/usage?apikey=[redacted]' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      });
      expect(all).toContain('apikey=[redacted]');
      for (const secret of [password, token, key, key.slice(9)]) expect(all).not.toContain(secret);
    } finally {
      await app.close();
      await ctx.close();
    }
  });

  it('HERALD_LOG_REQUESTS=errors writes only failed requests, off none', async () => {
    for (const mode of ['errors', 'off'] as const) {
      const { logger, lines } = captureLogs('info');
      const dir = mkdtempSync(join(tmpdir(), 'herald-log-'));
      const ctx = await createContext(loadConfig({ HERALD_DATA_DIR: dir, HERALD_LOG_REQUESTS: mode }), {
        logger,
        database: await openDatabase({ dataDir: dir, memory: true }),
      });
      const app = await buildApp(ctx);
      try {
        await app.inject({ method: 'GET', url: '/healthz' });
        await app.inject({ method: 'GET', url: '/workspaces' });
        const requests = lines.map((l) => JSON.parse(l).msg as string).filter((m) => /^GET /.test(m));
        expect(requests, mode).toEqual(
          mode === 'errors' ? [expect.stringMatching(/^GET \/workspaces 401 [\d.]+ ms$/)] : [],
        );
      } finally {
        await app.close();
        await ctx.close();
      }
    }
  });

  it('writes readable lines when asked (HERALD_LOG_FORMAT=pretty), with the same redaction', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _enc, cb) => {
        lines.push(String(chunk));
        cb();
      },
    });
    const logger = createLogger({ logLevel: 'info', logFormat: 'pretty' }, sink);
    logger
      .child({ reqId: 'req-1' })
      .info(
        { req: { method: 'GET', url: '/x?api_key=s3cret' }, res: { statusCode: 200 }, responseTime: 1.5 },
        'GET /x 200 1.5 ms',
      );
    logger.info({ user: { password: 'hunter2 but longer' } }, 'signed up');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/x 200 1\.5 ms \(request req-1\)\n$/);
    expect(lines[1]).toMatch(/INFO: signed up \{"user":\{"password":"\[redacted\]"\}\}/);
    expect(lines.join('')).not.toMatch(/s3cret|hunter2/);
  });

  it('chooses readable lines for a terminal only, unless told', () => {
    expect(readableLogs('auto', true)).toBe(true);
    expect(readableLogs('auto', false)).toBe(false);
    expect(readableLogs('json', true)).toBe(false);
    expect(readableLogs('pretty', false)).toBe(true);
  });
});
