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

describe('logging', () => {
  it('writes request logs without passwords, API key secrets or tokens', async () => {
    const { logger, lines } = captureLogs('trace');
    const dir = mkdtempSync(join(tmpdir(), 'herald-log-'));
    const config = loadConfig({ HERALD_DATA_DIR: dir });
    const ctx = await createContext(config, { logger, database: await openDatabase({ dataDir: dir, memory: true }) });
    const app = await buildApp(ctx);
    try {
      const password = 'hunter2 but longer';
      const signup = await app.inject({ method: 'POST', url: '/auth/signup', payload: { email: 'log@example.test', password } });
      const token = signup.json().access_token as string;
      const [ws] = (await app.inject({ method: 'GET', url: '/workspaces', headers: { authorization: `Bearer ${token}` } })).json();
      const key = (await app.inject({ method: 'POST', url: `/workspaces/${ws.id}/api-keys`, headers: { authorization: `Bearer ${token}` }, payload: { scope: 'full' } })).json().secret as string;
      await app.inject({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key } });
      await app.inject({ method: 'GET', url: '/billing/usage', headers: { authorization: `Bearer ${key}` } });
      await app.inject({ method: 'GET', url: `/billing/usage?apikey=${key}`, headers: { 'x-api-key': key } });
      await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'log@example.test', password } });
      const all = lines.join('');
      expect(lines.length).toBeGreaterThan(5);
      expect(all).toContain('request completed');
      expect(all).toContain('apikey=[redacted]');
      for (const secret of [password, token, key, key.slice(9)]) expect(all).not.toContain(secret);
    } finally {
      await app.close();
      await ctx.close();
    }
  });
});
