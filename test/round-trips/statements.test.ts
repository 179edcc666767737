// SQL statements per operation, counted through the database's statement tap (both back ends count
// BEGIN/COMMIT alike). Not a timing test: the numbers only move when the code's round trips do.
// First measured (before the single submit), embedded PGlite, request auth included: immediate
// LinkedIn text publish 17, draft create 3, scheduled create 10 + worker publish 35. After it: 13, 3, 10 + 29.
// Then (unlimited plans append to the credit ledger only; the worker's claim, last check and status
// changes are single statements; plans and connections read once per claimed batch): 11, 3, 8 + 14.
// Authentication answered from its cache (at most 1 s), the post, its targets and credits in one statement: 5
// (7 when the cache has aged out), 1, 6 + 14.
// The worker's guarded start written with the ledger transaction, and the target's published state with the
// entry's status change (one statement): worker publish 12 statements, 5 commits that write (was 14, 7).
// The bounds below are the latest figures: a change that adds round trips fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';
import { TestClock } from '../scheduling/helpers.ts';

const script: Script = { calls: [], behaviour: {} };
const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: clock.fn,
    overrides: { adapters: scriptedAdapters(script) },
    // Authentication cached as in production (at most 1 s, on the test clock).
    env: { HERALD_SCHEDULE_GRACE_SECONDS: '3600', HERALD_API_KEY_CACHE_SECONDS: '1' },
  });
  u = await h.signup();
  await connect(h, u, 'linkedin');
  // Warm the per-request caches (session, workspace, plan) so each count is the operation's own.
  await h.req({ method: 'GET', url: '/unified/drafts', headers: asUser(u) });
});
afterAll(async () => h?.close());

async function counted<T>(work: () => Promise<T>): Promise<{ value: T; statements: string[] }> {
  const statements: string[] = [];
  const stop = h.ctx.database.statements.watch((sql) => statements.push(sql));
  try {
    return { value: await work(), statements };
  } finally {
    stop();
  }
}

const post = (type: string, payload: object) =>
  h.req({ method: 'POST', url: `/unified/post/${type}`, headers: asUser(u), payload });
const report = (what: string, n: number, list?: string[]) =>
  console.log(
    `[statements] ${what}: ${n}${process.env.STATEMENTS_DUMP && list ? `\n  ${list.map((q) => q.replace(/\s+/g, ' ').slice(0, 160)).join('\n  ')}` : ''}`,
  );

/**
 * The commits among `statements`: each transaction, and each statement outside one that may change rows (an
 * UPDATE that matched nothing included); plain reads are left out.
 */
function writeCommits(statements: string[]): number {
  let n = 0;
  let open = false;
  for (const q of statements) {
    if (/^\s*begin\b/i.test(q)) {
      open = true;
      n++;
    } else if (/^\s*(commit|rollback)\b/i.test(q)) open = false;
    else if (!open && /\b(insert|update|delete)\b/i.test(q)) n++;
  }
  return n;
}

describe('statements per operation', () => {
  it('an immediate one-network text publish (LinkedIn)', async () => {
    const { value: res, statements } = await counted(() =>
      post('text', { platforms: ['linkedin'], default_text: 'counted publish' }),
    );
    expect(res.json(), res.body).toMatchObject({ success: true });
    report('publish now', statements.length, statements);
    expect(statements.length).toBeLessThanOrEqual(5);
  });

  it('the same publish after the authentication cache aged out (the session and membership read again)', async () => {
    clock.advance(1_001);
    const { value: res, statements } = await counted(() =>
      post('text', { platforms: ['linkedin'], default_text: 'counted publish, cold authentication' }),
    );
    expect(res.json(), res.body).toMatchObject({ success: true });
    report('publish now, authentication read', statements.length, statements);
    expect(statements.length).toBeLessThanOrEqual(7);
  });

  it('a draft create', async () => {
    const { value: res, statements } = await counted(() =>
      h.req({
        method: 'POST',
        url: '/unified/drafts',
        headers: asUser(u),
        payload: { post_type: 'text', platforms: ['linkedin'], default_text: 'counted draft' },
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    report('draft create', statements.length);
    expect(statements.length).toBeLessThanOrEqual(1);
  });

  it('a scheduled publish: create, then the worker publishes it', async () => {
    const when = new Date(clock.now.getTime() + 60_000).toISOString();
    const { value: res, statements: create } = await counted(() =>
      post('text', { platforms: ['linkedin'], default_text: 'counted schedule', scheduled_time: when }),
    );
    expect(res.json(), res.body).toMatchObject({ success: true, message: 'Scheduled' });
    clock.advance(60_000);
    const { value: claimed, statements: work } = await counted(() => h.ctx.scheduleWorker.tick());
    expect(claimed).toBe(1);
    report('schedule create', create.length, create);
    report('worker publish', work.length, work);
    report('worker publish, commits that write', writeCommits(work));
    expect(create.length).toBeLessThanOrEqual(6);
    expect(work.length).toBeLessThanOrEqual(12);
    // The missed-post check, the claim, the ledger transaction (with the start), the adapter's journal write, the
    // target's published state with the entry's.
    expect(writeCommits(work)).toBeLessThanOrEqual(5);
  });
});
