// A ninth network from one folder (test/ninth-network): Herald built with it validates, plans, publishes
// through its simulator and schedules it, with no other file knowing about it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Networks, NETWORKS } from '../../src/platforms/registry.ts';
import { planTargets } from '../../src/publishing/plan.ts';
import { SIMULATORS } from '../../src/sandbox/simulators.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { network, QUILL, QUILL_PASSWORD } from '../ninth-network/network.ts';
import { quillSimulator } from '../ninth-network/simulator.ts';
import { HOUR, TestClock } from '../scheduling/helpers.ts';
import { imageMedia } from './helpers.ts';

const quill = quillSimulator();
const clock = new TestClock('2026-05-01T09:00:00Z');
let h: Harness;
let u: TestUser;

const post = (type: string, payload: Record<string, unknown>) =>
  h.req({ method: 'POST', url: `/unified/post/${type}`, headers: asUser(u), payload });

beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: clock.fn,
    overrides: { networks: [...NETWORKS, network], simulators: [...SIMULATORS, quill] },
  });
  u = await h.signup();
});
afterAll(() => h?.close());

describe('a ninth network defined in one folder', () => {
  it('plans from its contract: override text and options, the route table, the caption limit', () => {
    const networks = new Networks([...NETWORKS, network]);
    const [t] = planTargets({
      networks,
      postType: 'text',
      body: { platforms: [QUILL], default_text: 'Hello', quill: { quill_text: 'Hi Quill', spoiler: 'cw' } },
    });
    expect(t).toMatchObject({ platform: QUILL, text: 'Hi Quill', media: [], options: { spoiler: 'cw' }, draft: false });
    expect(() => planTargets({ networks, postType: 'video', body: { platforms: [QUILL] } })).toThrow(
      /does not support video posting/,
    );
    expect(() =>
      planTargets({ networks, postType: 'text', body: { platforms: [QUILL], default_text: 'x'.repeat(51) } }),
    ).toThrow(/limit for quill is 50\. Received 51 characters in default_text/);
    // The built-in registry does not know it.
    expect(() =>
      planTargets({ networks: new Networks(), postType: 'text', body: { platforms: [QUILL], default_text: 'Hi' } }),
    ).toThrow(/Invalid or unsupported platform: 'quill'/);
  });

  it('connects with an app password through the generic connect route', async () => {
    const bad = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: QUILL, handle: 'ada', app_password: 'hunter2' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0]).toMatchObject({
      loc: ['body', 'app_password'],
      msg: 'Quill app passwords start with quill-.',
    });
    const res = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: QUILL, handle: 'ada', app_password: QUILL_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().results.quill).toMatchObject({ success: true, message: 'Quill is connected as @ada.' });
    const status = await h.req({ method: 'GET', url: `/unified/oauth/token?platform=${QUILL}`, headers: asUser(u) });
    expect(status.json().results.quill.success).toBe(true);
  });

  it('validates its override: a good one publishes through its simulator, a bad one is a field-level 422', async () => {
    const bad = await post('text', { platforms: [QUILL], default_text: 'Hello', quill: { spoiler: 'x'.repeat(101) } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'quill', 'spoiler']);
    const tooLong = await post('text', {
      platforms: [QUILL],
      default_text: 'Hello',
      quill: { quill_text: 'y'.repeat(51) },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(quill.posts).toHaveLength(0);

    const res = await post('text', {
      platforms: [QUILL],
      default_text: 'Hello',
      quill: { quill_text: 'Hello, Quill', spoiler: 'birds' },
    });
    expect(res.statusCode).toBe(200);
    // One network: the interface answers with that network's post.
    expect(res.json()).toMatchObject({ success: true, post: { platform: QUILL } });
    expect(quill.posts).toEqual([{ id: res.json().post.post_id, text: 'Hello, Quill', media: [], spoiler: 'birds' }]);
  });

  it('checks media against its contract and publishes an image', async () => {
    const png = await imageMedia(h, u, { format: 'png' });
    const res = await post('image', { platforms: [QUILL], default_text: 'A picture', default_image_id: png });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, post: { platform: QUILL } });
    expect(quill.posts.at(-1)).toMatchObject({
      text: 'A picture',
      media: [expect.stringMatching(/^http.*\/storage\/.*photo\.png$/)],
    });
    const carousel = await post('carousel', { platforms: [QUILL], image_ids: [png, png] });
    expect(carousel.statusCode).toBe(400);
  });

  it('schedules: the worker publishes it when it is due', async () => {
    const at = new Date(clock.now.getTime() + HOUR).toISOString();
    const res = await h.req({
      method: 'POST',
      url: '/unified/scheduled-posts',
      headers: asUser(u),
      payload: {
        post_type: 'text',
        platforms: [QUILL],
        default_text: 'Later',
        quill: { spoiler: 'soon' },
        scheduled_time: at,
      },
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().scheduled[0].scheduled_post_id as string;
    await h.ctx.scheduleWorker.tick();
    expect((await h.ctx.scheduling.store.byId(id))!.status).toBe('scheduled');
    clock.advance(HOUR + 1000);
    await h.ctx.scheduleWorker.tick();
    expect((await h.ctx.scheduling.store.byId(id))!.status).toBe('published');
    expect(quill.posts.at(-1)).toMatchObject({ text: 'Later', spoiler: 'soon' });
  });
});
