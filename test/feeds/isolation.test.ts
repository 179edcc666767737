// Feeds stay inside their workspace and their key's networks, and every fetch keeps to the outbound address policy:
// a feed whose name resolves to a private address is refused when saved, and refused again at poll time when a name
// that was public then points at a private address (a DNS rebinding); a loopback server is out of reach unless the
// operator trusts it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { createFeed, feedHarness, pollFeed } from './helpers.ts';
import { FeedServer, items, rss } from './server.ts';

let h: Harness;
let strict: Harness;
let srv: FeedServer;
let address = '93.184.216.34';

beforeAll(async () => {
  h = await feedHarness();
  strict = await createHarness({
    env: { HERALD_FEED_POLL_SECONDS: '0' },
    overrides: { platformLookup: async (host) => (host === 'feeds.test' ? [{ address, family: 4 }] : []) },
  });
  srv = await new FeedServer().start();
  srv.docs.set('/feed.xml', { body: rss(items(2)) });
});
afterAll(async () => {
  await h?.close();
  await strict?.close();
  await srv?.close();
});

describe('workspace isolation and key scopes', () => {
  it("never shows, changes or polls another workspace's feed", async () => {
    const a = await h.signup();
    const b = await h.signup();
    const feed = await createFeed(h, a, { url: `${srv.url}/feed.xml`, networks: ['threads'] });
    const keyB = await h.createKey(b);
    for (const headers of [asUser(b), { 'x-api-key': keyB }]) {
      const list = await h.req({ method: 'GET', url: '/unified/feeds', headers });
      expect(list.json()).toEqual({ feeds: [] });
      for (const [method, url, payload] of [
        ['GET', `/unified/feeds/${feed.id}`],
        ['PATCH', `/unified/feeds/${feed.id}`, { paused: true }],
        ['DELETE', `/unified/feeds/${feed.id}`],
        ['POST', `/unified/feeds/${feed.id}/poll`],
      ] as const) {
        const res = await h.req({ method, url, headers, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    const still = await h.req({ method: 'GET', url: `/unified/feeds/${feed.id}`, headers: asUser(a) });
    expect(still.json()).toMatchObject({ paused: false });
    expect(srv.log).toHaveLength(0);
  });

  it('a network-scoped key follows feeds for its networks only, and sees only those', async () => {
    const u = await h.signup();
    const threadsKey = await h.createKey(u, 'threads');
    const mine = await h.req({
      method: 'POST',
      url: '/unified/feeds',
      headers: { 'x-api-key': threadsKey },
      payload: { url: `${srv.url}/feed.xml`, networks: ['threads'] },
    });
    expect(mine.statusCode, mine.body).toBe(201);
    const refused = await h.req({
      method: 'POST',
      url: '/unified/feeds',
      headers: { 'x-api-key': threadsKey },
      payload: { url: `${srv.url}/feed.xml`, networks: ['threads', 'linkedin'] },
    });
    expect(refused.statusCode).toBe(403);
    const other = await createFeed(h, u, { url: `${srv.url}/feed.xml`, networks: ['linkedin'] });
    const list = await h.req({ method: 'GET', url: '/unified/feeds', headers: { 'x-api-key': threadsKey } });
    expect(list.json().feeds.map((f: { id: string }) => f.id)).toEqual([mine.json().id]);
    const hidden = await h.req({
      method: 'GET',
      url: `/unified/feeds/${other.id}`,
      headers: { 'x-api-key': threadsKey },
    });
    expect(hidden.statusCode).toBe(404);
    const all = await h.req({ method: 'GET', url: '/unified/feeds', headers: asUser(u) });
    expect(all.json().feeds).toHaveLength(2);
  });
});

describe('the outbound address policy', () => {
  it('refuses a private address when saving, and a name that turns private at poll time', async () => {
    const u = await strict.signup();
    address = '10.0.0.7';
    const refused = await strict.req({
      method: 'POST',
      url: '/unified/feeds',
      headers: asUser(u),
      payload: { url: 'https://feeds.test/rss', networks: ['threads'] },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('The feed URL is refused');
    expect(refused.body).not.toContain('10.0.0.7');

    address = '93.184.216.34';
    const feed = await createFeed(strict, u, { url: 'https://feeds.test/rss', networks: ['threads'] });
    address = '127.0.0.1';
    const polled = await pollFeed(strict, u, feed.id);
    expect(polled.status).toBe('failed');
    expect(polled.error).toContain('refused by the outbound address policy');
    expect(polled.error).not.toContain('127.0.0.1');
  });

  it('does not reach a loopback server the operator did not trust', async () => {
    const u = await strict.signup();
    const before = srv.log.length;
    const res = await strict.req({
      method: 'POST',
      url: '/unified/feeds',
      headers: asUser(u),
      payload: { url: `${srv.url}/feed.xml`, networks: ['threads'] },
    });
    expect(res.statusCode).toBe(422);
    const https = await strict.req({
      method: 'POST',
      url: '/unified/feeds',
      headers: asUser(u),
      payload: { url: `https://127.0.0.1:${new URL(srv.url).port}/feed.xml`, networks: ['threads'] },
    });
    expect(https.statusCode).toBe(422);
    expect(srv.log.length).toBe(before);
  });
});
