// The CLI and the embedded server as real processes: start, admin commands, the data-directory lock.
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startupSummary, startupWarnings } from '../../src/startup-report.ts';
import { until } from '../helpers/poll.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../src/cli.ts');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function env(dataDir: string, extra: Record<string, string> = {}) {
  // The embedded mode is under test here: never inherit DATABASE_URL.
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return { ...rest, HERALD_DATA_DIR: dataDir, HERALD_LOG_LEVEL: 'warn', ...extra };
}

/** Until the server answers `url` with a 2xx (it refuses connections while starting). */
const upAt = (url: string) =>
  until(
    () =>
      fetch(url).then(
        (r) => r.ok,
        () => false,
      ),
    { timeoutMs: 60_000, intervalMs: 200 },
  );

describe('herald CLI (embedded PGlite)', () => {
  it('creates users, keys and plans, and refuses a second process on a held data directory', {
    timeout: 300_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-cli-'));
    dirs.push(dir);
    const created = await run(
      process.execPath,
      [CLI, 'user', 'create', '--email', 'ops@example.test', '--password', 'operator pass', '--workspace', 'Ops'],
      { env: env(dir) },
    );
    const user = JSON.parse(created.stdout.trim());
    expect(user).toMatchObject({ email: 'ops@example.test', is_admin: true });

    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const server = spawn(process.execPath, [CLI, 'serve'], {
      env: env(dir, { PORT: String(port), HOST: '127.0.0.1', HERALD_LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    server.stderr.on('data', (d) => (stderr += d));
    server.stdout.on('data', (d) => (stdout += d));
    try {
      await upAt(`http://127.0.0.1:${port}/healthz`);
      // The steps as they happen, then one summary: where to connect, the docs, the data directory, the sandbox,
      // mail and sign-up. Not a terminal: JSON lines, and one line per request.
      // The request line is written when the answer has gone: the client may read the answer first.
      await until(() => stdout.includes('Herald is ready') && stdout.includes('"msg":"GET /healthz 200 '), {
        timeoutMs: 120_000,
      });
      const lines = stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string; level: number });
      expect(lines.map((l) => l.msg)).toContain(
        `database schema up to date (version ${/\(version (\d+)\)/.exec(stdout)?.[1]})`,
      );
      const startup = lines.filter((l) => l.msg.startsWith('Herald is ready'));
      expect(startup).toHaveLength(1);
      expect(startup[0]!.msg).toBe(
        [
          `Herald is ready: open http://127.0.0.1:${port}`,
          `  API docs  http://127.0.0.1:${port}/docs`,
          `  data      ${dir}`,
          '  sandbox   off',
          '  mail      not configured: nothing is mailed; invitations, password resets and notifications wait in the outbox (`herald mail outbox`, GET /admin/mail/outbox; set HERALD_SMTP_URL)',
          '  sign-up   open to anyone who can reach this server (HERALD_SIGNUP=invite: by invitation only)',
          '  ChatGPT   needs an https HERALD_PUBLIC_URL to reach this server (docs/gpt-actions.md)',
        ].join('\n'),
      );
      const healthz = lines.filter((l) => l.msg.startsWith('GET /healthz '));
      expect(healthz[0]).toMatchObject({
        req: { method: 'GET', url: '/healthz' },
        res: { statusCode: 200 },
        reqId: expect.any(String),
        responseTime: expect.any(Number),
      });
      expect(stdout).not.toMatch(/incoming request|request completed/);
      // The database is held by the server: a second process refuses with a clear message.
      const second = await run(process.execPath, [CLI, 'migrate'], { env: env(dir) }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect((second as { code: number }).code).toBe(1);
      expect((second as { stderr: string }).stderr).toMatch(/in use by another Herald process/);
      expect((second as { stderr: string }).stderr).toMatch(/admin routes/);

      // The same admin actions over HTTP.
      const login = (await (
        await fetch(`http://127.0.0.1:${port}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'ops@example.test', password: 'operator pass' }),
        })
      ).json()) as { access_token: string };
      const auth = { authorization: `Bearer ${login.access_token}`, 'content-type': 'application/json' };
      const ws = (
        (await (await fetch(`http://127.0.0.1:${port}/workspaces`, { headers: auth })).json()) as { id: string }[]
      )[0]!;
      const plan = await fetch(`http://127.0.0.1:${port}/admin/workspaces/${ws.id}/plan`, {
        method: 'PUT',
        headers: auth,
        body: JSON.stringify({ plan_id: 'starter' }),
      });
      expect(await plan.json()).toEqual({ workspace_id: ws.id, plan_id: 'starter' });
      const key = (await (
        await fetch(`http://127.0.0.1:${port}/admin/workspaces/${ws.id}/api-keys`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ scope: 'full' }),
        })
      ).json()) as { secret: string };
      expect(key.secret).toMatch(/^psk_live_/);
      await fetch(`http://127.0.0.1:${port}/admin/workspaces/${ws.id}/plan`, {
        method: 'PUT',
        headers: auth,
        body: JSON.stringify({ plan_id: 'pro' }),
      });
      const usage = await fetch(`http://127.0.0.1:${port}/billing/usage`, { headers: { 'x-api-key': key.secret } });
      expect(usage.status).toBe(200);
    } finally {
      server.kill('SIGTERM');
      const code = await new Promise<number | null>((r) => server.once('exit', r));
      expect(code, stderr).toBe(0);
    }

    // After a clean shutdown the lock is released and the CLI works directly again.
    const listed = await run(
      process.execPath,
      [CLI, 'key', 'create', '--workspace', '00000000-0000-4000-8000-000000000000'],
      { env: env(dir) },
    ).catch((e: { stderr: string }) => e);
    expect((listed as { stderr: string }).stderr ?? '').not.toMatch(/in use by another/);
  });

  it('a busy port is one line on stderr and a non-zero exit', { timeout: 240_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-cli-'));
    dirs.push(dir);
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as { port: number }).port;
    try {
      const res = await run(process.execPath, [CLI, 'serve'], {
        env: env(dir, { PORT: String(port), HOST: '127.0.0.1' }),
      }).catch((e: { code: number; stderr: string }) => e);
      expect((res as { code: number }).code).toBe(1);
      expect((res as { stderr: string }).stderr).toBe(
        `herald: cannot listen on 127.0.0.1:${port}: the port is already in use (stop the other process or set PORT)\n`,
      );
    } finally {
      holder.close();
    }
  });

  it('names PostgreSQL by host and database in the start-up summary, never the password', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://herald:s3cret-pw@db.internal:5433/herald',
      HERALD_SANDBOX: '1',
      HERALD_SIGNUP: 'invite',
      HERALD_SMTP_URL: 'smtp://u:p@mail.internal:587',
      HERALD_PUBLIC_URL: 'https://herald.example.org',
    });
    const summary = startupSummary(config, { url: 'http://0.0.0.0:8080', metricsUrl: 'http://127.0.0.1:9464/metrics' });
    expect(summary).toBe(
      [
        'Herald is ready: open http://localhost:8080',
        '  API docs  http://localhost:8080/docs',
        '  database  PostgreSQL at db.internal:5433/herald',
        '  sandbox   on: every network is simulated, no real accounts needed (docs/sandbox.md)',
        '  mail      sent over SMTP',
        '  sign-up   by invitation only (the first account is always admitted)',
        '  metrics   http://127.0.0.1:9464/metrics',
      ].join('\n'),
    );
    expect(summary).not.toContain('s3cret');
  });

  it('warns when chat assistants cannot reach a public http address, and when anyone may use the sandbox controls', () => {
    expect(startupWarnings(loadConfig({}))).toEqual([]);
    expect(startupWarnings(loadConfig({ HERALD_PUBLIC_URL: 'https://herald.example.org' }))).toEqual([]);
    const [http] = startupWarnings(loadConfig({ HERALD_PUBLIC_URL: 'http://herald.example.org' }));
    expect(http).toMatch(/^HERALD_PUBLIC_URL is http:\/\/herald\.example\.org, not https: ChatGPT/);
    expect(startupWarnings(loadConfig({ HERALD_SANDBOX: '1', HERALD_SANDBOX_CONTROL: 'any' }))).toEqual([
      expect.stringMatching(/^HERALD_SANDBOX_CONTROL=any: anyone/),
    ]);
  });

  it('fails before listening on invalid configuration, naming the variable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-cli-'));
    dirs.push(dir);
    const res = await run(process.execPath, [CLI, 'serve'], { env: env(dir, { PORT: 'abc' }) }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((res as { code: number }).code).toBe(1);
    expect((res as { stderr: string }).stderr).toMatch(/PORT/);
  });
});
