// Without SMTP Herald says so: the invitation and password-reset answers, the start-up line, and the outbox an
// operator reads with `herald mail outbox` or GET /admin/mail/outbox.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createHarness, type Harness } from '../helpers/harness.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { startupSummary } from '../../src/startup-report.ts';
import { users } from '../../src/db/schema.ts';
import { eq } from '../../src/db/orm.ts';
import pino from 'pino';

let h: Harness;
const dirs: string[] = [];
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('without SMTP', () => {
  it('the invitation and reset answers say nothing was mailed; the admin route lists what waits', async () => {
    const owner = await h.signup();
    const inv = await h.req({
      method: 'POST',
      url: `/workspaces/${owner.workspaceId}/invitations`,
      headers: bearer(owner.token),
      payload: { email: 'invitee@example.test' },
    });
    expect(inv.statusCode, inv.body).toBe(201);
    expect(inv.json().message).toMatch(/not mailed/);
    expect(inv.json().message).toMatch(/Mail is not configured on this server/);
    const reset = await h.req({
      method: 'POST',
      url: '/auth/forgot-password',
      payload: { email: owner.email },
    });
    expect(reset.json().message).toMatch(/Mail is not configured on this server/);
    await h.ctx.database.db.update(users).set({ isAdmin: true }).where(eq(users.id, owner.userId));
    const out = await h.req({ method: 'GET', url: '/admin/mail/outbox', headers: bearer(owner.token) });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json().smtp_configured).toBe(false);
    expect(out.json().mails.map((m: { to: string }) => m.to)).toEqual(expect.arrayContaining(['invitee@example.test']));
  });

  it('the start-up line says mail is not configured and where to read it', () => {
    const config = loadConfig({ HERALD_DATA_DIR: '/tmp/x' });
    const text = startupSummary(config, { url: 'http://127.0.0.1:8000', metricsUrl: undefined });
    expect(text).toMatch(/mail\s+not configured: nothing is mailed.*herald mail outbox/);
  });

  it('`herald mail outbox` prints the waiting mails', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-outbox-'));
    dirs.push(dir);
    const env = { HERALD_DATA_DIR: dir, HERALD_LOG_LEVEL: 'warn' };
    const ctx = await createContext(loadConfig(env), { logger: pino({ level: 'silent' }) });
    await ctx.mailer.send({ workspaceId: null, to: 'ops@example.test', subject: 'Hello', body: 'Body', kind: 'test' });
    await ctx.close();
    const { DATABASE_URL: _ignored, ...rest } = process.env;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(import.meta.dirname, '../../src/cli.ts'), 'mail', 'outbox'],
      { env: { ...rest, ...env } },
    );
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ to: 'ops@example.test', subject: 'Hello', kind: 'test' })]);
  });
});
