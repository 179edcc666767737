// The Idempotency-Key claim is a lease: a duplicate of a live request is 409; once the lease of a request
// whose process died has passed, a retry takes the claim over and resumes the same ledger post without
// publishing or charging anything twice. The "dead" request is one whose network call never returns (as a
// process that stopped would never return); time moves by the injected clock.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PublishOutcome } from '../../src/platforms/publishing.ts';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from './helpers.ts';

const LEASE_SECONDS = 60;
const script: Script = { calls: [], behaviour: {} };
let now = new Date('2026-11-20T10:00:00Z').getTime();
const advance = (seconds: number) => (now += seconds * 1000);
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: () => new Date(now),
    env: { HERALD_IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS) },
    overrides: { adapters: scriptedAdapters(script) },
  });
});
afterAll(async () => h?.close());

const post = (u: TestUser, payload: object, key: string) =>
  h.req({ method: 'POST', url: '/unified/post/text', headers: { ...asUser(u), 'idempotency-key': key }, payload });
const usedPosts = async (u: TestUser) =>
  (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json().used_this_period.posts as number;

/** A network that accepts the post and journals its id, then never answers (the process died there). */
function hangingNetwork() {
  let created = 0;
  let release!: () => void;
  const stuck = new Promise<void>((r) => (release = r));
  const behaviour = async (
    _req: unknown,
    journal: { steps: Readonly<Record<string, string>>; record(s: string, v: string): Promise<void> },
  ): Promise<PublishOutcome> => {
    let id = journal.steps.post_id;
    if (!id) {
      created++;
      id = `li-${created}`;
      await journal.record('post_id', id);
      await stuck;
    }
    return { state: 'published', postId: id, permalink: `https://linkedin.example/p/${id}` };
  };
  return { behaviour, created: () => created, release: () => release() };
}

describe('Idempotency-Key lease', () => {
  it('answers 409 to a duplicate of a live request, and a retry after the lease resumes it without posting or charging twice', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await connect(h, u, 'linkedin');
    const linkedin = hangingNetwork();
    script.behaviour.linkedin = linkedin.behaviour;
    script.calls.length = 0;
    const body = { platforms: ['bluesky', 'linkedin'], default_text: 'Exactly once' };
    try {
      const dead = post(u, body, 'lease-1');
      await vi.waitFor(() => expect(linkedin.created()).toBe(1), { timeout: 30_000 });
      const bluesky = await vi.waitFor(
        async () => {
          const rows = await h.ctx.publishing.ledger.targetsOf(
            (await h.ctx.publishing.ledger.findByKey(u.workspaceId, 'lease-1'))!.id,
          );
          const b = rows.find((r) => r.platform === 'bluesky')!;
          expect(b.state).toBe('published');
          return b;
        },
        { timeout: 30_000 },
      );

      // Live: the lease holds, whatever the duplicate.
      const dup = await post(u, body, 'lease-1');
      expect(dup.statusCode, dup.body).toBe(409);
      expect(dup.json().detail).toMatch(/still being processed/);
      advance(LEASE_SECONDS - 1);
      expect((await post(u, body, 'lease-1')).statusCode).toBe(409);

      // The lease passed: another body is still 422, the same body resumes.
      advance(2);
      expect((await post(u, { ...body, default_text: 'Something else' }, 'lease-1')).statusCode).toBe(422);
      const retry = await post(u, body, 'lease-1');
      expect(retry.statusCode, retry.body).toBe(200);
      const results = retry.json().results as { platform: string; success: boolean; post_id: string }[];
      expect(results.map((r) => [r.platform, r.success, r.post_id])).toEqual([
        ['bluesky', true, bluesky.platformPostId],
        ['linkedin', true, 'li-1'],
      ]);
      // Bluesky (published before the crash) was not called again; LinkedIn resumed from its journal.
      expect(script.calls.filter((c) => c.platform === 'bluesky')).toHaveLength(1);
      expect(script.calls.filter((c) => c.platform === 'linkedin').map((c) => c.journal.post_id ?? null)).toEqual([
        null,
        'li-1',
      ]);
      expect(linkedin.created()).toBe(1);
      expect(await usedPosts(u)).toBe(2);
      const row = (await h.ctx.publishing.ledger.findByKey(u.workspaceId, 'lease-1'))!;
      expect(row.status).toBe('completed');
      const targets = await h.ctx.publishing.ledger.targetsOf(row.id);
      expect(targets).toHaveLength(2);
      expect(targets.find((t) => t.platform === 'linkedin')).toMatchObject({
        state: 'published',
        attempts: 2,
        platformPostId: 'li-1',
      });

      // From now on the key replays the resumed answer.
      const again = await post(u, body, 'lease-1');
      expect(again.json()).toEqual(retry.json());
      linkedin.release();
      await dead;
      expect(linkedin.created()).toBe(1);
    } finally {
      linkedin.release();
      delete script.behaviour.linkedin;
    }
  });

  it('lets one of two concurrent retries resume; the other gets 409 while it runs', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    let calls = 0;
    let release!: () => void;
    const stuck = new Promise<void>((r) => (release = r));
    // Both the dead run and the resumed one wait; the resumed one is released below.
    script.behaviour.linkedin = async (_req, journal) => {
      calls++;
      if (!journal.steps.post_id) await journal.record('post_id', 'li-once');
      await stuck;
      return { state: 'published', postId: journal.steps.post_id!, permalink: null };
    };
    const body = { platforms: ['linkedin'], default_text: 'One retry wins' };
    try {
      const dead = post(u, body, 'lease-2');
      await vi.waitFor(() => expect(calls).toBe(1), { timeout: 30_000 });
      advance(LEASE_SECONDS + 1);
      const first = post(u, body, 'lease-2');
      await vi.waitFor(() => expect(calls).toBe(2), { timeout: 30_000 });
      const second = await post(u, body, 'lease-2');
      expect(second.statusCode, second.body).toBe(409);
      release();
      const won = await first;
      expect(won.statusCode, won.body).toBe(200);
      expect(won.json()).toMatchObject({
        success: true,
        post: { platform: 'linkedin', post_id: 'li-once' },
        error: null,
      });
      await dead;
      expect(calls).toBe(2);
      expect(await usedPosts(u)).toBe(1);
    } finally {
      release();
      delete script.behaviour.linkedin;
    }
  });

  it('renews the lease while the request runs, so a slow live request keeps its claim', async () => {
    const lease = 3;
    let clock = new Date('2026-11-20T12:00:00Z').getTime();
    const slow: Script = { calls: [], behaviour: {} };
    const h2 = await createHarness({
      sandbox: true,
      clock: () => new Date(clock),
      env: { HERALD_IDEMPOTENCY_LEASE_SECONDS: String(lease) },
      overrides: { adapters: scriptedAdapters(slow) },
    });
    let release!: () => void;
    const stuck = new Promise<void>((r) => (release = r));
    try {
      const u = await h2.signup();
      await connect(h2, u, 'linkedin');
      slow.behaviour.linkedin = async () => {
        await stuck;
        return { state: 'published', postId: 'slow-1', permalink: null };
      };
      const body = { platforms: ['linkedin'], default_text: 'Slow but alive' };
      const req = () =>
        h2.req({
          method: 'POST',
          url: '/unified/post/text',
          headers: { ...asUser(u), 'idempotency-key': 'lease-3' },
          payload: body,
        });
      const live = req();
      await vi.waitFor(() => expect(slow.calls).toHaveLength(1), { timeout: 30_000 });
      const first = (await h2.ctx.publishing.ledger.findByKey(u.workspaceId, 'lease-3'))!;
      // Well past the first lease: only the request's own renewals (every third of the lease) keep the claim.
      clock += 10 * lease * 1000;
      await vi.waitFor(
        async () => {
          const row = (await h2.ctx.publishing.ledger.findByKey(u.workspaceId, 'lease-3'))!;
          expect(row.leaseUntil!.getTime()).toBeGreaterThan(clock);
        },
        { timeout: 30_000, interval: 100 },
      );
      const dup = await req();
      expect(dup.statusCode, dup.body).toBe(409);
      expect(slow.calls).toHaveLength(1);
      release();
      expect((await live).json()).toMatchObject({ success: true, post: { post_id: 'slow-1' } });
      const done = (await h2.ctx.publishing.ledger.findByKey(u.workspaceId, 'lease-3'))!;
      expect(done).toMatchObject({ status: 'completed', leaseOwner: first.leaseOwner });
    } finally {
      release();
      await h2.close();
    }
  });
});
