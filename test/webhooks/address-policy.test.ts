// Every delivery goes through the outbound address policy when its connection opens: an endpoint whose name
// resolved to a public address when it was saved, and to a private one later, is refused at send time (a DNS
// rebinding), and the refusal is a failed attempt in the log, without the address it resolved to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { poll } from '../helpers/poll.ts';
import { createEndpoint, deliveries, emit, webhookHarness } from './helpers.ts';

let address = '93.184.216.34';
let h: Harness;
let u: TestUser;

beforeAll(async () => {
  h = await webhookHarness({
    overrides: { platformLookup: async (host) => (host === 'hooks.test' ? [{ address, family: 4 }] : []) },
  });
  u = await h.signup();
});
afterAll(async () => h?.close());

describe('the outbound address policy', () => {
  it('refuses a private address when saving, and when a saved name resolves to one at send time', async () => {
    address = '10.0.0.7';
    const refused = await h.req({
      method: 'POST',
      url: '/webhooks',
      headers: asUser(u),
      payload: { url: 'https://hooks.test/in' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).not.toContain('10.0.0.7');

    address = '93.184.216.34';
    const ep = await createEndpoint(h, asUser(u), { url: 'https://hooks.test/in' });
    address = '127.0.0.1';
    await emit(h, u.workspaceId, 'credits.low', {
      credit_type: 'posts',
      used: 9,
      limit: 10,
      remaining: 1,
      period_start: '2026-11-01T00:00:00.000Z',
    });
    const [d] = await poll(
      () => deliveries(h, u, ep.id),
      (l) => (l[0]?.attempts ?? 0) >= 1,
    );
    expect(d!.attempt_log[0]).toMatchObject({ response_status: null, succeeded: false });
    expect(d!.attempt_log[0]!.error).toContain('refused by the outbound address policy');
    expect(d!.attempt_log[0]!.error).not.toContain('127.0.0.1');
  });
});
