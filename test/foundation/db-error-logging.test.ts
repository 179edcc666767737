// A database error is logged without the query's parameter values: the password hash of a sign-up,
// the key hash of a new API key, the failing row PostgreSQL describes in its DETAIL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/client.ts';
import { sql } from '../../src/db/orm.ts';
import { buildApp } from '../../src/transports/rest/app.ts';
import { createTestDatabaseUrl } from '../helpers/harness.ts';
import { captureLogs } from '../helpers/log-capture.ts';

describe('database errors in the log', () => {
  it('name the query and the constraint, never the parameters or the failing row', async () => {
    const { logger, lines } = captureLogs('info');
    const dir = mkdtempSync(join(tmpdir(), 'herald-dberr-'));
    const testDb = await createTestDatabaseUrl();
    const config = loadConfig({ HERALD_DATA_DIR: dir, ...(testDb ? { DATABASE_URL: testDb.url } : {}) });
    const database = await openDatabase({ dataDir: dir, memory: !testDb, databaseUrl: config.databaseUrl });
    const ctx = await createContext(config, { logger, database });
    const app = await buildApp(ctx);
    try {
      const owner = (
        await app.inject({
          method: 'POST',
          url: '/auth/signup',
          payload: { email: 'owner@example.test', password: 'first password' },
        })
      ).json();
      const [ws] = (
        await app.inject({
          method: 'GET',
          url: '/workspaces',
          headers: { authorization: `Bearer ${owner.access_token}` },
        })
      ).json();
      // New rows now violate a constraint, so the INSERTs themselves fail with their parameters bound.
      await database.db.execute(sql.raw('alter table users add constraint no_new_users check (false) not valid'));
      await database.db.execute(sql.raw('alter table api_keys add constraint no_new_keys check (false) not valid'));

      const email = 'second-user@example.test';
      const signup = await app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email, password: 'second password' },
      });
      expect(signup.statusCode).toBe(500);
      const key = await app.inject({
        method: 'POST',
        url: `/workspaces/${ws.id}/api-keys`,
        headers: { authorization: `Bearer ${owner.access_token}` },
        payload: { scope: 'full' },
      });
      expect(key.statusCode).toBe(500);
      // A value PostgreSQL quotes in its message is dropped too.
      const failed = await database.db.execute(sql`select ${'not-a-uuid-but-a-secret'}::uuid`).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failed).toBeInstanceOf(Error);
      ctx.logger.error({ err: failed }, 'direct query failed');

      const errors = lines.filter((l) => JSON.parse(l).level >= 50);
      expect(errors).toHaveLength(3);
      const all = errors.join('\n');
      // Useful: what failed and where.
      expect(all).toContain('insert into \\"users\\"');
      expect(all).toContain('insert into \\"api_keys\\"');
      expect(all).toContain('no_new_users');
      expect(all).toContain('no_new_keys');
      expect(all).toContain('23514');
      // Not there: the parameters, in any form.
      expect(all).not.toContain('$argon2');
      expect(all).not.toMatch(/[0-9a-f]{64}/);
      expect(all).not.toContain(email);
      expect(all).not.toContain('Failing row');
      expect(all).not.toContain('params');
      expect(all).not.toContain('not-a-uuid-but-a-secret');
    } finally {
      await app.close();
      await ctx.close();
      await testDb?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
