// The posting-queue tools through the invoker every surface uses: get_queue and add_to_queue take slots as the REST
// routes do, stay inside the caller's workspace, respect the approval setting, and are off the GPT Actions surface.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { toolsFor } from '../../src/tools/index.ts';
import { TestClock } from '../scheduling/helpers.ts';
import { toolRunner } from './helpers.ts';

// A Friday, 10:00 UTC: the default queue's next slots are 12:00 and 17:00 today.
const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
const { call, fails, outcome } = toolRunner(() => h);
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: clock.fn });
});
afterAll(async () => h?.close());

describe('queue tools', () => {
  it('get_queue previews the free slots; add_to_queue takes them in order, or the first with share_next', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const before = await call(u, 'get_queue', { count: 2 });
    expect(before).toMatchObject({
      success: true,
      queue: { name: 'default', queued_posts: 0, paused: false },
      next_slots: [{ slot_time: '2026-11-20T12:00:00.000Z' }, { slot_time: '2026-11-20T17:00:00.000Z' }],
    });
    const one = await call(u, 'add_to_queue', { platforms: 'bluesky', default_text: 'first' });
    expect(one).toMatchObject({ success: true, message: 'Queued', queue: { slot_time: '2026-11-20T12:00:00.000Z' } });
    const two = await call(u, 'add_to_queue', { platforms: ['bluesky'], default_text: 'second' });
    expect(two.queue).toMatchObject({ slot_time: '2026-11-20T17:00:00.000Z' });
    const urgent = await call(u, 'add_to_queue', { platforms: ['bluesky'], default_text: 'urgent', share_next: true });
    expect(urgent.queue).toMatchObject({ slot_time: '2026-11-20T12:00:00.000Z' });
    const after = await call(u, 'get_queue', { count: 1 });
    expect(after).toMatchObject({
      queue: { queued_posts: 3 },
      next_slots: [{ slot_time: '2026-11-23T12:00:00.000Z' }],
    });
    const all = await call(u, 'get_queue', { all: true });
    expect((all.queues as { name: string }[]).map((q) => q.name)).toEqual(['default']);
  });

  it('get_queue names the feeds in queue mode whose items take the queue’s slots (the URL without its query)', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const made = await h.req({ method: 'POST', url: '/unified/queues', headers: asUser(u), payload: { name: 'blog' } });
    expect(made.statusCode, made.body).toBe(201);
    const feed = (url: string, mode: string, queue: string | null) =>
      h.ctx.feeds.store.insert({
        workspaceId: u.workspaceId,
        url,
        networks: ['bluesky'],
        mode,
        queue,
        template: '{title}',
      });
    const blog = await feed('https://blog.example/feed.xml?token=secret', 'queue', 'blog');
    const news = await feed('https://news.example/rss', 'queue', null);
    await feed('https://drafts.example/rss', 'draft', null);
    const one = await call(u, 'get_queue', { queue: 'blog' });
    expect(one.feeds).toEqual([
      { id: blog.id, url: 'https://blog.example/feed.xml', networks: ['bluesky'], paused: false },
    ]);
    expect((await call(u, 'get_queue', {})).feeds).toEqual([
      { id: news.id, url: 'https://news.example/rss', networks: ['bluesky'], paused: false },
    ]);
    const all = await call(u, 'get_queue', { all: true });
    expect((all.feeds as { url: string; queue: string }[]).map((f) => [f.url, f.queue]).sort()).toEqual([
      ['https://blog.example/feed.xml', 'blog'],
      ['https://news.example/rss', 'default'],
    ]);
  });

  it("another workspace's queue is not found; the caller's own default queue is its own", async () => {
    const u = await h.signup();
    const other = await h.signup();
    await connect(h, other, 'bluesky');
    const made = await h.req({
      method: 'POST',
      url: '/unified/queues',
      headers: asUser(u),
      payload: { name: 'private', slots: [{ day: 'monday', time: '08:00' }] },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect((await fails(other, 'get_queue', { queue: 'private' })).code).toBe('not_found');
    expect(
      (await fails(other, 'add_to_queue', { queue: 'private', platforms: 'bluesky', default_text: 'x' })).code,
    ).toBe('not_found');
    const failure = await outcome(other, 'get_queue', { queue: 'private' });
    expect(failure).toMatchObject({ ok: false });
  });

  it('is refused while the workspace holds tool posts for approval', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await h.ctx.database.db.execute(
      `update workspaces set tool_posts_need_approval = true where id = '${u.workspaceId}'` as never,
    );
    const err = await fails(u, 'add_to_queue', { platforms: 'bluesky', default_text: 'needs approval' });
    expect(err.code).toBe('forbidden');
    expect((await call(u, 'get_queue', {})).queue).toMatchObject({ queued_posts: 0 });
  });

  it('is listed on MCP and for the agent, not on GPT Actions', () => {
    const names = (s: 'mcp' | 'gpt' | 'agent') => toolsFor(s, h.ctx).map((t) => t.name);
    for (const n of ['add_to_queue', 'get_queue']) {
      expect(names('mcp')).toContain(n);
      expect(names('agent')).toContain(n);
      expect(names('gpt')).not.toContain(n);
    }
  });
});
