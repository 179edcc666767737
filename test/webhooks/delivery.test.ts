// Webhook deliveries end to end: events written to the outbox reach a real HTTP receiver on loopback, signed per the
// Standard Webhooks spec and verified with the `standardwebhooks` package as a receiver would; retries (fast schedule),
// 410 Gone, redirects, timeouts, Retry-After, secret rotation, redelivery and recovery, as the delivery log shows them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { poll, until } from '../helpers/poll.ts';
import { createEndpoint, deliveries, emit, settled, webhookHarness } from './helpers.ts';
import { Receiver, verify } from './receiver.ts';

let h: Harness;
let u: TestUser;
let offsetMs = 0;
const receivers: Receiver[] = [];

beforeAll(async () => {
  h = await webhookHarness({ clock: () => new Date(Date.now() + offsetMs) });
  u = await h.signup();
});
afterAll(async () => {
  await h?.close();
  for (const r of receivers) await r.close();
});

async function receiver(): Promise<Receiver> {
  const r = await new Receiver().start();
  receivers.push(r);
  return r;
}

const published = (n: number) => ({
  post_id: crypto.randomUUID(),
  post_type: 'text',
  scheduled_post_id: null,
  error_message: null,
  targets: [
    {
      target_id: crypto.randomUUID(),
      platform: 'linkedin',
      platform_user_id: 'u1',
      state: 'published',
      platform_post_id: `urn:li:share:${n}`,
      permalink: null,
      error_code: null,
      error_message: null,
      attempts: 1,
    },
  ],
});

describe('endpoints', () => {
  it('shows the signing secret once, never again, and refuses private addresses and unknown event types', async () => {
    const r = await receiver();
    const made = await createEndpoint(h, asUser(u), {
      url: `${r.url}/hook`,
      description: 'CRM',
      event_types: ['post.published'],
    });
    const one = await h.req({ method: 'GET', url: `/webhooks/${made.id}`, headers: asUser(u) });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ url: `${r.url}/hook`, description: 'CRM', event_types: ['post.published'] });
    expect(one.body).not.toContain(made.secret);
    const list = await h.req({ method: 'GET', url: '/webhooks', headers: asUser(u) });
    expect(list.body).not.toContain(made.secret);
    expect(list.json().event_types).toContain('webhook.disabled');

    for (const url of ['https://10.1.2.3/hook', 'http://example.com/hook', 'https://user:pw@example.com/x']) {
      const res = await h.req({ method: 'POST', url: '/webhooks', headers: asUser(u), payload: { url } });
      expect(res.statusCode, url).toBe(422);
    }
    const bad = await h.req({
      method: 'POST',
      url: '/webhooks',
      headers: asUser(u),
      payload: { url: `${r.url}/x`, event_types: ['post.nope'] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('post.nope');

    const patched = await h.req({
      method: 'PATCH',
      url: `/webhooks/${made.id}`,
      headers: asUser(u),
      payload: { enabled: false, description: 'off' },
    });
    expect(patched.json()).toMatchObject({ enabled: false, description: 'off' });
    const gone = await h.req({ method: 'DELETE', url: `/webhooks/${made.id}`, headers: asUser(u) });
    expect(gone.statusCode).toBe(200);
    expect((await h.req({ method: 'GET', url: `/webhooks/${made.id}`, headers: asUser(u) })).statusCode).toBe(404);
  });
});

describe('deliveries', () => {
  it('delivers an outbox event, signed, with the event as GET /events shows it', async () => {
    const r = await receiver();
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/a`, event_types: ['post.published'] });
    await emit(h, u.workspaceId, 'post.failed', published(0));
    await emit(h, u.workspaceId, 'post.published', published(1));
    const [d] = await settled(h, u, ep.id);
    expect(d).toMatchObject({ status: 'succeeded', attempts: 1, response_status: 200, response_body: 'ok' });
    expect(d!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(r.received).toHaveLength(1);
    const body = verify(ep.secret, r.received[0]!);
    expect(r.received[0]!.headers['webhook-id']).toBe(d!.id);
    const events = await h.req({ method: 'GET', url: '/events?type=post.published', headers: asUser(u) });
    expect(events.statusCode, events.body).toBe(200);
    expect(body).toEqual(events.json().events[0]);
    expect(body.type).toBe('post.published');
  });

  it('retries failures on the schedule under one webhook-id, then succeeds', async () => {
    const r = await receiver();
    r.script.push({ status: 500, body: 'boom' }, { status: 503 });
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/b` });
    await emit(h, u.workspaceId, 'post.published', published(2));
    const [d] = await poll(
      () => deliveries(h, u, ep.id),
      (l) => l[0]?.status === 'succeeded',
    );
    expect(d!.attempts).toBe(3);
    expect(d!.attempt_log.map((a) => [a.response_status, a.succeeded])).toEqual([
      [500, false],
      [503, false],
      [200, true],
    ]);
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set([d!.id]));
    for (const x of r.received) verify(ep.secret, x);
    // A later success ended the failure streak.
    const row = await h.ctx.webhooks.endpoints.byId(ep.id);
    expect(row!.failingSince).toBeNull();
  });

  it('gives up after the last retry, and recover resends what failed since a time', async () => {
    const r = await receiver();
    r.fallback = { status: 500 };
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/c` });
    const before = new Date(Date.now() + offsetMs - 1000).toISOString();
    await emit(h, u.workspaceId, 'post.published', published(3));
    const [d] = await settled(h, u, ep.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 4, next_attempt_at: null, response_status: 500 });
    r.fallback = { status: 204 };
    const rec = await h.req({
      method: 'POST',
      url: `/webhooks/${ep.id}/recover`,
      headers: asUser(u),
      payload: { since: before },
    });
    expect(rec.statusCode, rec.body).toBe(202);
    expect(rec.json()).toEqual({ recovered: 1 });
    const [again] = await poll(
      () => deliveries(h, u, ep.id),
      (l) => l[0]?.status === 'succeeded',
    );
    expect(again!.id).toBe(d!.id);
    expect(r.byId(d!.id)).toHaveLength(5);
  });

  it('410 Gone disables the endpoint, records webhook.disabled and mails the owners', async () => {
    const r = await receiver();
    r.fallback = { status: 410 };
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/gone` });
    await emit(h, u.workspaceId, 'post.published', published(4));
    const [d] = await settled(h, u, ep.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, response_status: 410 });
    const one = (await h.req({ method: 'GET', url: `/webhooks/${ep.id}`, headers: asUser(u) })).json();
    expect(one).toMatchObject({ enabled: false, disabled_reason: 'the endpoint answered 410 Gone' });
    const events = await h.req({ method: 'GET', url: '/events?type=webhook.disabled', headers: asUser(u) });
    expect(events.json().events.map((e: { data: { webhook_id: string } }) => e.data.webhook_id)).toContain(ep.id);
    await until(async () => (await mails(u.email)).some((m) => m.kind === 'webhook_disabled'));
    // Nothing more goes to it.
    await emit(h, u.workspaceId, 'post.published', published(5));
    const other = await receiver();
    const watcher = await createEndpoint(h, asUser(u), { url: `${other.url}/w`, event_types: ['post.published'] });
    await emit(h, u.workspaceId, 'post.published', published(6));
    await settled(h, u, watcher.id);
    expect(await deliveries(h, u, ep.id)).toHaveLength(1);
    expect(r.received).toHaveLength(1);
  });

  it('a redirect is a failed attempt and is not followed', async () => {
    const r = await receiver();
    r.script.push({ status: 302, headers: { location: `${r.url}/elsewhere` } });
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/redirect` });
    await emit(h, u.workspaceId, 'post.published', published(7));
    const [d] = await poll(
      () => deliveries(h, u, ep.id),
      (l) => l[0]?.status === 'succeeded',
    );
    expect(d!.attempt_log[0]).toMatchObject({ response_status: 302, succeeded: false });
    expect(d!.attempt_log[0]!.error).toContain('redirect');
    expect(r.received.map((x) => x.path)).toEqual(['/redirect', '/redirect']);
  });

  it('an answer slower than the timeout is a failed attempt', async () => {
    const r = await receiver();
    r.script.push('hang');
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/slow` });
    await emit(h, u.workspaceId, 'post.published', published(8));
    const [d] = await poll(
      () => deliveries(h, u, ep.id),
      (l) => l[0]?.status === 'succeeded',
    );
    expect(d!.attempt_log[0]).toMatchObject({ response_status: null, succeeded: false });
    expect(d!.attempt_log[0]!.error).toContain('no answer within 1 s');
    expect(r.byId(d!.id)).toHaveLength(2);
  });

  it('honours Retry-After', async () => {
    const r = await receiver();
    r.script.push({ status: 429, headers: { 'retry-after': '3600' } });
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/later` });
    await emit(h, u.workspaceId, 'post.published', published(9));
    const [d] = await poll(
      () => deliveries(h, u, ep.id),
      (l) => l[0]?.attempts === 1 && l[0].status === 'pending',
    );
    const wait = Date.parse(d!.next_attempt_at!) - Date.parse(d!.last_attempt_at!);
    expect(wait).toBeGreaterThanOrEqual(3600_000);
    // The schedule alone would have retried after 0.05 s: the receiver is left alone meanwhile.
    await h.ctx.webhookWorker.drain();
    expect(r.received).toHaveLength(1);
  });

  it('redelivers a delivery under the same webhook-id, and sends a test event on request', async () => {
    const r = await receiver();
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/again`, event_types: ['post.published'] });
    const test = await h.req({ method: 'POST', url: `/webhooks/${ep.id}/test`, headers: asUser(u) });
    expect(test.statusCode, test.body).toBe(202);
    const [d] = await settled(h, u, ep.id);
    expect(d).toMatchObject({ event_type: 'webhook.test', status: 'succeeded' });
    expect(verify(ep.secret, r.received[0]!)).toMatchObject({ type: 'webhook.test', data: { webhook_id: ep.id } });
    const res = await h.req({ method: 'POST', url: `/webhooks/deliveries/${d!.id}/redeliver`, headers: asUser(u) });
    expect(res.statusCode, res.body).toBe(202);
    await until(() => r.byId(d!.id).length === 2);
    const [first, second] = r.byId(d!.id);
    expect(second!.body).toBe(first!.body);
    verify(ep.secret, second!);
  });

  it('fails for days → disabled with webhook.disabled; enabling it again starts over', async () => {
    const r = await receiver();
    r.fallback = { status: 500 };
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/down` });
    await emit(h, u.workspaceId, 'post.published', published(10));
    await settled(h, u, ep.id);
    expect((await h.ctx.webhooks.endpoints.byId(ep.id))!.failingSince).not.toBeNull();
    // Five days later, still failing.
    offsetMs += 5 * 24 * 3600_000 + 60_000;
    try {
      await emit(h, u.workspaceId, 'post.published', published(11));
      await until(async () => (await h.ctx.webhooks.endpoints.byId(ep.id))!.enabled === false);
      const row = await h.ctx.webhooks.endpoints.byId(ep.id);
      expect(row!.disabledReason).toMatch(/^every delivery failed since /);
      const on = await h.req({
        method: 'PATCH',
        url: `/webhooks/${ep.id}`,
        headers: asUser(u),
        payload: { enabled: true },
      });
      expect(on.json()).toMatchObject({ enabled: true, disabled_reason: null });
    } finally {
      offsetMs = 0;
    }
  });
});

describe('a secret that no longer decrypts', () => {
  it('is a failed attempt saying so, not a delivery stuck in its claim', async () => {
    const r = await receiver();
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/sealed`, event_types: ['post.published'] });
    const { webhookEndpoints } = await import('../../src/db/schema-webhooks.ts');
    const { eq } = await import('../../src/db/orm.ts');
    await h.ctx.database.db
      .update(webhookEndpoints)
      .set({ secret: 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA' })
      .where(eq(webhookEndpoints.id, ep.id));
    await emit(h, u.workspaceId, 'post.published', published(14));
    const [d] = await settled(h, u, ep.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 4, response_status: null });
    expect(d!.error).toContain('cannot be decrypted');
    expect(r.received).toEqual([]);
  });
});

describe('secret rotation', () => {
  it('signs with the old and the new secret for 24 hours, then with the new one alone', async () => {
    const r = await receiver();
    const ep = await createEndpoint(h, asUser(u), { url: `${r.url}/rot`, event_types: ['post.published'] });
    const rot = await h.req({ method: 'POST', url: `/webhooks/${ep.id}/rotate-secret`, headers: asUser(u) });
    expect(rot.statusCode, rot.body).toBe(200);
    const fresh = rot.json().secret as string;
    expect(fresh).not.toBe(ep.secret);
    expect(Date.parse(rot.json().previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await emit(h, u.workspaceId, 'post.published', published(12));
    await settled(h, u, ep.id);
    const during = r.received[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    // A receiver holding either secret accepts it.
    verify(ep.secret, during);
    verify(fresh, during);

    offsetMs = 24 * 3600_000 + 60_000;
    try {
      await emit(h, u.workspaceId, 'post.published', published(13));
      await until(() => r.received.length === 2);
    } finally {
      offsetMs = 0;
    }
    const after = r.received[1]!;
    const sigs = after.headers['webhook-signature']!.split(' ');
    expect(sigs).toHaveLength(1);
    const at = new Date(Number(after.headers['webhook-timestamp']) * 1000);
    const id = after.headers['webhook-id']!;
    expect(sigs[0]).toBe(new Webhook(fresh).sign(id, at, after.body));
    expect(sigs[0]).not.toBe(new Webhook(ep.secret).sign(id, at, after.body));
  });
});

async function mails(to: string): Promise<{ kind: string; subject: string }[]> {
  const { mailOutbox } = await import('../../src/db/schema.ts');
  const { eq } = await import('../../src/db/orm.ts');
  return h.ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
}
