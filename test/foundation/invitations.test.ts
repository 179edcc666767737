// Workspace invitations end to end: nobody joins without accepting, the inviter learns nothing about
// whether an address has an account, and tokens are hashed, single-use, expiring and revocable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from '../../src/db/orm.ts';
import { mailOutbox } from '../../src/db/schema.ts';
import { workspaceInvitations } from '../../src/db/schema-accounts.ts';
import { bearer, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { startSmtp } from '../helpers/smtp.ts';

let now = new Date('2026-06-01T08:00:00Z');
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ clock: () => now, env: { HERALD_INVITATION_TTL_SECONDS: '3600' } });
});
afterAll(async () => h?.close());

const invite = (
  hh: Harness,
  owner: TestUser,
  email: string,
  role = 'member',
  url = `/workspaces/${owner.workspaceId}/invitations`,
) => hh.req({ method: 'POST', url, headers: bearer(owner.token), payload: { email, role } });
const accept = (hh: Harness, user: TestUser, token: string) =>
  hh.req({ method: 'POST', url: '/invitations/accept', headers: bearer(user.token), payload: { token } });
const names = async (hh: Harness, u: TestUser) =>
  (await hh.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) }))
    .json()
    .map((w: { name: string }) => w.name);

/** The token in the newest mail to an address, read from the outbox. */
async function mailedToken(hh: Harness, to: string): Promise<string> {
  const [mail] = await hh.ctx.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.kind, 'workspace_invitation')))
    .orderBy(desc(mailOutbox.createdAt));
  const m = /Invitation token: (\S+)/.exec(mail?.body ?? '');
  if (!m) throw new Error(`no invitation mail to ${to}`);
  return m[1]!;
}

describe('invitations', () => {
  it('an invited user is not a member until they accept with the mailed token; the token works once', async () => {
    const owner = await h.signup({ workspace_name: 'Acme' });
    const alice = await h.signup({ workspace_name: 'Alice home' });
    const res = await invite(h, owner, alice.email);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      email: alice.email,
      role: 'member',
      status: 'pending',
      invited_by: owner.userId,
      token: expect.any(String),
    });
    // Nothing changed for Alice yet: Acme is neither listed nor usable.
    expect(await names(h, alice)).toEqual(['Alice home']);
    expect(
      (
        await h.req({
          method: 'GET',
          url: '/billing/usage',
          headers: { ...bearer(alice.token), 'x-workspace-id': owner.workspaceId },
        })
      ).statusCode,
    ).toBe(403);
    const token = await mailedToken(h, alice.email);
    expect(token).toBe(res.json().token);
    const ok = await accept(h, alice, token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      success: true,
      workspace: { id: owner.workspaceId, name: 'Acme', role: 'member' },
    });
    // Her own workspace stays first.
    expect(await names(h, alice)).toEqual(['Alice home', 'Acme']);
    const again = await accept(h, alice, token);
    expect(again.statusCode).toBe(400);
    const list = (
      await h.req({ method: 'GET', url: `/workspaces/${owner.workspaceId}/invitations`, headers: bearer(owner.token) })
    ).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: 'accepted', accepted_at: now.toISOString() });
    expect(list[0]).not.toHaveProperty('token');
  });

  it('answers alike for a registered and an unregistered address, and stores only a hash of the token', async () => {
    const owner = await h.signup();
    const known = await h.signup();
    const unknown = `nobody-${Date.now()}@example.test`;
    const a = await invite(h, owner, known.email);
    const b = await invite(h, owner, unknown);
    const shape = (res: typeof a, email: string) => {
      const body = res.json();
      const masked = JSON.stringify(body)
        .replaceAll(email, '<email>')
        .replaceAll(body.id, '<id>')
        .replaceAll(body.token, '<token>');
      return { status: res.statusCode, headers: Object.keys(res.headers).sort(), body: masked };
    };
    expect(shape(a, known.email)).toEqual(shape(b, unknown));
    // The same goes for the old members route, kept as an alias.
    const c = await invite(
      h,
      owner,
      `other-${Date.now()}@example.test`,
      'member',
      `/workspaces/${owner.workspaceId}/members`,
    );
    expect(c.statusCode).toBe(201);
    expect(Object.keys(c.json()).sort()).toEqual(Object.keys(a.json()).sort());
    const rows = await h.ctx.database.db
      .select()
      .from(workspaceInvitations)
      .where(eq(workspaceInvitations.workspaceId, owner.workspaceId));
    expect(rows).toHaveLength(3);
    for (const token of [a.json().token, b.json().token]) expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('an unregistered invitee signs up with the token and joins; a token for another address is refused', async () => {
    const owner = await h.signup({ workspace_name: 'Signup target' });
    const email = `new-${Date.now()}@example.test`;
    const token = (await invite(h, owner, email, 'owner')).json().token;
    const wrong = await h.req({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: `x-${email}`, password: 'correct horse battery', invitation_token: token },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail[0].loc).toEqual(['body', 'invitation_token']);
    const res = await h.req({
      method: 'POST',
      url: '/auth/signup',
      payload: {
        email: email.toUpperCase(),
        password: 'correct horse battery',
        workspace_name: 'My own',
        invitation_token: token,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const list = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(res.json().access_token) })).json();
    expect(list.map((w: { name: string; role: string }) => [w.name, w.role])).toEqual([
      ['My own', 'owner'],
      ['Signup target', 'owner'],
    ]);
  });

  it('only the invited address can accept; expired, revoked and replaced invitations stop working', async () => {
    const owner = await h.signup();
    const alice = await h.signup();
    const bob = await h.signup();
    const first = (await invite(h, owner, alice.email)).json();
    const forBob = await accept(h, bob, first.token);
    expect(forBob.statusCode).toBe(403);
    // A new invitation to the same address replaces the pending one.
    const second = (await invite(h, owner, alice.email.toUpperCase())).json();
    expect((await accept(h, alice, first.token)).statusCode).toBe(400);
    const del = await h.req({
      method: 'DELETE',
      url: `/workspaces/${owner.workspaceId}/invitations/${second.id}`,
      headers: bearer(owner.token),
    });
    expect(del.statusCode).toBe(200);
    expect(del.json().status).toBe('revoked');
    expect(
      (
        await h.req({
          method: 'DELETE',
          url: `/workspaces/${owner.workspaceId}/invitations/${second.id}`,
          headers: bearer(owner.token),
        })
      ).statusCode,
    ).toBe(409);
    expect((await accept(h, alice, second.token)).statusCode).toBe(400);
    // Another workspace's invitation id is not found from here.
    const other = await h.signup();
    expect(
      (
        await h.req({
          method: 'DELETE',
          url: `/workspaces/${other.workspaceId}/invitations/${second.id}`,
          headers: bearer(other.token),
        })
      ).statusCode,
    ).toBe(404);
    const third = (await invite(h, owner, alice.email)).json();
    const saved = now;
    now = new Date(now.getTime() + 3601_000);
    try {
      expect((await accept(h, alice, third.token)).statusCode).toBe(400);
      const listed = (
        await h.req({
          method: 'GET',
          url: `/workspaces/${owner.workspaceId}/invitations`,
          headers: bearer(owner.token),
        })
      ).json();
      expect(listed.map((i: { status: string }) => i.status).sort()).toEqual(['expired', 'revoked', 'revoked']);
    } finally {
      now = saved;
    }
    expect(await names(h, alice)).toHaveLength(1);
  });

  it('422 with field detail for a malformed address or role', async () => {
    const owner = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: `/workspaces/${owner.workspaceId}/invitations`,
      headers: bearer(owner.token),
      payload: { email: 'not-an-address', role: 'king' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['body', 'email'],
      ['body', 'role'],
    ]);
  });

  it('closed sign-up still admits an invited address, and only that one', async () => {
    const closed = await createHarness({ env: { HERALD_SIGNUP: 'closed' } });
    try {
      const owner = await closed.signup(); // the first user is always admitted
      const email = `invited-${Date.now()}@example.test`;
      const token = (await invite(closed, owner, email)).json().token;
      const stranger = await closed.req({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: 'stranger@example.test', password: 'correct horse battery' },
      });
      expect(stranger.statusCode).toBe(403);
      const res = await closed.req({
        method: 'POST',
        url: '/auth/signup',
        payload: { email, password: 'correct horse battery', invitation_token: token },
      });
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await closed.close();
    }
  });
});

describe('invitation mail over SMTP', () => {
  it('delivers the token to the invitee; the outbox keeps the mail with the token redacted', async () => {
    const smtp = await startSmtp();
    const received = smtp.received;
    const hs = await createHarness({ env: { HERALD_SMTP_URL: smtp.url } });
    try {
      const owner = await hs.signup({ workspace_name: 'Mailed' });
      const alice = await hs.signup();
      const { token } = (await invite(hs, owner, alice.email)).json();
      expect(received).toHaveLength(1);
      expect(received[0]!.to).toEqual([alice.email]);
      const mailed = /Invitation token: (\S+)/.exec(received[0]!.body.replace(/=\r?\n/g, ''))?.[1];
      expect(mailed).toBe(token);
      const [row] = await hs.ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, alice.email));
      expect(row).toMatchObject({ status: 'sent', kind: 'workspace_invitation' });
      expect(row!.body).not.toContain(token);
      expect(row!.body).toContain('Invitation token: [redacted]');
      expect((await accept(hs, alice, mailed!)).statusCode).toBe(200);
    } finally {
      await hs.close();
      await smtp.close();
    }
  });
});
