// Two `herald worker` processes sharing one queue, one of them SIGKILLed mid-way, publish 1,000 due posts through the
// real adapters to the simulators exactly once. Several worker processes need PostgreSQL (embedded PGlite is one
// process by design): the PostgreSQL run lists this suite, the embedded run does not (vitest.config.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, TestUser } from '../helpers/harness.ts';
import { linkedinOnSimulators, linkedinPosts, makeDue, schedule, stopAll, workerLauncher } from './helpers.ts';
import { until } from '../helpers/poll.ts';

let h: Harness;
let u: TestUser;
beforeAll(async () => {
  ({ h, u } = await linkedinOnSimulators());
});
afterAll(async () => h?.close());

describe('scheduled posts on the simulators, two worker processes', () => {
  it('two worker processes (one SIGKILLed mid-way) publish 1,000 due posts exactly once', {
    timeout: 600_000,
  }, async () => {
    await h.setPlan(u.workspaceId, 'pro');
    const before = (await linkedinPosts(h)).length;
    const N = 1000;
    const marker = `many-${Date.now()}`;
    const ids: string[] = [];
    // The API side enqueues a pg-boss wake-up per post, as `herald serve` does; the workers take them.
    await h.ctx.scheduleQueue!.start();
    const due = new Date(Date.now() + 60_000).toISOString();
    for (let i = 0; i < N; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, N - i) }, (_, j) =>
          schedule(h, u, { platforms: ['linkedin'], default_text: `${marker} ${i + j}`, scheduled_time: due }),
        ),
      );
      for (const res of batch) {
        expect(res.statusCode, res.body).toBe(200);
        ids.push(res.json().scheduled[0].scheduled_post_id);
      }
    }
    // All due now; their pg-boss wake-ups still say "in a minute", so the workers' scans find them first.
    await makeDue(h, ids);
    const start = workerLauncher(h, {
      HERALD_SCHEDULER_POLL_MS: '100',
      HERALD_SCHEDULER_BATCH: '10',
      HERALD_SCHEDULER_CONCURRENCY: '20',
      HERALD_SCHEDULER_LEASE_SECONDS: '3',
      HERALD_PUBLISH_WAIT_SECONDS: '10',
    });
    const workers = [start(), start()];
    const sql = (q: string) =>
      h.ctx.database.db.execute(q as never) as unknown as Promise<{ rows: Record<string, unknown>[] }>;
    const inIds = `(${ids.map((i) => `'${i}'`).join(',')})`;
    const claims = async () =>
      (
        await sql(
          `select reason from scheduled_post_events where to_status = 'publishing' and scheduled_post_id in ${inIds}`,
        )
      ).rows.map((r) => String(r.reason));
    try {
      // SIGKILL whichever process claimed first, once both are busy: what it held is resumed by the other after the lease.
      const pids = async () =>
        new Set(
          (await claims())
            .map((r) => /claimed by worker-(\d+)-/.exec(r)?.[1])
            .filter(Boolean)
            .map(Number),
        );
      await until(async () => (await pids()).size >= 2 || (await claims()).length >= 200, { timeoutMs: 120_000 });
      const firstPid = [...(await pids())][0];
      const victim = workers.find((w) => w.pid === firstPid)!;
      victim.kill('SIGKILL');
      const left = async () =>
        Number(
          (await sql(`select count(*)::int as n from scheduled_posts where status <> 'published' and id in ${inIds}`))
            .rows[0]!.n,
        );
      await until(async () => (await left()) === 0, { timeoutMs: 480_000 });
      // Exactly once: the simulator holds one post per entry, and no text twice.
      const texts = (await linkedinPosts(h))
        .slice(before)
        .map((p) => p.commentary ?? p.text ?? '')
        .filter((t) => t.startsWith(marker));
      expect(texts).toHaveLength(N);
      expect(new Set(texts).size).toBe(N);
      // Both processes took part.
      expect(
        new Set((await claims()).map((r) => /claimed by (worker-[\w-]+)/.exec(r)?.[1])).size,
      ).toBeGreaterThanOrEqual(2);
    } finally {
      await stopAll(workers);
    }
  });
});
