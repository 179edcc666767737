// The account-disconnected notification through a real SMTP exchange (a local SMTP server on loopback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from '../../src/db/orm.ts';
import { mailOutbox } from '../../src/db/schema.ts';
import { createHarness, asUser, type Harness } from '../helpers/harness.ts';
import { connect } from './helpers.ts';
import { startSmtp } from '../helpers/smtp.ts';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let h: Harness;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await createHarness({
    sandbox: true,
    env: { HERALD_SMTP_URL: smtp.url, HERALD_MAIL_FROM: 'Herald <noreply@herald.test>' },
  });
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

describe('notification mail over SMTP', () => {
  it('tells every owner when an account is disconnected, and records it as sent', async () => {
    const u = await h.signup();
    await connect(h, u, 'pinterest');
    const res = await h.req({ method: 'DELETE', url: '/unified/oauth/token?platform=pinterest', headers: asUser(u) });
    expect(res.json().results.pinterest.message).toBe('Token deleted');
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: 'noreply@herald.test', to: [u.email] });
    expect(smtp.received[0]!.body).toContain('Pinterest was disconnected');
    const rows = await h.ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.workspaceId, u.workspaceId));
    expect(rows.map((r) => [r.status, r.kind])).toEqual([['sent', 'account_disconnected']]);
  });
});
