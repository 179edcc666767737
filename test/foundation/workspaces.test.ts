import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, bearer, type Harness } from '../helpers/harness.ts';
import { joinWorkspace } from '../helpers/security-matrix.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('workspaces', () => {
  it("lists the caller's workspaces as a bare array with connection flags, with and without a trailing slash", async () => {
    const u = await h.signup({ workspace_name: 'Acme Social' });
    for (const url of ['/workspaces', '/workspaces/']) {
      const res = await h.req({ method: 'GET', url, headers: bearer(u.token) });
      expect(res.statusCode).toBe(200);
      const [ws] = res.json();
      expect(ws).toMatchObject({
        id: u.workspaceId,
        name: 'Acme Social',
        owner_id: u.userId,
        linkedin_connected: false,
        bluesky_connected: false,
        connected_social_count: 0,
        member_count: 1,
      });
      expect(ws.slug).toMatch(/^acme-social-[0-9a-f]{6}$/);
      expect(ws.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('creates workspaces up to the plan limit', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free'); // one workspace
    const refused = await h.req({
      method: 'POST',
      url: '/workspaces',
      headers: bearer(u.token),
      payload: { name: 'Second' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatchObject({ error: 'workspace_limit', used: 1, limit: 1 });
    await h.setPlan(u.workspaceId, 'starter'); // three
    for (const name of ['Second', 'Third']) {
      expect(
        (await h.req({ method: 'POST', url: '/workspaces', headers: bearer(u.token), payload: { name } })).statusCode,
      ).toBe(201);
    }
    const list = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) })).json();
    expect(list.map((w: { name: string }) => w.name)).toHaveLength(3);
  });

  it("does not list other users' workspaces and needs a session", async () => {
    const a = await h.signup();
    const b = await h.signup();
    const list = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(b.token) })).json();
    expect(list.map((w: { id: string }) => w.id)).not.toContain(a.workspaceId);
    expect((await h.req({ method: 'GET', url: '/workspaces' })).statusCode).toBe(401);
    expect(
      (await h.req({ method: 'POST', url: '/workspaces', headers: bearer(b.token), payload: { name: '' } })).statusCode,
    ).toBe(422);
  });
});

describe('workspace order', () => {
  it("lists the caller's own workspaces first, then joined ones, each oldest first", async () => {
    const me = await h.signup({ workspace_name: 'Mine A' });
    const other = await h.signup({ workspace_name: 'Theirs' });
    // Joined before my second workspace exists, so creation order alone would put it second.
    await joinWorkspace(h, other, me);
    await new Promise((r) => setTimeout(r, 5));
    const second = await h.req({
      method: 'POST',
      url: '/workspaces',
      headers: bearer(me.token),
      payload: { name: 'Mine B' },
    });
    expect(second.statusCode).toBe(201);
    const list = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(me.token) })).json();
    expect(list.map((w: { name: string; role: string }) => [w.name, w.role])).toEqual([
      ['Mine A', 'owner'],
      ['Mine B', 'owner'],
      ['Theirs', 'member'],
    ]);
  });
});

describe('members', () => {
  it('owners invite, the invitee accepts; members act on the workspace but cannot manage it; the plan limit counts pending invitations', async () => {
    const owner = await h.signup();
    const alice = await h.signup();
    const bob = await h.signup();
    await h.setPlan(owner.workspaceId, 'free'); // 3 members
    const invite = (email: string, role = 'member', as = owner) =>
      h.req({
        method: 'POST',
        url: `/workspaces/${owner.workspaceId}/invitations`,
        headers: bearer(as.token),
        payload: { email, role },
      });
    await joinWorkspace(h, owner, alice);
    const list = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(alice.token) })).json();
    expect(list.find((w: { id: string }) => w.id === owner.workspaceId)).toMatchObject({
      role: 'member',
      member_count: 2,
    });
    expect(
      (
        await h.req({
          method: 'GET',
          url: '/billing/usage',
          headers: { ...bearer(alice.token), 'x-workspace-id': owner.workspaceId },
        })
      ).statusCode,
    ).toBe(200);
    expect((await invite(bob.email, 'member', alice)).statusCode).toBe(403);
    expect(
      (
        await h.req({
          method: 'POST',
          url: `/workspaces/${owner.workspaceId}/api-keys`,
          headers: bearer(alice.token),
          payload: {},
        })
      ).statusCode,
    ).toBe(403);
    expect((await invite(alice.email)).statusCode).toBe(409);
    expect((await invite(bob.email)).statusCode).toBe(201);
    // Two members and one pending invitation fill the three seats.
    const over = await invite('carol@example.test');
    expect(over.statusCode).toBe(403);
    expect(over.json().detail).toMatchObject({ error: 'team_member_limit', used: 3, limit: 3 });
    // The last owner cannot leave or step down; a member can remove themselves.
    expect(
      (
        await h.req({
          method: 'DELETE',
          url: `/workspaces/${owner.workspaceId}/members/${owner.userId}`,
          headers: bearer(owner.token),
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (
        await h.req({
          method: 'PATCH',
          url: `/workspaces/${owner.workspaceId}/members/${owner.userId}`,
          headers: bearer(owner.token),
          payload: { role: 'member' },
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (
        await h.req({
          method: 'DELETE',
          url: `/workspaces/${owner.workspaceId}/members/${alice.userId}`,
          headers: bearer(alice.token),
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await h.req({
          method: 'GET',
          url: '/billing/usage',
          headers: { ...bearer(alice.token), 'x-workspace-id': owner.workspaceId },
        })
      ).statusCode,
    ).toBe(403);
    const members = (
      await h.req({ method: 'GET', url: `/workspaces/${owner.workspaceId}/members`, headers: bearer(owner.token) })
    ).json();
    expect(members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([[owner.email, 'owner']]);
    // Strangers see nothing, as for a workspace that does not exist.
    expect(
      (await h.req({ method: 'GET', url: `/workspaces/${owner.workspaceId}/members`, headers: bearer(bob.token) }))
        .statusCode,
    ).toBe(403);
  });

  it('owners change roles with PATCH; a promoted owner can manage the workspace', async () => {
    const owner = await h.signup();
    const alice = await h.signup();
    await joinWorkspace(h, owner, alice);
    const url = `/workspaces/${owner.workspaceId}/members/${alice.userId}`;
    expect(
      (await h.req({ method: 'PATCH', url, headers: bearer(alice.token), payload: { role: 'owner' } })).statusCode,
    ).toBe(403);
    const bad = await h.req({ method: 'PATCH', url, headers: bearer(owner.token), payload: { role: 'admin' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'role']);
    const res = await h.req({ method: 'PATCH', url, headers: bearer(owner.token), payload: { role: 'owner' } });
    expect(res.json()).toEqual({ success: true, user_id: alice.userId, role: 'owner' });
    expect(
      (
        await h.req({
          method: 'GET',
          url: `/workspaces/${owner.workspaceId}/invitations`,
          headers: bearer(alice.token),
        })
      ).statusCode,
    ).toBe(200);
    const missing = await h.req({
      method: 'PATCH',
      url: `/workspaces/${owner.workspaceId}/members/00000000-0000-4000-8000-000000000000`,
      headers: bearer(owner.token),
      payload: { role: 'member' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('PATCH /workspaces/{id}', () => {
  it('changes name, time zone (canonical IANA name) and locale (canonical BCP 47); scheduled times render in the new zone', async () => {
    const u = await h.signup({ workspace_name: 'Before' });
    const url = `/workspaces/${u.workspaceId}`;
    const res = await h.req({
      method: 'PATCH',
      url,
      headers: bearer(u.token),
      payload: { name: '  After  ', time_zone: 'europe/paris', locale: 'pt-br' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: u.workspaceId,
      name: 'After',
      time_zone: 'Europe/Paris',
      locale: 'pt-BR',
      role: 'owner',
    });
    const listed = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) })).json()[0];
    expect(listed).toMatchObject({ name: 'After', time_zone: 'Europe/Paris', locale: 'pt-BR' });
    expect(await h.ctx.scheduling.timeZoneOf(u.workspaceId)).toBe('Europe/Paris');
    const cleared = await h.req({ method: 'PATCH', url, headers: bearer(u.token), payload: { locale: null } });
    expect(cleared.json()).toMatchObject({ locale: null, time_zone: 'Europe/Paris', name: 'After' });
  });

  it('422 per field for an unknown zone, a UTC offset, a malformed locale, an empty name, or nothing to change', async () => {
    const u = await h.signup();
    const url = `/workspaces/${u.workspaceId}`;
    const both = await h.req({
      method: 'PATCH',
      url,
      headers: bearer(u.token),
      payload: { time_zone: 'Mars/Olympus_Mons', locale: 'en_US' },
    });
    expect(both.statusCode).toBe(422);
    expect(both.json().detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['body', 'time_zone'],
      ['body', 'locale'],
    ]);
    for (const payload of [{ time_zone: '+01:00' }, { time_zone: '' }, { locale: '' }, { name: '   ' }]) {
      const res = await h.req({ method: 'PATCH', url, headers: bearer(u.token), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().detail[0].loc[1], JSON.stringify(payload)).toBe(Object.keys(payload)[0]);
    }
    const empty = await h.req({ method: 'PATCH', url, headers: bearer(u.token), payload: {} });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail[0].loc).toEqual(['body']);
    expect((await h.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) })).json()[0].time_zone).toBe(
      'UTC',
    );
  });
});

describe('/openapi.json', () => {
  it('documents the account routes with descriptions and their error answers', async () => {
    const doc = (await h.req({ method: 'GET', url: '/openapi.json' })).json();
    const routes: [string, string, string[]][] = [
      ['/workspaces/{workspace_id}', 'patch', ['200', '401', '403', '422']],
      ['/workspaces/{workspace_id}', 'delete', ['200', '401', '403']],
      ['/workspaces/{workspace_id}/invitations', 'post', ['201', '401', '403', '409', '422']],
      ['/workspaces/{workspace_id}/invitations', 'get', ['200', '401', '403']],
      ['/workspaces/{workspace_id}/invitations/{invitation_id}', 'delete', ['200', '401', '403', '404', '409']],
      ['/invitations/accept', 'post', ['200', '400', '401', '403', '422']],
      ['/auth/logout', 'post', ['200', '401']],
      ['/auth/logout-all', 'post', ['200', '401']],
      ['/auth/change-password', 'post', ['200', '401', '422']],
      ['/auth/forgot-password', 'post', ['200', '422']],
      ['/auth/verify-reset-token', 'get', ['200', '422']],
      ['/auth/reset-password', 'post', ['200', '400', '422']],
    ];
    for (const [path, method, codes] of routes) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.summary, `${method} ${path}`).toEqual(expect.any(String));
      // At least these: the shared ones every route gets (429, 500…) come on top (openapi.test.ts).
      expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(codes));
    }
  });
});
