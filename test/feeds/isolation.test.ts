// Feeds stay inside their workspace and their key's networks: another workspace's feed is never shown, changed or
// polled, and a network-scoped key follows and sees only feeds posting to its networks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, type Harness } from '../helpers/harness.ts';
import { createFeed, feedHarness } from './helpers.ts';
import { FeedServer, items, rss } from './server.ts';

let h: Harness;
let srv: FeedServer;

beforeAll(async () => {
  h = await feedHarness();
  srv = await new FeedServer().start();
  srv.docs.set('/feed.xml', { body: rss(items(2)) });
});
afterAll(async () => {
  await h?.close();
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
