// The reconciler: a post due that no worker picked up (its wake-up lost), a worker killed at each step of a
// publish (after its claim, after the ledger, after the network accepted and the journal recorded it), and a
// request whose process died mid-publish — each found once it is stuck, counted in herald_posts_stuck, sent as a
// post.stuck event, and resumed to one published copy (or failed with the reason once its attempts are spent).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';
import { schedule, TestClock } from '../scheduling/helpers.ts';
import { until } from '../helpers/poll.ts';
import pino from 'pino';
import { Reconciler, ScheduleWorker } from '../../src/scheduling/index.ts';
import { eq, sql } from '../../src/db/orm.ts';
import { postTargets } from '../../src/db/schema-publishing.ts';

const script: Script = { calls: [], behaviour: {} };
const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
let u: TestUser;
/** Runs left hanging by the "killed" workers, released at the end. */
const hung: (() => void)[] = [];
const hang = () => new Promise<never>((_, reject) => hung.push(() => reject(new Error('released'))));

beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: clock.fn,
    overrides: { adapters: scriptedAdapters(script) },
    env: { HERALD_SCHEDULE_GRACE_SECONDS: '3600', HERALD_PUBLISH_WAIT_SECONDS: '1', HERALD_STUCK_AFTER_SECONDS: '60' },
  });
  u = await h.signup();
  await connect(h, u, 'linkedin');
});
afterAll(async () => {
  for (const release of hung) release();
  await h?.close();
});
beforeEach(() => {
  script.behaviour = {};
  script.calls.length = 0;
});

async function entryDueNow(text: string): Promise<string> {
  const res = await schedule(h, u, {
    platforms: ['linkedin'],
    default_text: text,
    scheduled_time: new Date(clock.now.getTime() + 1000).toISOString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  clock.advance(1000);
  return res.json().scheduled[0].scheduled_post_id as string;
}
const status = async (id: string) => (await h.ctx.scheduling.store.byId(id))!;
const stuckEvents = async (id: string) =>
  (await h.req({ method: 'GET', url: '/events?type=post.stuck&limit=200', headers: asUser(u) }))
    .json()
    .events.filter(
      (e: { data: { scheduled_post_id: string | null; post_id: string | null } }) =>
        e.data.scheduled_post_id === id || e.data.post_id === id,
    ) as { data: { reason: string; action: string } }[];
async function stuckMetric(kind: string): Promise<number> {
  const text = (await h.req({ method: 'GET', url: '/metrics' })).body;
  const m = new RegExp(`^herald_posts_stuck\\{kind="${kind}"\\} (\\d+)`, 'm').exec(text);
  return m ? Number(m[1]) : Number.NaN;
}
/** A second worker on the same database whose runs hang at the chosen step: a process killed there. */
function doomedWorker(afterLedger?: () => Promise<void>) {
  const w = h.ctx.scheduleWorker;
  return new ScheduleWorker({ ...w.deps, ...(afterLedger ? { afterLedger } : {}) }, w.options);
}
/** Calls that found no post id in the journal: each made a new copy at the network. */
const publishedCopies = () => script.calls.filter((c) => !c.journal.post_id).length;

describe('queue entries', () => {
  it('due but never picked up (its wake-up lost): counted, found, published, with a post.stuck event', async () => {
    const id = await entryDueNow('never woken');
    clock.advance(30_000);
    expect(await stuckMetric('due_not_claimed')).toBe(0);
    clock.advance(60_000);
    expect(await stuckMetric('due_not_claimed')).toBe(1);
    const found = await h.ctx.reconciler.pass();
    expect(found.due_not_claimed).toBe(1);
    expect((await status(id)).status).toBe('published');
    expect(script.calls).toHaveLength(1);
    const [ev] = await stuckEvents(id);
    expect(ev!.data).toMatchObject({ action: 'resumed' });
    expect(ev!.data.reason).toMatch(/^due at .* and not picked up by a worker$/);
    expect(await stuckMetric('due_not_claimed')).toBe(0);
  });

  it("its wake-up job deleted from the queue behind Herald's back: found and published", async () => {
    await h.ctx.scheduleQueue!.start();
    const id = await entryDueNow('job deleted');
    const jobs = async () =>
      Number(
        (
          (await h.ctx.database.db.execute(
            sql`select count(*)::int as n from pgboss.job where data->>'id' = ${id}`,
          )) as {
            rows: { n: number }[];
          }
        ).rows[0]!.n,
      );
    expect(await jobs()).toBe(1);
    await h.ctx.database.db.execute(sql`delete from pgboss.job where data->>'id' = ${id}`);
    expect(await jobs()).toBe(0);
    clock.advance(90_000);
    expect((await h.ctx.reconciler.pass()).due_not_claimed).toBe(1);
    expect((await status(id)).status).toBe('published');
    expect(script.calls).toHaveLength(1);
  });

  const steps: { step: string; arm: () => ScheduleWorker; reached: () => boolean }[] = [
    {
      step: 'after its claim and ledger, before any network call',
      arm: () => doomedWorker(hang),
      reached: () => false,
    },
    {
      step: 'after the network accepted the post and the journal recorded it',
      arm: () => {
        script.behaviour.linkedin = async (_req, journal) => {
          await journal.record('post_id', 'li-accepted-1');
          return hang();
        };
        return doomedWorker();
      },
      reached: () => script.calls.length === 1,
    },
  ];
  for (const s of steps) {
    it(`a worker killed ${s.step}: resumed once its claim expired, one copy published`, async () => {
      const id = await entryDueNow(s.step);
      const doomed = s.arm();
      void doomed.tick();
      await until(async () => (await status(id)).postId !== null && (s.reached() || s.step.startsWith('after its')));
      script.behaviour = {};
      expect((await status(id)).status).toBe('publishing');
      // Within the lease the worker may still be alive: not stuck.
      clock.advance(30_000);
      expect((await h.ctx.reconciler.pass()).lease_expired).toBe(0);
      clock.advance(w().options.leaseMs + 60_000);
      expect(await stuckMetric('lease_expired')).toBe(1);
      expect((await h.ctx.reconciler.pass()).lease_expired).toBe(1);
      const row = await status(id);
      expect(row.status).toBe('published');
      expect(publishedCopies()).toBe(1);
      if (s.reached()) expect(row.publishedPostId).toBe('li-accepted-1');
      const [ev] = await stuckEvents(id);
      expect(ev!.data.reason).toMatch(/claim expired at .* \(its worker stopped mid-publish\)/);
    });
  }

  it('a backlog is not stuck: while every slot of the worker is busy, nothing more is handed over nor reported', async () => {
    // A worker of one slot, busy with a run that does not end; a second entry waits behind it.
    const busy = new ScheduleWorker({ ...w().deps, afterLedger: hang }, { ...w().options, concurrency: 1 });
    const first = await entryDueNow('backlog first');
    const second = await entryDueNow('backlog second');
    void busy.tick();
    await until(async () => (await status(first)).postId !== null);
    expect(busy.freeSlots()).toBe(0);
    const reconciler = new Reconciler(
      {
        db: h.ctx.database.db,
        ledger: h.ctx.publishing.ledger,
        runner: h.ctx.publishing.runner,
        credits: h.ctx.credits,
        worker: busy,
        clock: clock.fn,
        logger: pino({ level: 'silent' }),
      },
      { everyMs: 30_000, stuckAfterMs: 60_000, publishWaitMs: 1000, graceSeconds: 3600, maxAttempts: 5 },
    );
    clock.advance(90_000);
    expect(await reconciler.pass()).toEqual({ due_not_claimed: 0, lease_expired: 0, target_overdue: 0 });
    expect((await status(second)).status).toBe('scheduled');
    expect(await stuckEvents(second)).toEqual([]);
    // A worker with free slots takes both: the backlog, and the busy worker's claim once its lease expired.
    clock.advance(w().options.leaseMs);
    expect(await h.ctx.reconciler.pass()).toMatchObject({ due_not_claimed: 1, lease_expired: 1 });
    expect((await status(first)).status).toBe('published');
    expect((await status(second)).status).toBe('published');
    expect(publishedCopies()).toBe(2);
  });
});
const w = () => h.ctx.scheduleWorker;

describe('a request whose process died mid-publish', () => {
  it('its target, left processing, is resumed through its journal: one copy, post.published', async () => {
    script.behaviour.linkedin = async (_req, journal) => {
      await journal.record('post_id', 'li-request-1');
      return hang();
    };
    // The request gives up waiting after HERALD_PUBLISH_WAIT_SECONDS and leaves the target processing.
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['linkedin'], default_text: 'request died' },
    });
    expect(res.statusCode).toBeLessThan(500);
    const [target] = await h.ctx.database.db
      .select()
      .from(postTargets)
      .where(sql`${postTargets.journal} ->> 'post_id' = 'li-request-1'`);
    expect(target!.state).toBe('processing');
    script.behaviour = {};
    script.calls.length = 0;
    clock.advance(30_000);
    const early = await h.ctx.reconciler.pass();
    expect(early.target_overdue).toBe(0);
    clock.advance(60_000);
    expect(await stuckMetric('target_overdue')).toBe(1);
    expect((await h.ctx.reconciler.pass()).target_overdue).toBe(1);
    const [after] = await h.ctx.database.db.select().from(postTargets).where(eq(postTargets.id, target!.id));
    expect(after).toMatchObject({ state: 'published', platformPostId: 'li-request-1' });
    const evs = (
      await h.req({ method: 'GET', url: `/events?post_id=${target!.postId}&order=asc`, headers: asUser(u) })
    ).json().events as { type: string; data: { action?: string } }[];
    expect(evs.map((e) => e.type)).toEqual(['post.stuck', 'post.published']);
    const timeline = (
      await h.req({ method: 'GET', url: `/unified/posts/${target!.postId}/timeline`, headers: asUser(u) })
    ).json();
    expect(timeline.targets[0].attempts.map((a: { source: string; outcome: string }) => [a.outcome, a.source])).toEqual(
      [
        ['processing', 'request'],
        ['published', 'reconciler'],
      ],
    );
  });

  it('a target that keeps getting stuck is failed with the reason once its attempts are spent', async () => {
    const { ledger } = h.ctx.publishing;
    script.behaviour.linkedin = () => hang();
    await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['linkedin'], default_text: 'never answers' },
    });
    const [target] = await h.ctx.database.db.select().from(postTargets).where(eq(postTargets.state, 'processing'));
    await h.ctx.database.db
      .update(postTargets)
      .set({ attempts: w().options.maxAttempts })
      .where(eq(postTargets.id, target!.id));
    clock.advance(120_000);
    await h.ctx.reconciler.pass();
    const after = await ledger.target(target!.id);
    expect(after).toMatchObject({ state: 'failed', errorCode: 'STUCK' });
    expect(after!.errorMessage).toMatch(/gave up after \d+ attempts: processing since/);
    const evs = (
      await h.req({ method: 'GET', url: `/events?post_id=${target!.postId}&order=asc`, headers: asUser(u) })
    ).json().events as { type: string; data: { action?: string } }[];
    expect(evs.map((e) => [e.type, e.data.action])).toEqual([
      ['post.stuck', 'failed'],
      ['post.failed', undefined],
    ]);
  });
});
