// Scheduled posts through the real adapters to the simulators: one post per scheduled post, counted in
// the simulators' state (two worker processes on PostgreSQL: two-workers.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, TestUser } from '../helpers/harness.ts';
import { linkedinOnSimulators, linkedinPosts, makeDue, schedule } from './helpers.ts';

let h: Harness;
let u: TestUser;
beforeAll(async () => {
  ({ h, u } = await linkedinOnSimulators());
});
afterAll(async () => h?.close());
const soon = () => new Date(Date.now() + 60_000).toISOString();

describe('scheduled posts on the simulators', () => {
  it('publishes a scheduled LinkedIn post exactly once', async () => {
    const before = (await linkedinPosts(h)).length;
    const res = await schedule(h, u, {
      platforms: ['linkedin'],
      default_text: `Scheduled e2e ${Date.now()}`,
      scheduled_time: soon(),
    });
    const id = res.json().scheduled[0].scheduled_post_id as string;
    await makeDue(h, [id]);
    await h.ctx.scheduleWorker.tick();
    await h.ctx.scheduleWorker.tick();
    expect((await h.ctx.scheduling.store.byId(id))!.status).toBe('published');
    expect((await linkedinPosts(h)).length - before).toBe(1);
  });
});
