// Expected conditions (a capability not configured, a network refusing) are logged as warnings; Herald's own
// failures stay errors; a client's mistake is not logged beyond its request line.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/client.ts';
import { AppError } from '../../src/errors.ts';
import { buildApp } from '../../src/transports/rest/app.ts';
import { captureLogs } from '../helpers/log-capture.ts';

const PINO_LEVEL = { warn: 40, error: 50 };

describe('log levels of refusals', () => {
  it('503 not configured and 502 from a network are warnings, an unexpected fault is an error', async () => {
    const { logger, lines } = captureLogs('info');
    const dir = mkdtempSync(join(tmpdir(), 'herald-levels-'));
    const config = loadConfig({ HERALD_DATA_DIR: dir });
    const ctx = await createContext(config, { logger, database: await openDatabase({ dataDir: dir, memory: true }) });
    const app = await buildApp(ctx, {
      configure: (a) =>
        void a.register(async (s) => {
          const pub = { config: { access: { kind: 'public' as const } } };
          s.get('/test/network-permission', pub, async () => {
            throw new AppError('bad_gateway', {
              error: 'PERMISSION_DENIED',
              message: 'LinkedIn refused: the app lacks a permission',
            });
          });
          s.get('/test/not-found', pub, async () => {
            throw new AppError('not_found', 'No such thing');
          });
          s.get('/test/fault', pub, async () => {
            throw new Error('something Herald did not expect');
          });
        }),
    });
    try {
      const signup = (
        await app.inject({
          method: 'POST',
          url: '/auth/signup',
          payload: { email: 'levels@example.test', password: 'a long password' },
        })
      ).json();
      const [ws] = (
        await app.inject({
          method: 'GET',
          url: '/workspaces',
          headers: { authorization: `Bearer ${signup.access_token}` },
        })
      ).json();
      const auth = { authorization: `Bearer ${signup.access_token}`, 'x-workspace-id': ws.id };
      const logged = async (url: string, status: number, init: Record<string, unknown> = {}) => {
        const from = lines.length;
        const res = await app.inject({ method: 'GET', url, ...init });
        expect(res.statusCode, url).toBe(status);
        return lines
          .slice(from)
          .map((l) => JSON.parse(l) as { level: number; msg: string })
          .filter((l) => l.level >= PINO_LEVEL.warn);
      };
      const transcribe = await logged('/workspace-agent/website/transcribe', 503, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x--\r\n',
      });
      expect(transcribe.map((l) => [l.level, l.msg])).toEqual([[PINO_LEVEL.warn, 'request failed']]);
      expect((await logged('/test/network-permission', 502)).map((l) => l.level)).toEqual([PINO_LEVEL.warn]);
      expect(await logged('/test/not-found', 404)).toEqual([]);
      expect((await logged('/test/fault', 500)).map((l) => [l.level, l.msg])).toEqual([
        [PINO_LEVEL.error, 'unhandled error'],
      ]);
    } finally {
      await app.close();
      await ctx.close();
    }
  });
});
