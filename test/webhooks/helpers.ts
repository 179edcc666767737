// Webhook suites' shared steps: a harness whose deliveries may reach loopback receivers (HERALD_FETCH_ALLOW_HOSTS, as
// other features' tests allow their local servers) with a fast retry schedule, endpoints made through the API, and
// events written to the outbox the way Herald's services write them.
import { expect } from 'vitest';
import { recordEvent, type EventType } from '../../src/events/index.ts';
import { createHarness, type Harness, type HarnessOptions, type TestUser, asUser } from '../helpers/harness.ts';
import { poll } from '../helpers/poll.ts';

export const FAST_ENV = {
  HERALD_FETCH_ALLOW_HOSTS: '127.0.0.1',
  HERALD_WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05',
  HERALD_WEBHOOK_POLL_MS: '50',
  HERALD_WEBHOOK_TIMEOUT_SECONDS: '1',
};

export async function webhookHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const h = await createHarness({ ...opts, env: { ...FAST_ENV, ...opts.env } });
  h.ctx.webhookWorker.start();
  return h;
}

export interface MadeEndpoint {
  id: string;
  secret: string;
  url: string;
}

export async function createEndpoint(
  h: Harness,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<MadeEndpoint> {
  const res = await h.req({ method: 'POST', url: '/webhooks', headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  const made = res.json() as MadeEndpoint;
  expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return made;
}

/** An event in the outbox, written in a transaction as a service writes it. */
export async function emit(h: Harness, workspaceId: string, type: EventType, data: Record<string, unknown>) {
  await h.ctx.database.db.transaction((tx) => recordEvent(tx, workspaceId, type, data as never));
}

export interface DeliveryWire {
  id: string;
  status: string;
  attempts: number;
  event_type: string;
  event_id: string | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  attempt_log: { attempt: number; response_status: number | null; error: string | null; succeeded: boolean }[];
}

export async function deliveries(h: Harness, u: TestUser, endpointId: string): Promise<DeliveryWire[]> {
  const res = await h.req({ method: 'GET', url: `/webhooks/${endpointId}/deliveries`, headers: asUser(u) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { deliveries: DeliveryWire[] }).deliveries;
}

/** Waits until the endpoint's only delivery is settled (succeeded or failed), and returns it. */
export async function settled(h: Harness, u: TestUser, endpointId: string, count = 1): Promise<DeliveryWire[]> {
  return poll(
    () => deliveries(h, u, endpointId),
    (list) => list.length === count && list.every((d) => d.status === 'succeeded' || d.status === 'failed'),
  );
}
