// The worker driven tick by tick with a clock the test moves: due pickup, exactly-once through the
// ledger, resume after a crash, retries, cancellation races, missed posts, readiness and metrics.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';
import { PlatformError } from '../../src/platforms/types.ts';
import { HOUR, TestClock, action, cancel, get, patch, schedule } from './helpers.ts';
import { schedulerReadiness } from '../../src/scheduling/readiness.ts';
import { ScheduleWorker } from '../../src/scheduling/worker.ts';
import pino from 'pino';
import pg from 'pg';
import { until } from '../helpers/poll.ts';

const script: Script = { calls: [], behaviour: {} };
const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: clock.fn,
    overrides: { adapters: scriptedAdapters(script) },
    env: { HERALD_SCHEDULE_GRACE_SECONDS: '3600' },
    // `herald serve` adds this check (src/main.ts).
    readiness: (ctx) => [
      schedulerReadiness({ store: ctx.scheduling.store, clock: ctx.clock, ...ctx.config.scheduling }),
    ],
  });
  u = await h.signup();
  await connect(h, u, 'bluesky');
  await connect(h, u, 'threads');
});
afterAll(async () => h?.close());

const at = (ms: number) => new Date(clock.now.getTime() + ms).toISOString();
async function scheduleOne(text: string, inMs = 60_000, platforms = ['bluesky']): Promise<string> {
  const res = await schedule(h, u, { platforms, default_text: text, scheduled_time: at(inMs) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().scheduled[0].scheduled_post_id;
}
const worker = () => h.ctx.scheduleWorker;
const callsFor = (text: string) => script.calls.filter((c) => c.req.text === text);

describe('the worker', () => {
  it('leaves future posts alone and publishes due ones once, through one ledger post', async () => {
    // The process zone must not matter: vitest.config.ts runs the tests in Pacific/Chatham (+13:45 now).
    expect(new Date(clock.now).getTimezoneOffset()).not.toBe(0);
    const id = await scheduleOne('due soon', 60_000);
    expect(await worker().tick()).toBe(0);
    clock.advance(60_000);
    expect(await worker().tick()).toBe(1);
    const row = await get(h, u, id);
    expect(row).toMatchObject({
      status: 'published',
      published_post_id: expect.stringMatching(/^bluesky-/),
      error_message: null,
    });
    expect(callsFor('due soon')).toHaveLength(1);
    expect(await worker().tick()).toBe(0);
    const stored = (await h.ctx.scheduling.store.byId(id))!;
    expect(await h.ctx.publishing.ledger.targetsOf(stored.postId!)).toHaveLength(1);
  });

  it('resumes the same ledger target after a crash between the ledger and the network call', async () => {
    const id = await scheduleOne('crash once');
    clock.advance(60_000);
    // A worker of the same deps that crashes once its ledger targets exist.
    const crashing = new ScheduleWorker(
      {
        ...worker().deps,
        afterLedger: () => {
          throw new Error('simulated crash');
        },
      },
      worker().options,
    );
    await crashing.tick();
    const mid = (await h.ctx.scheduling.store.byId(id))!;
    expect(mid.status).toBe('publishing');
    expect(mid.postId).not.toBeNull();
    expect(callsFor('crash once')).toHaveLength(0);
    // The ledger transaction wrote the target started (its first attempt), with nothing journaled.
    const [started] = await h.ctx.publishing.ledger.targetsOf(mid.postId!);
    expect(started).toMatchObject({ state: 'processing', attempts: 1, journal: {} });
    // A killed process never got to release its claim: make the lease look expired, as after a kill.
    await h.ctx.database.db.execute(
      `update scheduled_posts set claimed_until = '2000-01-01T00:00:00Z' where id = '${id}'` as never,
    );
    expect(await worker().tick()).toBe(1);
    const done = (await h.ctx.scheduling.store.byId(id))!;
    expect(done.status).toBe('published');
    expect(done.postId).toBe(mid.postId);
    expect(callsFor('crash once')).toHaveLength(1);
    const targets = await h.ctx.publishing.ledger.targetsOf(done.postId!);
    expect(targets).toHaveLength(1);
    expect(targets[0]).toMatchObject({ state: 'published', attempts: 2, platformPostId: done.publishedPostId });
  });

  it("writes the target's published state and the entry's together: when that write fails, neither is kept", async () => {
    const id = await scheduleOne('atomic finish');
    clock.advance(60_000);
    const db = h.ctx.database.db;
    const postsBefore = await h.ctx.credits.used(u.workspaceId, 'posts');
    // The entry's change to published is refused once (as a database error, or a crash, would end it) after the
    // network accepted the post and the adapter journaled it.
    await db.execute(
      `create function herald_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$` as never,
    );
    await db.execute(
      `create trigger herald_test_refuse before update on scheduled_posts for each row
       when (new.status = 'published' and new.id = '${id}') execute function herald_test_refuse()` as never,
    );
    try {
      await worker().tick();
    } finally {
      await db.execute('drop trigger herald_test_refuse on scheduled_posts' as never);
      await db.execute('drop function herald_test_refuse()' as never);
    }
    const mid = (await h.ctx.scheduling.store.byId(id))!;
    expect(mid.status).toBe('publishing');
    const [target] = await h.ctx.publishing.ledger.targetsOf(mid.postId!);
    // The target is not published without its entry: the run ended as an unexpected failure, retried with backoff.
    expect(target).toMatchObject({ state: 'failed', errorCode: 'PUBLISH_FAILED', creditSpent: false });
    expect(mid.retryAt).not.toBeNull();
    clock.advance(31_000);
    expect(await worker().tick()).toBe(1);
    const done = (await h.ctx.scheduling.store.byId(id))!;
    expect(done.status).toBe('published');
    // The retry found the post through the journal: one post at the network, one credit.
    const calls = callsFor('atomic finish');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.journal.post_id).toBe(done.publishedPostId);
    expect(await h.ctx.credits.used(u.workspaceId, 'posts')).toBe(postsBefore + 1);
    expect((await h.ctx.scheduling.store.events(id)).map((e) => e.toStatus)).toEqual([
      'scheduled',
      'publishing',
      'publishing',
      'publishing',
      'published',
    ]);
  });

  it('a crash after the network accepted the post resumes from the journal without a second post', async () => {
    let crash = true;
    script.behaviour.bluesky = async (req, journal) => {
      const postId = journal.steps.post_id ?? `bluesky-j-${req.targetId}`;
      await journal.record('post_id', postId);
      if (crash) {
        crash = false;
        throw new Error('process killed after the network call');
      }
      return { state: 'published', postId, permalink: `https://bsky.example/${postId}` };
    };
    try {
      const id = await scheduleOne('journaled');
      clock.advance(60_000);
      await worker().tick();
      await h.ctx.database.db.execute(
        `update scheduled_posts set claimed_until = '2000-01-01T00:00:00Z', retry_at = null where id = '${id}'` as never,
      );
      await worker().tick();
      const row = (await h.ctx.scheduling.store.byId(id))!;
      expect(row.status).toBe('published');
      const calls = callsFor('journaled');
      expect(calls).toHaveLength(2);
      expect(calls[1]!.journal.post_id).toBe(
        calls[0]!.req.targetId ? `bluesky-j-${calls[0]!.req.targetId}` : undefined,
      );
      expect(row.publishedPostId).toBe(calls[1]!.journal.post_id);
    } finally {
      delete script.behaviour.bluesky;
    }
  });

  it('retries rate limits with backoff and gives up on content errors at once', async () => {
    let n = 0;
    script.behaviour.threads = async (req) => {
      if (req.text === 'rejected') throw new PlatformError('threads', 'invalid_content', 'Text is not allowed');
      if (++n === 1) throw new PlatformError('threads', 'rate_limited', 'Slow down', { retryAfterSeconds: 10 });
      return { state: 'published', postId: 'threads-ok', permalink: null };
    };
    try {
      const limited = await scheduleOne('limited', 60_000, ['threads']);
      const rejected = await scheduleOne('rejected', 60_000, ['threads']);
      clock.advance(60_000);
      await worker().tick();
      expect(await get(h, u, rejected)).toMatchObject({
        status: 'failed',
        error_message: expect.stringContaining('CONTENT_REJECTED'),
      });
      expect(await get(h, u, limited)).toMatchObject({
        status: 'publishing',
        error_message: expect.stringMatching(/^Retrying at .*RATE_LIMITED/),
      });
      expect(await worker().tick()).toBe(0);
      clock.advance(31_000);
      expect(await worker().tick()).toBe(1);
      expect(await get(h, u, limited)).toMatchObject({ status: 'published', published_post_id: 'threads-ok' });
    } finally {
      delete script.behaviour.threads;
    }
  });

  it("honours the network's Retry-After when it is longer than the backoff", async () => {
    let n = 0;
    script.behaviour.threads = async () => {
      if (++n === 1) throw new PlatformError('threads', 'rate_limited', 'Slow down', { retryAfterSeconds: 600 });
      return { state: 'published', postId: 'threads-later', permalink: null };
    };
    try {
      const id = await scheduleOne('wait ten minutes', 60_000, ['threads']);
      clock.advance(60_000);
      await worker().tick();
      expect(await get(h, u, id)).toMatchObject({ status: 'publishing' });
      // The 30 s backoff alone would retry now; the network asked for 600 s.
      clock.advance(31_000);
      expect(await worker().tick()).toBe(0);
      clock.advance(570_000);
      expect(await worker().tick()).toBe(1);
      expect(await get(h, u, id)).toMatchObject({ status: 'published', published_post_id: 'threads-later' });
    } finally {
      delete script.behaviour.threads;
    }
  });

  it('keeps its claim alive while a publish outlasts the lease; another worker cannot take it meanwhile', async () => {
    const id = await scheduleOne('slow publish');
    clock.advance(60_000);
    const opts = { pollMs: 100, batchSize: 5, concurrency: 5, leaseMs: 600, graceSeconds: 3600, maxAttempts: 3 };
    const deps = { ...h.ctx.scheduleWorker.deps, clock: clock.fn, logger: pino({ level: 'silent' }) };
    const [a, b] = [new ScheduleWorker(deps, opts), new ScheduleWorker(deps, opts)];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    script.behaviour.bluesky = async (_req, journal) => {
      await gate;
      await journal.record('post_id', 'bluesky-slow');
      return { state: 'published', postId: 'bluesky-slow', permalink: null };
    };
    try {
      const run = a.tick();
      await until(async () => callsFor('slow publish').length === 1);
      // Time passes well beyond the lease while the network call is still open…
      clock.advance(10_000);
      // …and the heartbeat (every third of the lease) moves the lease past the new time.
      await until(async () => (await h.ctx.scheduling.store.byId(id))!.claimedUntil!.getTime() > clock.now.getTime());
      expect(await b.tick()).toBe(0);
      expect(await a.tick()).toBe(0);
      release();
      await run;
    } finally {
      delete script.behaviour.bluesky;
      release();
    }
    expect(await get(h, u, id)).toMatchObject({ status: 'published', published_post_id: 'bluesky-slow' });
    expect(callsFor('slow publish')).toHaveLength(1);
  });

  it('refuses edits while publishing, and stops before the network when cancelled before the attempt starts', async () => {
    const id = await scheduleOne('cancel me');
    clock.advance(60_000);
    const postsBefore = await h.ctx.credits.used(u.workspaceId, 'posts');
    const deps = worker().deps;
    // The cancel commits while the worker validates the entry again, before the ledger transaction that writes the
    // targets started: that transaction finds the claim gone and rolls back.
    const validate: typeof deps.validate = async (...args) => {
      // While publishing: edits, publish-now and move-to-draft are refused, cancel is accepted.
      for (const res of [
        await patch(h, u, id, { scheduled_time: at(HOUR) }),
        await action(h, u, id, 'publish-now'),
        await action(h, u, id, 'move-to-draft'),
      ]) {
        expect(res.statusCode).toBe(409);
        expect(res.json().detail).toContain("is 'publishing'");
      }
      expect((await cancel(h, u, id)).statusCode).toBe(200);
      return deps.validate(...args);
    };
    const cancelling = new ScheduleWorker({ ...deps, validate }, worker().options);
    await cancelling.tick();
    expect(callsFor('cancel me')).toHaveLength(0);
    const row = (await h.ctx.scheduling.store.byId(id))!;
    expect(row.status).toBe('cancelled');
    expect(row.postId).toBeNull();
    expect(await h.ctx.credits.used(u.workspaceId, 'posts')).toBe(postsBefore);
  });

  it('a resumed run stops before the network when the entry was cancelled after its claim', async () => {
    const id = await scheduleOne('resumed then cancelled');
    clock.advance(60_000);
    const crash = () => {
      throw new Error('simulated crash');
    };
    await new ScheduleWorker({ ...worker().deps, afterLedger: crash }, worker().options).tick();
    await h.ctx.database.db.execute(
      `update scheduled_posts set claimed_until = '2000-01-01T00:00:00Z' where id = '${id}'` as never,
    );
    // The resumed run's last check is its own statement: a cancel after the claim (here, once the ledger targets
    // were found again) stops it.
    const afterLedger = async () => {
      expect((await cancel(h, u, id)).statusCode).toBe(200);
    };
    expect(await new ScheduleWorker({ ...worker().deps, afterLedger }, worker().options).tick()).toBe(1);
    expect(callsFor('resumed then cancelled')).toHaveLength(0);
    expect((await get(h, u, id))!.status).toBe('cancelled');
  });

  it('records a publish whose cancellation came too late', async () => {
    const id = await scheduleOne('too late');
    clock.advance(60_000);
    script.behaviour.bluesky = async (_req, journal) => {
      await h.ctx.scheduling.cancel(u.workspaceId, id);
      await journal.record('post_id', 'bluesky-late');
      return { state: 'published', postId: 'bluesky-late', permalink: null };
    };
    try {
      await worker().tick();
    } finally {
      delete script.behaviour.bluesky;
    }
    expect(await get(h, u, id)).toMatchObject({ status: 'published', published_post_id: 'bluesky-late' });
    const events = await h.ctx.scheduling.store.events(id);
    expect(events.map((e) => e.toStatus)).toEqual(['scheduled', 'publishing', 'cancelled', 'published']);
    expect(events.at(-1)!.reason).toContain('cancellation came too late');
  });

  it('after downtime publishes what is within the grace period and fails older posts as missed', async () => {
    const old = await scheduleOne('missed', 60_000);
    const recent = await scheduleOne('within grace', 2 * HOUR);
    clock.advance(2 * HOUR + 30 * 60_000);
    expect((await h.req({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    await worker().tick();
    expect(await get(h, u, old)).toMatchObject({ status: 'failed', error_message: expect.stringContaining('Missed') });
    expect((await get(h, u, recent))!.status).toBe('published');
    expect((await h.req({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('workers publishing at once never overdraw a limited plan, which counts what was spent while unlimited', async () => {
    const v = await h.signup();
    await connect(h, v, 'bluesky');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await schedule(h, v, {
        platforms: ['bluesky'],
        default_text: `credit race ${i}`,
        scheduled_time: at(60_000),
      });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().scheduled[0].scheduled_post_id);
    }
    // Spent while on the unlimited plan (the credit ledger only), then the plan becomes Starter (150 posts a month):
    // the change resynchronises the running total from the ledger, so 3 posts are left.
    await h.ctx.credits.spend({
      workspaceId: v.workspaceId,
      planId: 'pro',
      type: 'posts',
      amount: 147,
      reason: 'earlier',
    });
    await h.setPlan(v.workspaceId, 'starter');
    clock.advance(60_000);
    const opts = { pollMs: 100, batchSize: 2, concurrency: 2, leaseMs: 60_000, graceSeconds: 3600, maxAttempts: 3 };
    const deps = { ...h.ctx.scheduleWorker.deps, clock: clock.fn, logger: pino({ level: 'silent' }) };
    const workers = [new ScheduleWorker(deps, opts), new ScheduleWorker(deps, opts), new ScheduleWorker(deps, opts)];
    // Each takes two at a time and spends in its own ledger transaction, all at once (earlier tests' retries may be due too).
    const rowsNow = () => Promise.all(ids.map((id) => h.ctx.scheduling.store.byId(id)));
    for (
      let round = 0;
      round < 10 && (await rowsNow()).some((r) => r!.status === 'scheduled' || r!.status === 'publishing');
      round++
    ) {
      await Promise.all(workers.map((w) => w.tick()));
    }
    const rows = await rowsNow();
    expect(rows.filter((r) => r!.status === 'published')).toHaveLength(3);
    const failed = rows.filter((r) => r!.status === 'failed');
    expect(failed).toHaveLength(3);
    for (const r of failed) expect(r!.errorMessage).toContain('insufficient_credits');
    expect(await h.ctx.credits.used(v.workspaceId, 'posts')).toBe(150);
    const usage = (
      await h.req({
        method: 'GET',
        url: '/billing/usage',
        headers: { authorization: `Bearer ${v.token}`, 'x-workspace-id': v.workspaceId },
      })
    ).json();
    expect(usage).toMatchObject({ plan_id: 'starter', remaining: { posts: 0 }, used_this_period: { posts: 150 } });
  });

  it('exposes queue depth, due count and attempts at /metrics', async () => {
    await scheduleOne('metrics', 60_000);
    clock.advance(60_000);
    const before = (await h.req({ method: 'GET', url: '/metrics' })).body;
    expect(before).toMatch(/herald_scheduled_due_not_started 1/);
    expect(before).toMatch(/herald_scheduled_queue_depth\{status="scheduled"\} 1/);
    await worker().tick();
    const after = (await h.req({ method: 'GET', url: '/metrics' })).body;
    expect(after).toMatch(/herald_scheduled_due_not_started 0/);
    expect(after).toMatch(/herald_scheduled_publish_attempts_total\{platform="bluesky"\} \d+/);
    expect(after).toMatch(/herald_scheduled_publish_failures_total\{platform="threads"\} 1/);
  });

  it('the heartbeat renews only its own claims, and skips a row another transaction holds instead of waiting', async () => {
    const { store } = h.ctx.scheduling;
    const ids = [await scheduleOne('lease a'), await scheduleOne('lease b'), await scheduleOne('lease c')];
    clock.advance(60_000);
    const claim = (workerId: string, only: string[]) =>
      store.claim({ workerId, only, exclude: [], limit: only.length, cutoff: new Date(0), leaseMs: 60_000 });
    expect(await claim('heartbeat-test', ids.slice(0, 2))).toHaveLength(2);
    expect(await claim('someone-else', ids.slice(2))).toHaveLength(1);
    const lease = async (id: string) => (await store.byId(id))!.claimedUntil!.getTime();
    const claimed = await lease(ids[0]!);
    const until = new Date(clock.now.getTime() + 10 * 60_000);
    // PostgreSQL: another connection holds the first row locked (as a ledger transaction does while it links it).
    const holder = h.ctx.database.kind === 'postgres' ? new pg.Client(h.config.databaseUrl) : undefined;
    if (holder) {
      await holder.connect();
      await holder.query('begin');
      await holder.query('select id from scheduled_posts where id = $1 for update', [ids[0]]);
    }
    await store.renewLeases(ids, 'heartbeat-test', until);
    expect(await lease(ids[1]!)).toBe(until.getTime());
    expect(await lease(ids[2]!)).not.toBe(until.getTime());
    if (holder) {
      expect(await lease(ids[0]!)).toBe(claimed);
      await holder.query('commit');
      await holder.end();
      await store.renewLeases(ids, 'heartbeat-test', until);
    }
    expect(await lease(ids[0]!)).toBe(until.getTime());
    // Leave the entries to the worker: their leases end, and the next round publishes them.
    clock.advance(11 * 60_000);
    await worker().tick();
    for (const id of ids) expect((await get(h, u, id))?.status).toBe('published');
  });

  it('reads the queue figures once per scrape of /metrics (its two gauges share the read)', async () => {
    const stats = vi.spyOn(h.ctx.scheduling.store, 'stats');
    try {
      const body = (await h.req({ method: 'GET', url: '/metrics' })).body;
      expect(stats).toHaveBeenCalledTimes(1);
      expect(body).toMatch(/herald_scheduled_due_not_started \d+/);
      expect(body).toMatch(/herald_scheduled_queue_depth\{status="publishing"\} \d+/);
      await h.req({ method: 'GET', url: '/metrics' });
      expect(stats).toHaveBeenCalledTimes(2);
    } finally {
      stats.mockRestore();
    }
  });
});
