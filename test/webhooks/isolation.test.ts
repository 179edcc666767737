// Webhooks stay inside their workspace and their key's networks: another workspace's endpoints, deliveries and
// events are never reachable or delivered, and an endpoint made with a network-scoped key receives only that
// network's events (a scoped key sees and manages only such endpoints).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { createEndpoint, deliveries, emit, settled, webhookHarness } from './helpers.ts';
import { Receiver } from './receiver.ts';

let h: Harness;
let a: TestUser;
let b: TestUser;
let r: Receiver;

beforeAll(async () => {
  h = await webhookHarness();
  a = await h.signup();
  b = await h.signup();
  r = await new Receiver().start();
});
afterAll(async () => {
  await h?.close();
  await r?.close();
});

const connected = (platform: string) => ({
  platform,
  platform_user_id: `${platform}-user`,
  account_name: 'Someone',
});

describe('workspace isolation', () => {
  it("never delivers, shows or lets anyone act on another workspace's webhooks", async () => {
    const epA = await createEndpoint(h, asUser(a), { url: `${r.url}/a` });
    const epB = await createEndpoint(h, asUser(b), { url: `${r.url}/b` });
    await emit(h, a.workspaceId, 'account.connected', connected('linkedin'));
    const [d] = await settled(h, a, epA.id);
    await emit(h, b.workspaceId, 'account.connected', connected('threads'));
    await settled(h, b, epB.id);
    expect(r.received.filter((x) => x.path === '/a').map((x) => JSON.parse(x.body).workspace_id)).toEqual([
      a.workspaceId,
    ]);
    expect(r.received.filter((x) => x.path === '/b').map((x) => JSON.parse(x.body).workspace_id)).toEqual([
      b.workspaceId,
    ]);

    const keyB = await h.createKey(b);
    for (const headers of [asUser(b), { 'x-api-key': keyB }]) {
      const list = await h.req({ method: 'GET', url: '/webhooks', headers });
      expect(list.json().webhooks.map((w: { id: string }) => w.id)).toEqual([epB.id]);
      for (const [method, url, payload] of [
        ['GET', `/webhooks/${epA.id}`],
        ['PATCH', `/webhooks/${epA.id}`, { enabled: false }],
        ['DELETE', `/webhooks/${epA.id}`],
        ['POST', `/webhooks/${epA.id}/rotate-secret`],
        ['POST', `/webhooks/${epA.id}/test`],
        ['GET', `/webhooks/${epA.id}/deliveries`],
        ['POST', `/webhooks/${epA.id}/recover`, { since: '2026-01-01T00:00:00Z' }],
        ['POST', `/webhooks/deliveries/${d!.id}/redeliver`],
      ] as const) {
        const res = await h.req({ method, url, headers, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    expect((await h.ctx.webhooks.endpoints.byId(epA.id))!.enabled).toBe(true);
  });
});

describe('key scopes', () => {
  it("an endpoint made with a network-scoped key receives only that network's events", async () => {
    const u = await h.signup();
    const linkedinKey = await h.createKey(u, 'linkedin');
    const scoped = await createEndpoint(h, { 'x-api-key': linkedinKey }, { url: `${r.url}/scoped` });
    const full = await createEndpoint(h, asUser(u), { url: `${r.url}/full` });
    expect((await h.req({ method: 'GET', url: `/webhooks/${scoped.id}`, headers: asUser(u) })).json().scope).toBe(
      'linkedin',
    );

    await emit(h, u.workspaceId, 'account.connected', connected('threads'));
    await emit(h, u.workspaceId, 'account.connected', connected('linkedin'));
    await emit(h, u.workspaceId, 'credits.low', {
      credit_type: 'posts',
      used: 9,
      limit: 10,
      remaining: 1,
      period_start: '2026-01-01T00:00:00.000Z',
    });
    await settled(h, u, full.id, 3);
    const got = await settled(h, u, scoped.id, 1);
    expect(got.map((d) => d.event_type)).toEqual(['account.connected']);
    const bodies = r.received.filter((x) => x.path === '/scoped').map((x) => JSON.parse(x.body));
    expect(bodies.map((x) => x.platform)).toEqual(['linkedin']);

    // The scoped key sees and manages only its networks' endpoints; members and full keys see all.
    const mine = await h.req({ method: 'GET', url: '/webhooks', headers: { 'x-api-key': linkedinKey } });
    expect(mine.json().webhooks.map((w: { id: string }) => w.id)).toEqual([scoped.id]);
    const other = await h.req({ method: 'GET', url: `/webhooks/${full.id}`, headers: { 'x-api-key': linkedinKey } });
    expect(other.statusCode).toBe(404);
    const threadsKey = await h.createKey(u, 'threads');
    const denied = await h.req({
      method: 'GET',
      url: `/webhooks/${scoped.id}/deliveries`,
      headers: { 'x-api-key': threadsKey },
    });
    expect(denied.statusCode).toBe(404);
    const all = await h.req({ method: 'GET', url: '/webhooks', headers: asUser(u) });
    expect(all.json().webhooks).toHaveLength(2);
    expect(await deliveries(h, u, scoped.id)).toHaveLength(1);
  });
});
