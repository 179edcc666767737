// GET /unified/posts/{id}/timeline and POST /unified/posts/{id}/retry: every attempt per network with its outcome,
// sanitized error and next retry; a retry sends only failed targets, once, and never a published one again.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';
import { schedule, TestClock } from '../scheduling/helpers.ts';
import { PlatformError } from '../../src/platforms/types.ts';

const script: Script = { calls: [], behaviour: {} };
const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
let u: TestUser;
let other: TestUser;

beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: clock.fn,
    overrides: { adapters: scriptedAdapters(script) },
    env: { HERALD_SCHEDULE_GRACE_SECONDS: '3600', HERALD_SCHEDULER_MAX_ATTEMPTS: '3' },
  });
  u = await h.signup();
  other = await h.signup();
  await connect(h, u, 'linkedin');
  await connect(h, u, 'threads');
});
afterAll(async () => h?.close());
beforeEach(() => {
  script.behaviour = {};
  script.calls.length = 0;
});

const fail = (platform: 'linkedin' | 'threads', kind: 'invalid_content' | 'transient', message: string) => {
  script.behaviour[platform] = async () => {
    throw new PlatformError(platform, kind, message, { status: kind === 'transient' ? 503 : 400 });
  };
};
const timeline = (id: string, who = u) =>
  h.req({ method: 'GET', url: `/unified/posts/${id}/timeline`, headers: asUser(who) });
const retry = (id: string, who = u) =>
  h.req({ method: 'POST', url: `/unified/posts/${id}/retry`, headers: asUser(who) });
async function lastPostId(): Promise<string> {
  const rows = await h.ctx.database.db.query.posts.findMany({
    orderBy: (p, { desc }) => [desc(p.createdAt)],
    limit: 1,
  });
  return rows[0]!.id;
}

describe('a post published now', () => {
  it('the timeline shows each attempt; a retry sends only the failed network, once', async () => {
    fail('threads', 'invalid_content', 'Text too spicy (token=abc123)');
    await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['linkedin', 'threads'], default_text: 'story' },
    });
    const id = await lastPostId();
    const first = await timeline(id);
    expect(first.statusCode, first.body).toBe(200);
    const byNet = (t: { targets: { platform: string }[] }) =>
      Object.fromEntries(t.targets.map((x) => [x.platform, x])) as unknown as Record<
        string,
        Record<string, unknown> & { attempts: Record<string, unknown>[] }
      >;
    const t1 = byNet(first.json());
    expect(t1.linkedin!.state).toBe('published');
    expect(t1.threads!).toMatchObject({ state: 'failed', error_code: 'CONTENT_REJECTED', next_retry_at: null });
    expect(t1.threads!.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'failed', source: 'request', error_code: 'CONTENT_REJECTED' }),
    ]);
    expect(String(t1.threads!.error_message)).not.toContain('abc123');
    expect(first.json().events.map((e: { type: string }) => e.type)).toEqual(['post.partially_published']);

    // The network accepts it now: one retry, of threads alone.
    script.behaviour = {};
    script.calls.length = 0;
    const r1 = await retry(id);
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r1.json()).toMatchObject({ success: true, retried: 1 });
    expect(script.calls.map((c) => c.platform)).toEqual(['threads']);
    // Idempotent: nothing failed any more, nothing is sent.
    const r2 = await retry(id);
    expect(r2.json()).toMatchObject({ retried: 0 });
    expect(script.calls).toHaveLength(1);

    const after = byNet((await timeline(id)).json());
    expect(after.threads!.attempts.map((a) => [a.attempt, a.outcome, a.source])).toEqual([
      [1, 'failed', 'request'],
      [2, 'published', 'retry'],
    ]);
    expect(after.linkedin!.attempts).toHaveLength(1);
    const types = (await timeline(id)).json().events.map((e: { type: string }) => e.type);
    expect(types).toEqual(['post.partially_published', 'post.published']);
  });

  it('two retries at once send the failed target once', async () => {
    fail('linkedin', 'transient', 'Service Unavailable');
    await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['linkedin'], default_text: 'twice' },
    });
    const id = await lastPostId();
    script.behaviour = {};
    script.calls.length = 0;
    const [a, b] = await Promise.all([retry(id), retry(id)]);
    expect([a.json().retried, b.json().retried].sort()).toEqual([0, 1]);
    expect(script.calls).toHaveLength(1);
  });

  it('another workspace gets 404; an unknown id 404', async () => {
    const id = await lastPostId();
    expect((await timeline(id, other)).statusCode).toBe(404);
    expect((await retry(id, other)).statusCode).toBe(404);
    expect((await timeline('00000000-0000-4000-8000-000000000001')).statusCode).toBe(404);
  });
});

describe('a scheduled post', () => {
  it('shows the next retry while the worker waits, then a retry of the failed entry publishes it', async () => {
    fail('linkedin', 'transient', 'Upstream 500');
    const res = await schedule(h, u, {
      platforms: ['linkedin'],
      default_text: 'queued story',
      scheduled_time: new Date(clock.now.getTime() + 60_000).toISOString(),
    });
    const entry = res.json().scheduled[0].scheduled_post_id as string;
    clock.advance(60_000);
    await h.ctx.scheduleWorker.tick();
    const waiting = (await timeline(entry)).json();
    expect(waiting.queue[0]).toMatchObject({ status: 'publishing', attempts: 1 });
    expect(waiting.queue[0].next_retry_at).not.toBeNull();
    expect(waiting.targets[0]).toMatchObject({ state: 'failed', next_retry_at: waiting.queue[0].next_retry_at });
    expect(waiting.targets[0].attempts[0]).toMatchObject({ outcome: 'failed', source: 'worker' });
    // Still in its retry window: nothing failed for good, nothing to retry.
    expect((await retry(entry)).json()).toMatchObject({ retried: 0 });
    // The worker gives up after its last attempt.
    for (let i = 0; i < 3; i++) {
      clock.advance(3_600_000);
      await h.ctx.scheduleWorker.tick();
    }
    const failed = (await timeline(entry)).json();
    expect(failed.queue[0].status).toBe('failed');
    expect(failed.events.map((e: { type: string }) => e.type)).toContain('post.failed');
    script.behaviour = {};
    const r = await retry(entry);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ success: true, retried: 1 });
    const done = (await timeline(entry)).json();
    expect(done.queue[0].status).toBe('published');
    expect(done.events.map((e: { type: string }) => e.type).at(-1)).toBe('post.published');
  });
});
