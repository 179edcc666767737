// The account-disconnected notification through a real SMTP exchange (a local SMTP server on loopback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { eq } from '../../src/db/orm.ts';
import { mailOutbox } from '../../src/db/schema.ts';
import { createHarness, asUser, type Harness } from '../helpers/harness.ts';
import { connect } from './helpers.ts';

const received: { from: string; to: string[]; body: string }[] = [];
let smtp: SMTPServer;
let port: number;
let h: Harness;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let body = '';
      stream.on('data', (d: Buffer) => (body += d.toString()));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), body });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  port = (smtp.server.address() as { port: number }).port;
  h = await createHarness({ sandbox: true, env: { HERALD_SMTP_URL: `smtp://127.0.0.1:${port}`, HERALD_MAIL_FROM: 'Herald <noreply@herald.test>' } });
});
afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('notification mail over SMTP', () => {
  it('tells every owner when an account is disconnected, and records it as sent', async () => {
    const u = await h.signup();
    await connect(h, u, 'pinterest');
    const res = await h.req({ method: 'DELETE', url: '/unified/oauth/token?platform=pinterest', headers: asUser(u) });
    expect(res.json().results.pinterest.message).toBe('Token deleted');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'noreply@herald.test', to: [u.email] });
    expect(received[0]!.body).toContain('Pinterest was disconnected');
    const rows = await h.ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.workspaceId, u.workspaceId));
    expect(rows.map((r) => [r.status, r.kind])).toEqual([['sent', 'account_disconnected']]);
  });
});
