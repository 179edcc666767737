// Requests that schedule honour Idempotency-Key (sequential and concurrent duplicates create one entry
// and spend one credit), and URL media is fetched once: at scheduling, never again at publishing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostLookup } from '../../src/media/safe-fetch.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { makeCert, startServer, type RunningServer } from '../media/helpers/test-server.ts';
import { jpeg } from '../media-routes/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';
import { HOUR, TestClock, get, patch } from './helpers.ts';

// media.test exists only through this resolver: nothing beyond loopback is contacted.
const lookup: HostLookup = async (name) => {
  if (name !== 'media.test') throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return [{ address: '127.0.0.1', family: 4 }];
};

const script: Script = { calls: [], behaviour: {} };
const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
let server: RunningServer;
let base: string;
let u: TestUser;

beforeAll(async () => {
  const image = await jpeg(800, 800);
  const cert = makeCert(['media.test']);
  server = await startServer((req, res) => {
    if (req.url?.startsWith('/img/'))
      return void res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': image.length }).end(image);
    res.writeHead(404).end('no');
  }, cert);
  base = `https://media.test:${server.port}`;
  h = await createHarness({
    sandbox: true,
    clock: clock.fn,
    env: { HERALD_FETCH_ALLOW_HOSTS: 'media.test' },
    overrides: { adapters: scriptedAdapters(script), media: { fetch: { lookup, ca: cert.cert } } },
  });
  u = await h.signup();
  for (const p of ['bluesky', 'threads', 'linkedin']) await connect(h, u, p);
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});

const inHours = (n: number) => new Date(clock.now.getTime() + n * HOUR).toISOString();
const usage = async (user: TestUser) =>
  (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(user) })).json().used_this_period;
const entries = async (user: TestUser) =>
  (await h.req({ method: 'GET', url: '/unified/scheduled-posts?limit=100', headers: asUser(user) })).json().data
    .scheduled_posts as Record<string, unknown>[];
const send = (user: TestUser, url: string, payload: object, key?: string) =>
  h.req({ method: 'POST', url, headers: { ...asUser(user), ...(key ? { 'idempotency-key': key } : {}) }, payload });
const fetches = (path: string) => server.requests.filter((r) => r === path).length;

/**
 * n requests at once, each held at `obj[method]` until all n got there, so they all pass that point
 * (the key look-up before validation, the draft read) before any of them commits, on PGlite as well.
 */
async function together<R>(n: number, obj: object, method: string, run: () => Promise<R>): Promise<R[]> {
  const o = obj as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const original = o[method]!;
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((r) => (release = r));
  o[method] = async (...args: unknown[]) => {
    const out = await original.apply(obj, args);
    if (++arrived === n) release();
    if (arrived <= n) await all;
    return out;
  };
  try {
    return await Promise.all(Array.from({ length: n }, run));
  } finally {
    delete o[method];
  }
}

describe('Idempotency-Key on requests that schedule', () => {
  it('POST /unified/scheduled-posts: a retry replays the answer, another body is 422, keys are per workspace', async () => {
    const me = await h.signup();
    const other = await h.signup();
    const body = {
      post_type: 'text',
      platforms: ['bluesky', 'threads'],
      default_text: 'once',
      scheduled_time: inHours(2),
    };
    const first = await send(me, '/unified/scheduled-posts', body, 'sched-1');
    expect(first.statusCode, first.body).toBe(200);
    clock.advance(60_000);
    const again = await send(me, '/unified/scheduled-posts', body, 'sched-1');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await entries(me)).toHaveLength(2);
    expect((await usage(me)).scheduled_posts).toBe(2);
    const changed = await send(me, '/unified/scheduled-posts', { ...body, default_text: 'twice' }, 'sched-1');
    expect(changed.statusCode).toBe(422);
    expect(changed.json().detail).toBe('This Idempotency-Key was already used with a different request body.');
    // The same key on another route is another request.
    const { post_type: _t, ...postBody } = body;
    expect((await send(me, '/unified/post/text', postBody, 'sched-1')).statusCode).toBe(422);
    const theirs = await send(other, '/unified/scheduled-posts', body, 'sched-1');
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().scheduled[0].scheduled_post_id).not.toBe(first.json().scheduled[0].scheduled_post_id);
    expect(await entries(other)).toHaveLength(2);
    expect(await entries(me)).toHaveLength(2);
  });

  it('the post routes: scheduled-only and mixed requests are replayed without a second entry, credit or publish', async () => {
    const me = await h.signup();
    await connect(h, me, 'bluesky');
    const scheduled = { platforms: ['threads'], default_text: 'later', scheduled_time: inHours(3) };
    const first = await send(me, '/unified/post/text', scheduled, 'post-1');
    expect(first.json()).toMatchObject({ success: true, message: 'Scheduled', scheduled: [{ platform: 'threads' }] });
    expect((await send(me, '/unified/post/text', scheduled, 'post-1')).json()).toEqual(first.json());
    expect((await send(me, '/unified/post/text', { ...scheduled, default_text: 'other' }, 'post-1')).statusCode).toBe(
      422,
    );

    script.calls.length = 0;
    const mixed = {
      platforms: ['threads', 'bluesky'],
      default_text: 'half now',
      threads: { scheduled_time: inHours(1) },
    };
    const one = await send(me, '/unified/post/text', mixed, 'post-2');
    expect(one.json()).toMatchObject({
      message: 'Scheduled; other posts completed',
      scheduled: [{ platform: 'threads' }],
      results: [{ platform: 'bluesky', success: true }],
    });
    const two = await send(me, '/unified/post/text', mixed, 'post-2');
    expect(two.statusCode).toBe(200);
    expect(two.json()).toEqual(one.json());
    expect(script.calls.filter((c) => c.platform === 'bluesky')).toHaveLength(1);
    expect(await entries(me)).toHaveLength(2);
    expect(await usage(me)).toMatchObject({ scheduled_posts: 2, posts: 1 });
  });

  it('concurrent duplicates create exactly one entry and spend one credit', async () => {
    const me = await h.signup();
    const body = { post_type: 'text', platforms: ['threads'], default_text: 'racing', scheduled_time: inHours(4) };
    const ledger = h.ctx.publishing.ledger;
    const racers = await together(6, ledger, 'findByKey', () => send(me, '/unified/scheduled-posts', body, 'race-1'));
    for (const r of racers) expect(r.statusCode, r.body).toBe(200);
    const ids = new Set(racers.map((r) => r.json().scheduled[0].scheduled_post_id));
    expect(ids.size).toBe(1);
    const { post_type: _t, ...postBody } = body;
    const viaPost = await together(6, ledger, 'findByKey', () =>
      send(me, '/unified/post/text', { ...postBody, default_text: 'racing too' }, 'race-2'),
    );
    for (const r of viaPost) expect(r.statusCode, r.body).toBe(200);
    expect(new Set(viaPost.map((r) => r.json().scheduled[0].scheduled_post_id)).size).toBe(1);
    expect(await entries(me)).toHaveLength(2);
    expect((await usage(me)).scheduled_posts).toBe(2);
  });

  it('POST /unified/drafts/{id}/schedule: replayed after the draft is gone; concurrent schedules of a draft make one entry', async () => {
    const me = await h.signup();
    const draft = async (text: string) =>
      (await send(me, '/unified/drafts', { post_type: 'text', platforms: ['threads'], default_text: text })).json()
        .drafts[0].draft_id as string;
    const d1 = await draft('draft one');
    const first = await send(me, `/unified/drafts/${d1}/schedule`, { scheduled_time: inHours(5) }, 'draft-1');
    expect(first.json()).toMatchObject({ success: true, draft_id: d1, scheduled: [{ platform: 'threads' }] });
    const again = await send(me, `/unified/drafts/${d1}/schedule`, { scheduled_time: inHours(5) }, 'draft-1');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(
      (await send(me, `/unified/drafts/${d1}/schedule`, { scheduled_time: inHours(6) }, 'draft-1')).statusCode,
    ).toBe(422);
    expect((await send(me, `/unified/drafts/${d1}/schedule`, { scheduled_time: inHours(5) })).statusCode).toBe(404);

    const d2 = await draft('draft two');
    const withKey = await together(4, h.ctx.publishing.ledger, 'findByKey', () =>
      send(me, `/unified/drafts/${d2}/schedule`, { scheduled_time: inHours(5) }, 'draft-2'),
    );
    expect(withKey.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(withKey.map((r) => r.json().scheduled[0].scheduled_post_id)).size).toBe(1);
    // Without a key the draft itself is the guard: it leaves the drafts in the transaction that schedules it.
    const d3 = await draft('draft three');
    const noKey = await together(4, h.ctx.drafts, 'get', () =>
      send(me, `/unified/drafts/${d3}/schedule`, { scheduled_time: inHours(5) }),
    );
    expect(noKey.map((r) => r.statusCode).sort()).toEqual([200, 404, 404, 404]);
    expect(await entries(me)).toHaveLength(3);
    expect((await usage(me)).scheduled_posts).toBe(3);
  });
});

describe('URL media of scheduled posts', () => {
  const publishDue = async () => {
    clock.advance(2 * HOUR);
    await h.ctx.scheduleWorker.tick();
  };

  it('is fetched once: stored as the library id beside the URL, and published from the library', async () => {
    const url = `${base}/img/once.jpg`;
    const payload = {
      platforms: ['threads'],
      default_text: 'with a picture',
      default_image_url: url,
      scheduled_time: inHours(1),
    };
    const res = await send(u, '/unified/post/image', payload, 'img-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(fetches('/img/once.jpg')).toBe(1);
    // A retry with the key is answered before any validation: no second download either.
    expect((await send(u, '/unified/post/image', payload, 'img-1')).json()).toEqual(res.json());
    expect(fetches('/img/once.jpg')).toBe(1);
    const id = res.json().scheduled[0].scheduled_post_id;
    const row = (await get(h, u, id))!;
    const postData = row.post_data as Record<string, string>;
    expect(postData).toMatchObject({
      default_image_url: url,
      default_image_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const mediaId = postData.default_image_id!;
    expect((await h.req({ method: 'GET', url: `/media/${mediaId}`, headers: asUser(u) })).statusCode).toBe(200);

    script.calls.length = 0;
    await publishDue();
    expect((await get(h, u, id))!.status).toBe('published');
    expect(script.calls.map((c) => [c.platform, c.req.media.map((m) => m.id)])).toEqual([['threads', [mediaId]]]);
    expect(fetches('/img/once.jpg')).toBe(1);
  });

  it('a request that schedules one network and publishes another fetches the URL once for both', async () => {
    script.calls.length = 0;
    const res = await send(u, '/unified/post/image', {
      platforms: ['threads', 'linkedin'],
      default_image_url: `${base}/img/mixed.jpg`,
      threads: { scheduled_time: inHours(1) },
    });
    expect(res.json(), res.body).toMatchObject({
      scheduled: [{ platform: 'threads' }],
      results: [{ platform: 'linkedin', success: true }],
    });
    expect(fetches('/img/mixed.jpg')).toBe(1);
    await publishDue();
    expect((await get(h, u, res.json().scheduled[0].scheduled_post_id))!.status).toBe('published');
    const [now, later] = [
      script.calls.find((c) => c.platform === 'linkedin')!,
      script.calls.find((c) => c.platform === 'threads')!,
    ];
    expect(later.req.media[0]!.id).toBe(now.req.media[0]!.id);
    expect(fetches('/img/mixed.jpg')).toBe(1);
  });

  it('override fields and fields that take an id or a URL store the id; POST /unified/scheduled-posts too', async () => {
    const res = await send(u, '/unified/scheduled-posts', {
      post_type: 'image',
      platforms: ['threads', 'linkedin'],
      default_image_url: `${base}/img/default.jpg`,
      threads: { threads_image_url: `${base}/img/threads.jpg` },
      linkedin: { linkedin_image_url: `${base}/img/li.jpg` },
      scheduled_time: inHours(1),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [threads, linkedin] = ['threads', 'linkedin'].map(
      (p) => res.json().data.scheduled_posts.find((r: { platform: string }) => r.platform === p).post_data,
    );
    expect(threads.threads).toEqual({
      threads_image_url: `${base}/img/threads.jpg`,
      threads_image_id: expect.any(String),
    });
    expect(linkedin.linkedin).toEqual({
      linkedin_image_url: `${base}/img/li.jpg`,
      linkedin_image_id: expect.any(String),
    });
    // The default image was used by neither network, so it was neither fetched nor given an id.
    expect(fetches('/img/default.jpg')).toBe(0);
    expect(threads.default_image_id).toBeUndefined();
    script.calls.length = 0;
    await publishDue();
    expect(Object.fromEntries(script.calls.map((c) => [c.platform, c.req.media[0]!.id]))).toEqual({
      threads: threads.threads.threads_image_id,
      linkedin: linkedin.linkedin.linkedin_image_id,
    });
    expect([fetches('/img/threads.jpg'), fetches('/img/li.jpg')]).toEqual([1, 1]);
  });

  it('PATCH with a new URL imports it once and stores its id instead of the old one', async () => {
    const created = await send(u, '/unified/post/image', {
      platforms: ['threads'],
      default_image_url: `${base}/img/old.jpg`,
      scheduled_time: inHours(1),
    });
    const id = created.json().scheduled[0].scheduled_post_id;
    const oldId = ((await get(h, u, id))!.post_data as Record<string, string>).default_image_id;
    const res = await patch(h, u, id, { post_data: { default_image_url: `${base}/img/new.jpg` } });
    expect(res.statusCode, res.body).toBe(200);
    const postData = res.json().data.scheduled_posts[0].post_data;
    expect(postData).toMatchObject({ default_image_url: `${base}/img/new.jpg`, default_image_id: expect.any(String) });
    expect(postData.default_image_id).not.toBe(oldId);
    expect(fetches('/img/new.jpg')).toBe(1);
    // An edit of the text alone keeps the stored media and downloads nothing.
    expect(
      (await patch(h, u, id, { post_data: { default_text: 'new words' } })).json().data.scheduled_posts[0].post_data
        .default_image_id,
    ).toBe(postData.default_image_id);
    script.calls.length = 0;
    await publishDue();
    expect(script.calls.map((c) => c.req.media[0]!.id)).toEqual([postData.default_image_id]);
    expect([fetches('/img/old.jpg'), fetches('/img/new.jpg')]).toEqual([1, 1]);
  });

  it('a scheduled post whose library media was deleted fails with a clear reason instead of fetching again', async () => {
    const res = await send(u, '/unified/post/image', {
      platforms: ['threads'],
      default_image_url: `${base}/img/deleted.jpg`,
      scheduled_time: inHours(1),
    });
    const id = res.json().scheduled[0].scheduled_post_id;
    const mediaId = ((await get(h, u, id))!.post_data as Record<string, string>).default_image_id;
    expect((await h.req({ method: 'DELETE', url: `/media/${mediaId}`, headers: asUser(u) })).statusCode).toBe(200);
    await publishDue();
    expect(await get(h, u, id)).toMatchObject({ status: 'failed', error_message: `Media not found: ${mediaId}` });
    expect(fetches('/img/deleted.jpg')).toBe(1);
  });
});
