// Scheduled posts through the real adapters to the simulators: one post per scheduled post, counted in
// the simulators' state; on PostgreSQL, also two `herald worker` processes sharing one queue, one of
// them SIGKILLed mid-way.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { schedule } from './helpers.ts';

if (!process.env.DATABASE_URL) {
  // Several worker processes need PostgreSQL (embedded PGlite is one process by design); CI runs this file on both.
  console.warn('[herald tests] DATABASE_URL is not set: the two-worker-process test does NOT run here.');
}

let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date() });
  await fetch(`${h.url}/sandbox/_config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ processingMs: 0 }) });
  u = await h.signup();
  await connect(h, u, 'linkedin');
});
afterAll(async () => h?.close());

const linkedinPosts = async () => ((await (await fetch(`${h.url}/sandbox/_state`)).json()) as Record<string, { posts: { id: string; text?: string; commentary?: string }[] }>).linkedin!.posts;
const soon = () => new Date(Date.now() + 60_000).toISOString();
/** Time passing, without waiting: the posts' time is moved into the past. */
const makeDue = (ids: string[]) => h.ctx.database.db.execute(`update scheduled_posts set scheduled_time = now() - interval '1 second' where id in (${ids.map((i) => `'${i}'`).join(',')})` as never);

async function until(what: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('scheduled posts on the simulators', () => {
  it('publishes a scheduled LinkedIn post exactly once', async () => {
    const before = (await linkedinPosts()).length;
    const res = await schedule(h, u, { platforms: ['linkedin'], default_text: `Scheduled e2e ${Date.now()}`, scheduled_time: soon() });
    const id = res.json().scheduled[0].scheduled_post_id as string;
    await makeDue([id]);
    await h.ctx.scheduleWorker.tick();
    await h.ctx.scheduleWorker.tick();
    expect((await h.ctx.scheduling.store.byId(id))!.status).toBe('published');
    expect((await linkedinPosts()).length - before).toBe(1);
  });

  it.skipIf(!process.env.DATABASE_URL)('two worker processes (one SIGKILLed) publish many due posts exactly once', { timeout: 120_000 }, async () => {
    const before = (await linkedinPosts()).length;
    const N = 40;
    const ids: string[] = [];
    // The API side enqueues a pg-boss wake-up per post, as `herald serve` does; the workers take them.
    await h.ctx.scheduleQueue!.start();
    const due = new Date(Date.now() + 4000).toISOString();
    for (let i = 0; i < N; i++) ids.push((await schedule(h, u, { platforms: ['linkedin'], default_text: `Many ${i} ${Date.now()}`, scheduled_time: due })).json().scheduled[0].scheduled_post_id);
    const bin = fileURLToPath(new URL('../../bin/herald.js', import.meta.url));
    const env = {
      ...process.env,
      DATABASE_URL: h.config.databaseUrl!,
      HERALD_DATA_DIR: h.config.dataDir,
      HERALD_PUBLIC_URL: h.url,
      HERALD_SANDBOX: '1',
      HERALD_PLANS_FILE: h.config.plansFile!,
      HERALD_LOG_LEVEL: 'warn',
      HERALD_SCHEDULER_POLL_MS: '100',
      HERALD_SCHEDULER_BATCH: '4',
      HERALD_SCHEDULER_LEASE_SECONDS: '3',
      HERALD_PUBLISH_WAIT_SECONDS: '2',
    };
    const start = (): ChildProcess => spawn(process.execPath, [bin, 'worker'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const workers = [start(), start()];
    try {
      // SIGKILL the first process seen claiming, mid-run: whatever it held is resumed by the other after the lease.
      const claimers = async () => (await Promise.all(ids.map((id) => h.ctx.scheduling.store.events(id)))).flat().map((e) => /claimed by worker-(\d+)-/.exec(e.reason)?.[1]).filter(Boolean).map(Number);
      await until(async () => (await claimers()).length > 0, 30_000);
      const first = (await claimers())[0];
      const victim = workers.find((w) => w.pid === first)!;
      victim.kill('SIGKILL');
      const left = async () => (await h.ctx.scheduling.store.list(u.workspaceId, { platforms: ['linkedin'], status: undefined, limit: 1000, offset: 0 })).filter((r) => ids.includes(r.id) && r.status !== 'published').length;
      await until(async () => (await left()) === 0, 90_000);
      const posts = (await linkedinPosts()).slice(before);
      expect(posts).toHaveLength(N);
      const claims = (await Promise.all(ids.map((id) => h.ctx.scheduling.store.events(id)))).flat().filter((e) => e.toStatus === 'publishing');
      // Both processes took part, woken by the queue.
      expect(new Set(claims.map((e) => /claimed by (worker-[\w-]+)/.exec(e.reason)?.[1])).size).toBeGreaterThanOrEqual(2);
      expect(claims.some((e) => e.reason.includes('(queue)'))).toBe(true);
    } finally {
      for (const w of workers) if (w.exitCode === null) w.kill('SIGTERM');
      await Promise.all(workers.map((w) => (w.exitCode !== null || w.signalCode ? undefined : new Promise((r) => w.once('exit', r)))));
    }
  });
});
