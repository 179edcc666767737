// Feed suites' shared steps: a harness whose fetches may reach the loopback feed server (HERALD_FETCH_ALLOW_HOSTS,
// as the webhook suites allow their receivers) with the background poll off (tests poll through the API), and feeds
// made through the API.
import { expect } from 'vitest';
import { asUser, createHarness, type Harness, type HarnessOptions, type TestUser } from '../helpers/harness.ts';

export const FEED_ENV = { HERALD_FETCH_ALLOW_HOSTS: '127.0.0.1', HERALD_FEED_POLL_SECONDS: '0' };

export function feedHarness(opts: HarnessOptions = {}): Promise<Harness> {
  return createHarness({ ...opts, env: { ...FEED_ENV, ...opts.env } });
}

export interface FeedWire {
  id: string;
  url: string;
  networks: string[];
  mode: string;
  paused: boolean;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  failures: number;
  items?: { key: string; outcome: string; detail: string | null; refs: Record<string, unknown>[] }[];
}

export async function createFeed(h: Harness, u: TestUser, body: Record<string, unknown>): Promise<FeedWire> {
  const res = await h.req({ method: 'POST', url: '/unified/feeds', headers: asUser(u), payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as FeedWire;
}

export async function pollFeed(h: Harness, u: TestUser, id: string) {
  const res = await h.req({ method: 'POST', url: `/unified/feeds/${id}/poll`, headers: asUser(u) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { status: string; seen: number; posted: number; failed: number; error?: string };
}

export async function getFeed(h: Harness, u: TestUser, id: string): Promise<FeedWire> {
  const res = await h.req({ method: 'GET', url: `/unified/feeds/${id}`, headers: asUser(u) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as FeedWire;
}

export async function draftsOf(h: Harness, u: TestUser) {
  const res = await h.req({ method: 'GET', url: '/unified/drafts', headers: asUser(u) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { id: string; platform: string; default_text: string | null; status: string }[] }).data;
}
