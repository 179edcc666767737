// From the change to the receiver: a post published through the API (the LinkedIn simulator over HTTP) writes
// post.published in its transaction, and the worker delivers it, signed, to the workspace's endpoint and to an
// endpoint of a LinkedIn-scoped key; one of a Threads-scoped key receives nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { createEndpoint, deliveries, settled, webhookHarness } from './helpers.ts';
import { Receiver, verify } from './receiver.ts';

let h: Harness;
let u: TestUser;
let r: Receiver;

beforeAll(async () => {
  h = await webhookHarness({ sandbox: true, clock: () => new Date() });
  u = await h.signup();
  await connect(h, u, 'linkedin');
  r = await new Receiver().start();
}, 60_000);
afterAll(async () => {
  await h?.close();
  await r?.close();
});

describe('a published post', () => {
  it('reaches the endpoints that want it, signed', async () => {
    const all = await createEndpoint(h, asUser(u), { url: `${r.url}/all`, event_types: ['post.published'] });
    const li = await createEndpoint(h, { 'x-api-key': await h.createKey(u, 'linkedin') }, { url: `${r.url}/li` });
    const th = await createEndpoint(h, { 'x-api-key': await h.createKey(u, 'threads') }, { url: `${r.url}/th` });
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['linkedin'], default_text: 'Webhooks, end to end' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [d] = await settled(h, u, all.id);
    await settled(h, u, li.id);
    expect(d).toMatchObject({ status: 'succeeded', event_type: 'post.published' });
    const got = r.received.find((x) => x.path === '/all')!;
    const body = verify(all.secret, got) as { type: string; platform: string; data: { targets: unknown[] } };
    expect(body).toMatchObject({ type: 'post.published', platform: 'linkedin' });
    expect(body.data.targets).toHaveLength(1);
    verify(li.secret, r.received.find((x) => x.path === '/li')!);
    expect(await deliveries(h, u, th.id)).toEqual([]);
  });
});
