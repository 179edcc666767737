// Credentials are redacted by their look (Herald's API keys, JWTs) in every field of every line, and by name in the
// query strings of logged URLs, including parameters Herald does not take credentials in.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_PREFIX } from '../../src/auth/api-keys.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/client.ts';
import { buildApp } from '../../src/transports/rest/app.ts';
import { captureLogs } from '../helpers/log-capture.ts';

describe('log redaction', () => {
  it('redacts keys and tokens by their look and by their parameter name, wherever they appear', async () => {
    const { logger, lines } = captureLogs('trace');
    const dir = mkdtempSync(join(tmpdir(), 'herald-log-'));
    const ctx = await createContext(loadConfig({ HERALD_DATA_DIR: dir }), {
      logger,
      database: await openDatabase({ dataDir: dir, memory: true }),
    });
    const app = await buildApp(ctx);
    try {
      const key = `${KEY_PREFIX}${'k'.repeat(43)}`;
      const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLWJ5dGVz';
      const secrets = ['client-secret-value', 'exchange-token-value', 'input-token-value', 'verifier-value'];
      // Credentials Herald does not take in the query string still reach its request log.
      await app.inject({ method: 'GET', url: `/billing/usage?x-api-key=${key}` });
      await app.inject({ method: 'GET', url: `/billing/usage?key=${key}&other=1` });
      await app.inject({ method: 'GET', url: `/workspaces/${key}/members` });
      await app.inject({ method: 'GET', url: `/healthz?access=${jwt}` });
      // What the networks' token endpoints (the sandbox's among them) are sent.
      await app.inject({
        method: 'GET',
        url: `/healthz?client_secret=${secrets[0]}&fb_exchange_token=${secrets[1]}&input_token=${secrets[2]}&code_verifier=${secrets[3]}`,
      });
      // Any field of any line: a header someone logs, an error message.
      ctx.logger.warn(
        { headers: { 'x-forwarded-access-token': jwt, referer: `https://example.test/?k=${key}` } },
        `refused ${key}`,
      );
      const all = lines.join('');
      // The request lines were written, with the names kept and the values gone.
      for (const name of ['client_secret', 'fb_exchange_token', 'input_token', 'code_verifier'])
        expect(all).toContain(`${name}=[redacted]`);
      for (const secret of [key, key.slice(KEY_PREFIX.length), jwt, jwt.split('.')[1]!, ...secrets])
        expect(all).not.toContain(secret);
      expect(all).toContain(`x-api-key=[redacted]`);
      expect(all).toContain(`${KEY_PREFIX}[redacted]`);
      expect(all).toContain('other=1');
    } finally {
      await app.close();
      await ctx.close();
    }
  });
});
