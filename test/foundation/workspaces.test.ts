import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, bearer, type Harness } from '../helpers/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('workspaces', () => {
  it('lists the caller\'s workspaces as a bare array with connection flags, with and without a trailing slash', async () => {
    const u = await h.signup({ workspace_name: 'Acme Social' });
    for (const url of ['/workspaces', '/workspaces/']) {
      const res = await h.req({ method: 'GET', url, headers: bearer(u.token) });
      expect(res.statusCode).toBe(200);
      const [ws] = res.json();
      expect(ws).toMatchObject({ id: u.workspaceId, name: 'Acme Social', owner_id: u.userId, linkedin_connected: false, bluesky_connected: false, connected_social_count: 0, member_count: 1 });
      expect(ws.slug).toMatch(/^acme-social-[0-9a-f]{6}$/);
      expect(ws.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('creates workspaces up to the plan limit', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free'); // one workspace
    const refused = await h.req({ method: 'POST', url: '/workspaces', headers: bearer(u.token), payload: { name: 'Second' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatchObject({ error: 'workspace_limit', used: 1, limit: 1 });
    await h.setPlan(u.workspaceId, 'starter'); // three
    for (const name of ['Second', 'Third']) {
      expect((await h.req({ method: 'POST', url: '/workspaces', headers: bearer(u.token), payload: { name } })).statusCode).toBe(201);
    }
    const list = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) })).json();
    expect(list.map((w: { name: string }) => w.name)).toHaveLength(3);
  });

  it('does not list other users\' workspaces and needs a session', async () => {
    const a = await h.signup();
    const b = await h.signup();
    const list = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(b.token) })).json();
    expect(list.map((w: { id: string }) => w.id)).not.toContain(a.workspaceId);
    expect((await h.req({ method: 'GET', url: '/workspaces' })).statusCode).toBe(401);
    expect((await h.req({ method: 'POST', url: '/workspaces', headers: bearer(b.token), payload: { name: '' } })).statusCode).toBe(422);
  });
});

describe('members', () => {
  it('owners add and remove members within the plan limit; members act on the workspace but cannot manage it', async () => {
    const owner = await h.signup();
    const alice = await h.signup();
    const bob = await h.signup();
    await h.setPlan(owner.workspaceId, 'free'); // 3 members
    const add = (email: string, role = 'member', as = owner) =>
      h.req({ method: 'POST', url: `/workspaces/${owner.workspaceId}/members`, headers: bearer(as.token), payload: { email, role } });
    expect((await add(alice.email)).statusCode).toBe(200);
    // A member sees the workspace and can use it with a session, but cannot add people or keys.
    const list = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(alice.token) })).json();
    expect(list.find((w: { id: string }) => w.id === owner.workspaceId)).toMatchObject({ role: 'member', member_count: 2 });
    expect((await h.req({ method: 'GET', url: '/billing/usage', headers: { ...bearer(alice.token), 'x-workspace-id': owner.workspaceId } })).statusCode).toBe(200);
    expect((await add(bob.email, 'member', alice)).statusCode).toBe(403);
    expect((await h.req({ method: 'POST', url: `/workspaces/${owner.workspaceId}/api-keys`, headers: bearer(alice.token), payload: {} })).statusCode).toBe(403);
    expect((await add(bob.email)).statusCode).toBe(200);
    const carol = await h.signup();
    const over = await add(carol.email);
    expect(over.statusCode).toBe(403);
    expect(over.json().detail).toMatchObject({ error: 'team_member_limit', used: 3, limit: 3 });
    expect((await add('nobody@example.test')).statusCode).toBe(404);
    // The last owner cannot leave; a member can remove themselves.
    expect((await h.req({ method: 'DELETE', url: `/workspaces/${owner.workspaceId}/members/${owner.userId}`, headers: bearer(owner.token) })).statusCode).toBe(409);
    expect((await h.req({ method: 'DELETE', url: `/workspaces/${owner.workspaceId}/members/${alice.userId}`, headers: bearer(alice.token) })).statusCode).toBe(200);
    expect((await h.req({ method: 'GET', url: '/billing/usage', headers: { ...bearer(alice.token), 'x-workspace-id': owner.workspaceId } })).statusCode).toBe(403);
    const members = (await h.req({ method: 'GET', url: `/workspaces/${owner.workspaceId}/members`, headers: bearer(owner.token) })).json();
    expect(members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([[owner.email, 'owner'], [bob.email, 'member']]);
    // Strangers see nothing.
    expect((await h.req({ method: 'GET', url: `/workspaces/${owner.workspaceId}/members`, headers: bearer(carol.token) })).statusCode).toBe(404);
  });
});
