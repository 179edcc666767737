// Scheduling tests: a clock the test moves, and the worker driven tick by tick (no sleeps).
import type { Harness, TestUser } from '../helpers/harness.ts';
import { asUser } from '../helpers/harness.ts';

export class TestClock {
  now: Date;
  constructor(iso: string) {
    this.now = new Date(iso);
  }
  readonly fn = () => new Date(this.now.getTime());
  advance(ms: number): void {
    this.now = new Date(this.now.getTime() + ms);
  }
}

export const HOUR = 3_600_000;

export async function schedule(h: Harness, u: TestUser, payload: Record<string, unknown>) {
  return h.req({ method: 'POST', url: '/unified/scheduled-posts', headers: asUser(u), payload: { post_type: 'text', ...payload } });
}

export async function get(h: Harness, u: TestUser, id: string) {
  const res = await h.req({ method: 'GET', url: '/unified/scheduled-posts?limit=100', headers: asUser(u) });
  return (res.json().data.scheduled_posts as { scheduled_post_id: string; status: string; [k: string]: unknown }[]).find((r) => r.scheduled_post_id === id);
}

export const action = (h: Harness, u: TestUser, id: string, what: 'publish-now' | 'move-to-draft') =>
  h.req({ method: 'POST', url: `/unified/scheduled-posts/${id}/${what}`, headers: asUser(u) });

export const patch = (h: Harness, u: TestUser, id: string, payload: Record<string, unknown>) =>
  h.req({ method: 'PATCH', url: `/unified/scheduled-posts/${id}`, headers: asUser(u), payload });

export const cancel = (h: Harness, u: TestUser, id: string) => h.req({ method: 'DELETE', url: `/unified/scheduled-posts/${id}`, headers: asUser(u) });
