// Scheduled posts through the real adapters to the simulators: one post per scheduled post, counted in
// the simulators' state (two worker processes on PostgreSQL: two-workers.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { schedule } from './helpers.ts';

let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date(), env: { HERALD_RATE_LIMIT_MAX: '1000000' } });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0, maxRequests: 200 }),
  });
  u = await h.signup();
  await connect(h, u, 'linkedin');
});
afterAll(async () => h?.close());

const linkedinPosts = async () =>
  (
    (await (await fetch(`${h.url}/sandbox/_state`)).json()) as Record<
      string,
      { posts: { id: string; text?: string; commentary?: string }[] }
    >
  ).linkedin!.posts;
const soon = () => new Date(Date.now() + 60_000).toISOString();
/** Time passing, without waiting: the posts' time is moved into the past. */
const makeDue = (ids: string[]) =>
  h.ctx.database.db.execute(
    `update scheduled_posts set scheduled_time = now() - interval '1 second' where id in (${ids.map((i) => `'${i}'`).join(',')})` as never,
  );

describe('scheduled posts on the simulators', () => {
  it('publishes a scheduled LinkedIn post exactly once', async () => {
    const before = (await linkedinPosts()).length;
    const res = await schedule(h, u, {
      platforms: ['linkedin'],
      default_text: `Scheduled e2e ${Date.now()}`,
      scheduled_time: soon(),
    });
    const id = res.json().scheduled[0].scheduled_post_id as string;
    await makeDue([id]);
    await h.ctx.scheduleWorker.tick();
    await h.ctx.scheduleWorker.tick();
    expect((await h.ctx.scheduling.store.byId(id))!.status).toBe('published');
    expect((await linkedinPosts()).length - before).toBe(1);
  });
});
