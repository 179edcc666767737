// Posting queues over HTTP with a clock the test moves: slots in a time zone (DST with a fixed clock), the next free
// slot, racing requests, cancel with and without reflow, share next, pause and resume, and isolation between
// workspaces. Runs on PGlite and PostgreSQL (the db project).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';
import { get, TestClock } from './helpers.ts';

const script: Script = { calls: [], behaviour: {} };
// A Friday.
const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: clock.fn, overrides: { adapters: scriptedAdapters(script) } });
});
afterAll(async () => h?.close());

type Req = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: unknown };
const call = (u: TestUser, r: Req) => h.req({ ...r, headers: asUser(u) } as Parameters<Harness['req']>[0]);
const createQueue = (u: TestUser, payload: Record<string, unknown>) =>
  call(u, { method: 'POST', url: '/unified/queues', payload });
const add = (u: TestUser, queue: string, payload: Record<string, unknown> = {}) =>
  call(u, {
    method: 'POST',
    url: `/unified/queue/${queue}/posts`,
    payload: { post_type: 'text', platforms: ['bluesky'], default_text: 'queued', ...payload },
  });
const nextSlots = async (u: TestUser, queue: string, count = 5) => {
  const res = await call(u, { method: 'GET', url: `/unified/queue/${queue}/next-slots?count=${count}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.slots as { slot_time: string }[]).map((s) => s.slot_time);
};
/** A UTC queue with a slot every day at each of `times`. */
const daily = (times: string[]) =>
  ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].flatMap((day) =>
    times.map((time) => ({ day, time })),
  );
async function member(): Promise<TestUser> {
  const u = await h.signup();
  await connect(h, u, 'bluesky');
  return u;
}
const slotOf = async (u: TestUser, id: string) => (await get(h, u, id))?.scheduled_time;

// First: its worker ticks then publish only its own posts, not every queued post the other tests left due.
describe('pause', () => {
  it('holds the posts while paused, and moves those whose slot passed to the next free slots on resume', async () => {
    const u = await member();
    await createQueue(u, { name: 'p', time_zone: 'UTC', slots: daily(['11:00', '12:00']) });
    const a = (await add(u, 'p', { default_text: 'held a' })).json().scheduled[0].scheduled_post_id;
    const b = (await add(u, 'p', { default_text: 'held b' })).json().scheduled[0].scheduled_post_id;
    const paused = await call(u, { method: 'PATCH', url: '/unified/queues/p', payload: { paused: true } });
    expect(paused.json().data.queue).toMatchObject({ paused: true, paused_at: clock.now.toISOString() });
    const saved = clock.now;
    try {
      clock.now = new Date('2026-11-20T12:30:00Z');
      const held = () =>
        script.calls
          .map((x) => x.req.text)
          .filter((t) => t?.startsWith('held'))
          .sort();
      await h.ctx.scheduleWorker.tick();
      expect(held()).toEqual([]);
      expect((await get(h, u, a))!.status).toBe('scheduled');
      // A post added while paused is held too.
      const c = (await add(u, 'p', { default_text: 'held c' })).json();
      expect(c.queue.slot_time).toBe('2026-11-21T11:00:00.000Z');
      const resumed = await call(u, { method: 'PATCH', url: '/unified/queues/p', payload: { paused: false } });
      expect(resumed.statusCode, resumed.body).toBe(200);
      // a and b (11:00 and 12:00 today, passed) take the next free slots after c's, in their order.
      expect(await slotOf(u, a)).toBe('2026-11-21T12:00:00.000Z');
      expect(await slotOf(u, b)).toBe('2026-11-22T11:00:00.000Z');
      clock.now = new Date('2026-11-21T12:00:00Z');
      await h.ctx.scheduleWorker.tick();
      expect(held()).toEqual(['held a', 'held c']);
    } finally {
      clock.now = saved;
    }
  });
});

describe('queue CRUD', () => {
  it('has a default queue nobody created, creates, reads, changes and deletes named ones', async () => {
    const u = await member();
    const list = await call(u, { method: 'GET', url: '/unified/queues' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.queues).toEqual([
      expect.objectContaining({ name: 'default', time_zone: 'UTC', paused: false, created_at: null, queued_posts: 0 }),
    ]);
    expect(list.json().data.queues[0].slots).toHaveLength(15);

    const made = await createQueue(u, {
      name: 'evenings',
      time_zone: 'Europe/Paris',
      slots: [
        { day: 'tuesday', time: '18:30' },
        { day: 'monday', time: '18:30' },
      ],
      platforms: ['Bluesky'],
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.queue).toMatchObject({
      name: 'evenings',
      time_zone: 'Europe/Paris',
      time_zone_override: 'Europe/Paris',
      slots: [
        { day: 'monday', time: '18:30' },
        { day: 'tuesday', time: '18:30' },
      ],
      platforms: ['bluesky'],
    });
    expect((await createQueue(u, { name: 'evenings' })).statusCode).toBe(409);
    expect((await createQueue(u, { name: 'default' })).statusCode).toBe(409);
    expect((await createQueue(u, { name: 'Bad Name' })).statusCode).toBe(422);
    expect((await createQueue(u, { name: 'x', time_zone: 'Mars/Olympus' })).statusCode).toBe(422);
    expect((await createQueue(u, { name: 'y', platforms: ['myspace'] })).statusCode).toBe(400);
    expect((await createQueue(u, { name: 'z', slots: [{ day: 'monday', time: '25:00' }] })).statusCode).toBe(422);

    const changed = await call(u, {
      method: 'PATCH',
      url: '/unified/queues/evenings',
      payload: { time_zone: null, slots: [{ day: 'friday', time: '20:00' }] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.queue).toMatchObject({ time_zone: 'UTC', time_zone_override: null });
    expect(await nextSlots(u, 'evenings', 2)).toEqual(['2026-11-20T20:00:00.000Z', '2026-11-27T20:00:00.000Z']);
    // A queue limited to some networks refuses the others.
    expect((await add(u, 'evenings', { platforms: ['threads'] })).statusCode).toBe(422);

    expect((await call(u, { method: 'DELETE', url: '/unified/queues/default' })).statusCode).toBe(409);
    expect((await call(u, { method: 'DELETE', url: '/unified/queues/evenings' })).statusCode).toBe(200);
    expect((await call(u, { method: 'GET', url: '/unified/queues/evenings' })).statusCode).toBe(404);
    expect((await call(u, { method: 'GET', url: '/unified/queues/default' })).statusCode).toBe(200);
    expect((await add(u, 'nope')).statusCode).toBe(404);
  });

  it('refuses a time in the body: the queue picks it', async () => {
    const u = await member();
    expect((await add(u, 'default', { scheduled_time: '2026-12-01T10:00:00Z' })).statusCode).toBe(422);
    expect((await add(u, 'default', { bluesky: { scheduled_time: '2026-12-01T10:00:00Z' } })).statusCode).toBe(422);
  });
});

describe('slots in a time zone', () => {
  it('a 02:30 slot on the spring-forward day runs when the clocks jump; on the fall-back day it fires once', async () => {
    const saved = clock.now;
    try {
      const slots = [
        { day: 'sunday', time: '02:30' },
        { day: 'sunday', time: '09:00' },
      ];
      clock.now = new Date('2027-03-27T12:00:00Z');
      let u = await member();
      expect((await createQueue(u, { name: 'paris', time_zone: 'Europe/Paris', slots })).statusCode).toBe(201);
      // 02:30 does not exist on 28 March 2027 in Paris: 03:00 CEST (01:00Z), the first instant after the gap.
      expect(await nextSlots(u, 'paris', 4)).toEqual([
        '2027-03-28T01:00:00.000Z',
        '2027-03-28T07:00:00.000Z',
        '2027-04-04T00:30:00.000Z',
        '2027-04-04T07:00:00.000Z',
      ]);
      clock.now = new Date('2027-10-30T12:00:00Z');
      u = await member();
      expect((await createQueue(u, { name: 'paris', time_zone: 'Europe/Paris', slots })).statusCode).toBe(201);
      // 02:30 happens twice on 31 October 2027: the first (CEST, 00:30Z) only.
      expect(await nextSlots(u, 'paris', 3)).toEqual([
        '2027-10-31T00:30:00.000Z',
        '2027-10-31T08:00:00.000Z',
        '2027-11-07T01:30:00.000Z',
      ]);
      const res = await add(u, 'paris');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().queue).toEqual({
        name: 'paris',
        slot_time: '2027-10-31T00:30:00.000Z',
        slot_time_local: '2027-10-31T02:30:00+02:00',
        time_zone: 'Europe/Paris',
      });
    } finally {
      clock.now = saved;
    }
  });

  it("uses the workspace's time zone unless the queue has its own", async () => {
    const u = await member();
    await h.ctx.database.db.execute(
      `update workspaces set time_zone = 'America/New_York' where id = '${u.workspaceId}'` as never,
    );
    await createQueue(u, { name: 'ny', slots: [{ day: 'saturday', time: '08:00' }] });
    // Saturday 21 November 2026, 08:00 EST = 13:00Z.
    expect(await nextSlots(u, 'ny', 1)).toEqual(['2026-11-21T13:00:00.000Z']);
  });
});

describe('taking slots', () => {
  it('gives each post the next free slot, as an ordinary scheduled post', async () => {
    const u = await member();
    await createQueue(u, { name: 'q', time_zone: 'UTC', slots: daily(['09:00', '15:00']) });
    const first = await add(u, 'q', { default_text: 'one' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      message: 'Queued',
      scheduled: [
        { platform: 'bluesky', scheduled_post_id: expect.any(String), scheduled_time: '2026-11-20T15:00:00.000Z' },
      ],
      data: { scheduled_posts: [{ status: 'scheduled', scheduled_time: '2026-11-20T15:00:00.000Z' }], total: 1 },
      queue: { name: 'q', slot_time: '2026-11-20T15:00:00.000Z' },
    });
    const second = await add(u, 'q', { default_text: 'two' });
    expect(second.json().queue.slot_time).toBe('2026-11-21T09:00:00.000Z');
    const row = await get(h, u, second.json().scheduled[0].scheduled_post_id);
    expect(row).toMatchObject({ status: 'scheduled', post_data: { default_text: 'two' } });
    expect(await nextSlots(u, 'q', 2)).toEqual(['2026-11-21T15:00:00.000Z', '2026-11-22T09:00:00.000Z']);
    const q = await call(u, { method: 'GET', url: '/unified/queues/q' });
    expect(q.json().data.queue.queued_posts).toBe(2);
  });

  it('gives racing requests different slots', async () => {
    const u = await member();
    await createQueue(u, { name: 'race', time_zone: 'UTC', slots: daily(['09:00']) });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => add(u, 'race', { default_text: `r${i}` })));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const times = answers.map((a) => a.json().queue.slot_time as string).sort();
    expect(new Set(times).size).toBe(8);
    expect(times).toEqual(Array.from({ length: 8 }, (_, i) => new Date(Date.UTC(2026, 10, 21 + i, 9)).toISOString()));
  });

  // Deep queues: a daily 09:00 queue, slots taken straight in the store (no run recorded), and freed by day.
  const day = (i: number) => new Date(Date.UTC(2026, 10, 21 + i, 9));
  async function dailyQueue(u: TestUser, name: string) {
    await createQueue(u, { name, time_zone: 'UTC', slots: daily(['09:00']) });
    return (await h.ctx.queues.store.get(u.workspaceId, name))!;
  }
  /** Takes the first `n` days' slots without the service, and the slots at `also`. */
  const takeDays = (queueId: string, n: number, also: Date[] = []) =>
    h.ctx.database.db.transaction(async (tx) => {
      for (let i = 0; i < n; i++) await h.ctx.queues.store.take(tx as never, queueId, day(i));
      for (const at of also) await h.ctx.queues.store.take(tx as never, queueId, at);
    });
  /** Frees the first live slot after day `i - 1` (as a cancelled post frees its slot). */
  async function freeAfter(queueId: string, i: number) {
    const [slot] = await h.ctx.queues.store.takenAfter(h.ctx.database.db, queueId, day(i - 1), 1);
    expect(await h.ctx.queues.store.release(slot!.id)).toBe(true);
  }
  const iso = (days: number[]) => days.map((i) => day(i).toISOString());

  it('finds a freed slot far behind a long run of taken ones, and goes after the run once it is filled', async () => {
    const u = await member();
    const q = await dailyQueue(u, 'long');
    // 299 slots taken in a row, the 300th through the service (which records the run), then one freed in the middle.
    await takeDays(q.id, 299);
    await h.ctx.database.db.transaction((tx) => h.ctx.queues.takeSlots(tx as never, u.workspaceId, 'long', 1, 'UTC'));
    expect(await nextSlots(u, 'long', 2)).toEqual(iso([300, 301]));
    await freeAfter(q.id, 171);
    expect(await nextSlots(u, 'long', 3)).toEqual(iso([171, 300, 301]));
    expect((await add(u, 'long', { default_text: 'gap' })).json().queue.slot_time).toBe(day(171).toISOString());
    expect((await add(u, 'long', { default_text: 'end' })).json().queue.slot_time).toBe(day(300).toISOString());
    expect(await nextSlots(u, 'long', 1)).toEqual(iso([301]));
  });

  it('freeing a slot inside the recorded run keeps the run before it; the slots after it stay taken', async () => {
    const u = await member();
    const q = await dailyQueue(u, 'cut');
    await h.ctx.database.db.transaction((tx) => h.ctx.queues.takeSlots(tx as never, u.workspaceId, 'cut', 100, 'UTC'));
    expect((await h.ctx.queues.store.get(u.workspaceId, 'cut'))!.filledTo).toEqual(day(99));
    await freeAfter(q.id, 40);
    const cut = (await h.ctx.queues.store.get(u.workspaceId, 'cut'))!;
    expect([cut.filledFrom, cut.filledTo, cut.filledZone]).toEqual([day(0), day(39), 'UTC']);
    expect(await nextSlots(u, 'cut', 2)).toEqual(iso([40, 100]));
    // The first slot of the run freed: nothing of it is left.
    await freeAfter(q.id, 0);
    expect((await h.ctx.queues.store.get(u.workspaceId, 'cut'))!.filledTo).toBeNull();
    expect(await nextSlots(u, 'cut', 3)).toEqual(iso([0, 40, 100]));
  });

  it('finds gaps deep in a queue without a recorded run, past a slot taken off the grid', async () => {
    const u = await member();
    const q = await dailyQueue(u, 'deep');
    // 300 slots taken without the service (no run recorded) and one off the grid (10:00), then two freed far on.
    await takeDays(q.id, 300, [new Date(Date.UTC(2026, 10, 21 + 100, 10))]);
    expect(await nextSlots(u, 'deep', 2)).toEqual(iso([300, 301]));
    for (const i of [170, 250]) await freeAfter(q.id, i);
    expect(await nextSlots(u, 'deep', 1)).toEqual(iso([170]));
    expect(await nextSlots(u, 'deep', 4)).toEqual(iso([170, 250, 300, 301]));
    expect((await add(u, 'deep', { default_text: 'gap' })).json().queue.slot_time).toBe(day(170).toISOString());
    expect(await nextSlots(u, 'deep', 1)).toEqual(iso([250]));
    // 195 taken: past the first 66 (two asked for, and 64 more), the search's runs of 64 slots end with one of a
    // single slot, and the gap lies before it.
    const q2 = await dailyQueue(u, 'deep2');
    await takeDays(q2.id, 195);
    await freeAfter(q2.id, 150);
    expect(await nextSlots(u, 'deep2', 2)).toEqual(iso([150, 195]));
  });

  it('a post for two networks takes one slot', async () => {
    const u = await member();
    await connect(h, u, 'threads');
    await createQueue(u, { name: 'two', time_zone: 'UTC', slots: daily(['09:00']) });
    const res = await add(u, 'two', { platforms: ['bluesky', 'threads'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().scheduled.map((s: { scheduled_time: string }) => s.scheduled_time)).toEqual([
      '2026-11-21T09:00:00.000Z',
      '2026-11-21T09:00:00.000Z',
    ]);
    expect((await add(u, 'two')).json().queue.slot_time).toBe('2026-11-22T09:00:00.000Z');
  });
});

describe('removing and share next', () => {
  async function filled(n: number) {
    const u = await member();
    await createQueue(u, { name: 'q', time_zone: 'UTC', slots: daily(['09:00']) });
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push((await add(u, 'q', { default_text: `p${i}` })).json().scheduled[0].scheduled_post_id);
    return { u, ids };
  }
  const day = (d: number) => new Date(Date.UTC(2026, 10, 21 + d, 9)).toISOString();

  it('a removed post frees its slot and moves nothing; the next post fills the gap', async () => {
    const { u, ids } = await filled(3);
    const del = await call(u, { method: 'DELETE', url: `/unified/scheduled-posts/${ids[1]}` });
    expect(del.statusCode, del.body).toBe(200);
    expect(await slotOf(u, ids[0]!)).toBe(day(0));
    expect(await slotOf(u, ids[2]!)).toBe(day(2));
    expect(await nextSlots(u, 'q', 2)).toEqual([day(1), day(3)]);
    expect((await add(u, 'q')).json().queue.slot_time).toBe(day(1));
  });

  it('reflow=true moves every later post up one slot', async () => {
    const { u, ids } = await filled(4);
    const del = await call(u, { method: 'DELETE', url: `/unified/scheduled-posts/${ids[1]}?reflow=true` });
    expect(del.statusCode, del.body).toBe(200);
    expect([await slotOf(u, ids[0]!), await slotOf(u, ids[2]!), await slotOf(u, ids[3]!)]).toEqual([
      day(0),
      day(1),
      day(2),
    ]);
    expect(await nextSlots(u, 'q', 1)).toEqual([day(3)]);
  });

  it('share_next takes the first slot and moves the others down one slot', async () => {
    const { u, ids } = await filled(3);
    const res = await add(u, 'q', { default_text: 'urgent', share_next: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().queue.slot_time).toBe(day(0));
    expect([await slotOf(u, ids[0]!), await slotOf(u, ids[1]!), await slotOf(u, ids[2]!)]).toEqual([
      day(1),
      day(2),
      day(3),
    ]);
  });
});

describe('isolation', () => {
  it('another workspace can neither see nor use a queue, nor touch its posts', async () => {
    const u = await member();
    const other = await member();
    await createQueue(u, { name: 'mine', time_zone: 'UTC', slots: daily(['09:00']) });
    const id = (await add(u, 'mine')).json().scheduled[0].scheduled_post_id;
    await add(u, 'default');
    expect((await call(other, { method: 'GET', url: '/unified/queues/mine' })).statusCode).toBe(404);
    expect(
      (await call(other, { method: 'PATCH', url: '/unified/queues/mine', payload: { paused: true } })).statusCode,
    ).toBe(404);
    expect((await call(other, { method: 'DELETE', url: '/unified/queues/mine' })).statusCode).toBe(404);
    expect((await call(other, { method: 'GET', url: '/unified/queue/mine/next-slots' })).statusCode).toBe(404);
    expect((await add(other, 'mine')).statusCode).toBe(404);
    expect(
      (await call(other, { method: 'DELETE', url: `/unified/scheduled-posts/${id}?reflow=true` })).statusCode,
    ).toBe(404);
    const theirs = (await call(other, { method: 'GET', url: '/unified/queues' })).json().data.queues;
    expect(theirs.map((q: { name: string }) => q.name)).toEqual(['default']);
    expect(theirs[0].queued_posts).toBe(0);
    // Their default queue is their own: its first slot is free although ours is taken.
    expect(await nextSlots(other, 'default', 1)).toEqual(['2026-11-20T12:00:00.000Z']);
    expect(await nextSlots(u, 'default', 1)).toEqual(['2026-11-20T17:00:00.000Z']);
  });
});
