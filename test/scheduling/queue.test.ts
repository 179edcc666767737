// pg-boss as the wake-up: a worker started as `herald serve` starts it publishes a post at its time,
// woken by the job (not the backstop scan), on PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { schedule } from './helpers.ts';
import { poll } from '../helpers/poll.ts';

let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date(), env: { HERALD_SCHEDULER_POLL_MS: '500' } });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0 }),
  });
  u = await h.signup();
  await connect(h, u, 'linkedin');
  await h.ctx.scheduleQueue!.start();
  h.ctx.scheduleWorker.start();
}, 60_000);
afterAll(async () => h?.close());

describe('pg-boss wake-ups', () => {
  it('publishes at the scheduled time, woken by the queue rather than the backstop scan', {
    timeout: 30_000,
  }, async () => {
    // Due after the worker's first scan and well before its next one (the backstop runs every 5 s beside a queue).
    const due = new Date(Date.now() + 1500);
    const res = await schedule(h, u, {
      platforms: ['linkedin'],
      default_text: `Queue ${due.getTime()}`,
      scheduled_time: due.toISOString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().scheduled[0].scheduled_post_id as string;
    const row = await poll(
      () => h.ctx.scheduling.store.byId(id),
      (r) => r!.status === 'published' || r!.status === 'failed',
    );
    expect(row!.status).toBe('published');
    const events = await h.ctx.scheduling.store.events(id);
    const claimed = events.find((e) => e.toStatus === 'publishing')!;
    // Claimed by the job, and not before its time: which wake-up it was is the property, not how fast it came.
    expect(claimed.reason).toContain('(queue)');
    expect(claimed.at.getTime()).toBeGreaterThanOrEqual(due.getTime());
  });
});
