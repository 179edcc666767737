// Every fetch of a feed keeps to the outbound address policy: a feed whose name resolves to a private address is
// refused when saved, and refused again at poll time when a name that was public then points at a private address
// (a DNS rebinding); a loopback server is out of reach unless the operator trusts it (HERALD_FETCH_ALLOW_HOSTS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { createFeed, pollFeed } from './helpers.ts';
import { FeedServer, items, rss } from './server.ts';

let strict: Harness;
let srv: FeedServer;
let address = '93.184.216.34';

beforeAll(async () => {
  strict = await createHarness({
    env: { HERALD_FEED_POLL_SECONDS: '0' },
    overrides: { platformLookup: async (host) => (host === 'feeds.test' ? [{ address, family: 4 }] : []) },
  });
  srv = await new FeedServer().start();
  srv.docs.set('/feed.xml', { body: rss(items(2)) });
});
afterAll(async () => {
  await strict?.close();
  await srv?.close();
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
