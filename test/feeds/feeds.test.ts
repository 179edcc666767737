// Following a feed end to end over real HTTP on loopback: the first poll remembers what is there (or posts it with
// backfill), later polls post only new items, once each even when two polls race, conditional requests get 304s,
// a failing feed keeps its last error and success visible and raises feed.failed, and the fetch keeps to its size
// limit. Each format Herald reads is followed the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, type Harness } from '../helpers/harness.ts';
import { createFeed, draftsOf, feedHarness, getFeed, pollFeed } from './helpers.ts';
import { atom, FeedServer, items, jsonFeed, rss } from './server.ts';

let h: Harness;
let srv: FeedServer;

beforeAll(async () => {
  h = await feedHarness({ env: { HERALD_FEED_MAX_BYTES: '20000' } });
  srv = await new FeedServer().start();
});
afterAll(async () => {
  await h?.close();
  await srv?.close();
});

describe('polling', () => {
  it('takes nothing old on the first poll, then makes drafts of new items once, from the template', async () => {
    const u = await h.signup();
    srv.docs.set('/blog.xml', { body: rss(items(3)) });
    const feed = await createFeed(h, u, {
      url: `${srv.url}/blog.xml`,
      networks: ['threads', 'bluesky'],
      template: '{title}: {summary} {link}',
    });
    expect(feed).toMatchObject({ mode: 'draft', paused: false, last_success_at: null, failures: 0 });

    expect(await pollFeed(h, u, feed.id)).toMatchObject({ status: 'ok', seen: 3, posted: 0 });
    expect(await draftsOf(h, u)).toEqual([]);

    srv.docs.set('/blog.xml', { body: rss(items(5)) });
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ status: 'ok', seen: 2, posted: 2, failed: 0 });
    const drafts = await draftsOf(h, u);
    expect(drafts.map((d) => [d.platform, d.default_text]).sort()).toEqual(
      [
        ['bluesky', 'Post 4: Summary of post 4 https://blog.example/p/4'],
        ['bluesky', 'Post 5: Summary of post 5 https://blog.example/p/5'],
        ['threads', 'Post 4: Summary of post 4 https://blog.example/p/4'],
        ['threads', 'Post 5: Summary of post 5 https://blog.example/p/5'],
      ].sort(),
    );
    const seen = await getFeed(h, u, feed.id);
    expect(seen.last_success_at).not.toBeNull();
    expect(
      seen
        .items!.filter((i) => i.outcome === 'skipped')
        .map((i) => i.key)
        .sort(),
    ).toEqual(['post-1', 'post-2', 'post-3']);
    expect(seen.items!.filter((i) => i.outcome === 'posted')).toHaveLength(2);
    expect(
      seen
        .items!.find((i) => i.key === 'post-5')!
        .refs.map((r) => r.platform)
        .sort(),
    ).toEqual(['bluesky', 'threads']);

    // The same items again are not posted again.
    srv.docs.set('/blog.xml', { body: rss(items(5)), validators: false });
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ status: 'ok', seen: 0, posted: 0 });
    expect(await draftsOf(h, u)).toHaveLength(4);
  });

  it('posts what is already there on the first poll with backfill', async () => {
    const u = await h.signup();
    srv.docs.set('/backfill.json', { body: jsonFeed(items(2)), type: 'application/feed+json' });
    const feed = await createFeed(h, u, { url: `${srv.url}/backfill.json`, networks: ['threads'], backfill: true });
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ seen: 2, posted: 2 });
    expect((await draftsOf(h, u)).map((d) => d.default_text).sort()).toEqual([
      'Post 1\n\nhttps://blog.example/p/1',
      'Post 2\n\nhttps://blog.example/p/2',
    ]);
  });

  it('reads Atom the same way', async () => {
    const u = await h.signup();
    srv.docs.set('/atom.xml', { body: atom(items(1)), type: 'application/atom+xml' });
    const feed = await createFeed(h, u, { url: `${srv.url}/atom.xml`, networks: ['bluesky'], backfill: true });
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ seen: 1, posted: 1 });
  });

  it('never makes two posts of one item when two polls race', async () => {
    const u = await h.signup();
    srv.docs.set('/race.xml', { body: rss(items(4)), validators: false });
    const made = await createFeed(h, u, { url: `${srv.url}/race.xml`, networks: ['threads'], backfill: true });
    const row = (await h.ctx.feeds.store.byId(u.workspaceId, made.id))!;
    const results = await Promise.all([h.ctx.feeds.poll(row), h.ctx.feeds.poll(row), h.ctx.feeds.poll(row)]);
    expect(results.reduce((n, r) => n + r.posted, 0)).toBe(4);
    expect(await draftsOf(h, u)).toHaveLength(4);
  });

  it('sends the validators back and takes a 304 as nothing new', async () => {
    const u = await h.signup();
    srv.docs.set('/cond.xml', { body: rss(items(2)) });
    const feed = await createFeed(h, u, { url: `${srv.url}/cond.xml`, networks: ['threads'] });
    await pollFeed(h, u, feed.id);
    const first = srv.log.filter((r) => r.path === '/cond.xml').at(-1)!;
    expect(first.headers['if-none-match']).toBeUndefined();
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ status: 'not_modified', seen: 0 });
    const second = srv.log.filter((r) => r.path === '/cond.xml').at(-1)!;
    expect(second.status).toBe(304);
    expect(second.headers['if-none-match']).toMatch(/^"[0-9a-f]+"$/);
    expect(second.headers['if-modified-since']).toBe('Mon, 23 Nov 2026 10:00:00 GMT');
  });

  it('schedules posts in schedule mode, at the delay after the item was found', async () => {
    const u = await h.signup();
    srv.docs.set('/sched.xml', { body: rss(items(1)) });
    const feed = await createFeed(h, u, {
      url: `${srv.url}/sched.xml`,
      networks: ['threads'],
      mode: 'schedule',
      schedule: { delay_minutes: 90 },
      backfill: true,
    });
    const before = Date.now();
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ posted: 1 });
    const [item] = (await getFeed(h, u, feed.id)).items!;
    const ref = item!.refs[0] as { scheduled_post_id: string; scheduled_time: string };
    expect(Date.parse(ref.scheduled_time)).toBeGreaterThanOrEqual(before + 90 * 60_000 - 1000);
    const res = await h.req({ method: 'GET', url: '/unified/scheduled-posts', headers: asUser(u) });
    expect(res.statusCode, res.body).toBe(200);
    const listed = JSON.stringify(res.json());
    expect(listed).toContain(ref.scheduled_post_id);
    expect(listed).toContain('Post 1');
  });
});

describe('queue mode', () => {
  it("puts each new item in the queue's next free slot, in order", async () => {
    const u = await h.signup();
    const days = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
    const made = await h.req({
      method: 'POST',
      url: '/unified/queues',
      headers: asUser(u),
      payload: { name: 'blog', time_zone: 'UTC', slots: days.map((day) => ({ day, time: '08:00' })) },
    });
    expect(made.statusCode, made.body).toBe(201);
    srv.docs.set('/queued.xml', { body: rss(items(2)) });
    const feed = await createFeed(h, u, {
      url: `${srv.url}/queued.xml`,
      networks: ['threads'],
      mode: 'queue',
      queue: 'blog',
      backfill: true,
    });
    expect(feed).toMatchObject({ mode: 'queue', queue: 'blog' });
    const free = await h.req({ method: 'GET', url: '/unified/queue/blog/next-slots?count=2', headers: asUser(u) });
    const slots = (free.json().data.slots as { slot_time: string }[]).map((s) => s.slot_time);
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ seen: 2, posted: 2, failed: 0 });
    const got = await getFeed(h, u, feed.id);
    const at = (key: string) =>
      (got.items!.find((i) => i.key === key)!.refs[0] as { scheduled_time: string }).scheduled_time;
    // Posted oldest first: post 1 takes the first slot, post 2 the next.
    expect([at('post-1'), at('post-2')]).toEqual(slots);
    const queue = await h.req({ method: 'GET', url: '/unified/queues/blog', headers: asUser(u) });
    expect(queue.json().data.queue.queued_posts).toBe(2);

    // A paused queue: the new item fails with why, and the poll goes on.
    await h.req({ method: 'PATCH', url: '/unified/queues/blog', headers: asUser(u), payload: { paused: true } });
    srv.docs.set('/queued.xml', { body: rss(items(3)), validators: false });
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ posted: 0, failed: 1 });
    const third = (await getFeed(h, u, feed.id)).items!.find((i) => i.key === 'post-3')!;
    expect(third).toMatchObject({
      outcome: 'failed',
      detail: "Queue 'blog' is paused: resume it, or give the post a time.",
    });
  });
});

describe('failures', () => {
  it('keeps the last error beside the last success and raises feed.failed once per streak', async () => {
    const u = await h.signup();
    srv.docs.set('/flaky.xml', { body: rss(items(1)) });
    const feed = await createFeed(h, u, { url: `${srv.url}/flaky.xml?token=s3cret`, networks: ['threads'] });
    await pollFeed(h, u, feed.id);
    srv.docs.set('/flaky.xml', { body: '', status: 500 });
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ status: 'failed', error: 'the feed answered HTTP 500' });
    await pollFeed(h, u, feed.id);
    const got = await getFeed(h, u, feed.id);
    expect(got).toMatchObject({ last_error: 'the feed answered HTTP 500', failures: 2 });
    expect(got.last_success_at).not.toBeNull();
    expect(got.last_error_at).not.toBeNull();

    const res = await h.req({ method: 'GET', url: '/events?type=feed.failed', headers: asUser(u) });
    expect(res.statusCode, res.body).toBe(200);
    const events = (res.json() as { events: { type: string; data: Record<string, unknown> }[] }).events;
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      feed_id: feed.id,
      url: `${srv.url}/flaky.xml`,
      error: 'the feed answered HTTP 500',
      last_success_at: got.last_success_at,
    });
    expect(JSON.stringify(events)).not.toContain('s3cret');

    // A success ends the streak; the error stays visible.
    srv.docs.set('/flaky.xml', { body: rss(items(1)) });
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ status: 'not_modified' });
    expect(await getFeed(h, u, feed.id)).toMatchObject({ failures: 0, last_error: 'the feed answered HTTP 500' });
  });

  it('refuses a document that is not a feed, and one over the size limit', async () => {
    const u = await h.signup();
    srv.docs.set('/page.html', { body: '<html><body>not a feed</body></html>', type: 'text/html' });
    const page = await createFeed(h, u, { url: `${srv.url}/page.html`, networks: ['threads'] });
    expect((await pollFeed(h, u, page.id)).error).toMatch(/^not a feed this server reads/);

    srv.docs.set('/huge.xml', { body: rss(items(200)) });
    const huge = await createFeed(h, u, { url: `${srv.url}/huge.xml`, networks: ['threads'] });
    expect(await pollFeed(h, u, huge.id)).toMatchObject({
      status: 'failed',
      error: 'the feed is larger than 20000 bytes',
    });
  });

  it('records an item whose post is refused, and goes on with the others', async () => {
    const u = await h.signup();
    const long = { ...items(1, 1)[0]!, title: 'x'.repeat(400) };
    srv.docs.set('/long.xml', { body: rss([long, ...items(1, 2)]) });
    const feed = await createFeed(h, u, { url: `${srv.url}/long.xml`, networks: ['bluesky'], backfill: true });
    expect(await pollFeed(h, u, feed.id)).toMatchObject({ seen: 2, posted: 1, failed: 1 });
    const bad = (await getFeed(h, u, feed.id)).items!.find((i) => i.key === 'post-1')!;
    expect(bad.outcome).toBe('failed');
    expect(bad.detail).toMatch(/bluesky/i);
  });
});

describe('settings', () => {
  it('refuses an unknown queue in queue mode, unknown networks, and a URL that is not http(s)', async () => {
    const u = await h.signup();
    const post = (payload: Record<string, unknown>) =>
      h.req({ method: 'POST', url: '/unified/feeds', headers: asUser(u), payload });
    const queue = await post({ url: 'https://blog.example/feed', networks: ['threads'], mode: 'queue', queue: 'nope' });
    expect(queue.statusCode).toBe(422);
    expect(queue.body).toContain("Queue 'nope' not found.");
    expect((await post({ url: 'https://blog.example/feed', networks: ['myspace'] })).statusCode).toBe(422);
    expect((await post({ url: 'ftp://blog.example/feed', networks: ['threads'] })).statusCode).toBe(422);
  });

  it('pauses, changes and deletes a feed; a paused feed is not polled by the round', async () => {
    const u = await h.signup();
    srv.docs.set('/paused.xml', { body: rss(items(1)) });
    const feed = await createFeed(h, u, { url: `${srv.url}/paused.xml`, networks: ['threads'] });
    const patched = await h.req({
      method: 'PATCH',
      url: `/unified/feeds/${feed.id}`,
      headers: asUser(u),
      payload: { paused: true, template: '{title}', networks: ['linkedin', 'threads'] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ paused: true, template: '{title}', networks: ['linkedin', 'threads'] });
    const before = srv.log.filter((r) => r.path === '/paused.xml').length;
    await h.ctx.feedPoller.round();
    expect(srv.log.filter((r) => r.path === '/paused.xml').length).toBe(before);

    const del = await h.req({ method: 'DELETE', url: `/unified/feeds/${feed.id}`, headers: asUser(u) });
    expect(del.statusCode).toBe(200);
    expect((await h.req({ method: 'GET', url: `/unified/feeds/${feed.id}`, headers: asUser(u) })).statusCode).toBe(404);
  });
});
