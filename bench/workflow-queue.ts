// `npm run bench workflow`, queue section: the next-free-slot lookup of a posting queue holding 10,000 queued posts
// (BENCH_QUEUE_POSTS), in process, on PGlite (or PostgreSQL with DATABASE_URL). Three cases: a queue without gaps whose
// last post took its slot through the service (the usual one: the queue's recorded run of taken slots, then one index
// read after it), one with a slot freed 100 slots before its end (freeing it cut the recorded run back to the slot
// before it), and the same gap without a recorded run (one read of the next slots, then one ordered read of the taken
// ones up to the gap, see src/scheduling/queue-search.ts). Target: p99 < 20 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { FULL_SCOPE } from '../src/auth/scopes.ts';
import type { Principal } from '../src/auth/authenticate.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { openDatabase } from '../src/db/client.ts';
import { sql } from '../src/db/orm.ts';
import { rowsOf } from '../src/db/raw.ts';
import { SlotGrid } from '../src/scheduling/index.ts';
import { fmt } from './lib.ts';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function benchQueue(opts: { posts: number; runs: number; databaseUrl?: string | undefined }) {
  console.log(
    `\n== Queues: next free slot with ${opts.posts} queued posts (${opts.databaseUrl ? 'PostgreSQL' : 'PGlite'})`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-queue-'));
  const config = loadConfig({
    ...process.env,
    HERALD_DATA_DIR: dataDir,
    HERALD_LOG_LEVEL: 'silent',
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
  });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir,
    memory: !opts.databaseUrl,
    poolSize: 4,
  });
  const ctx = await createContext(config, { database, logger: pino({ level: 'silent' }) });
  try {
    const user = await ctx.accounts.signup({ email: `bench-${Date.now()}@example.test`, password: 'bench password 1' });
    const workspaceId = (await ctx.workspaces.listForUser(user.id))[0]!.id;
    const p = { kind: 'jwt', user, workspaceId, planId: 'free', role: 'owner', scope: FULL_SCOPE, keyId: null };
    const principal = p as unknown as Principal;
    const slots = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].flatMap((day) =>
      ['09:00', '12:00', '17:00'].map((time) => ({ day, time })),
    ) as { day: 'monday'; time: string }[];
    await ctx.queues.create(principal, 'bench', { time_zone: 'Europe/Paris', slots });
    const queue = (await ctx.queues.store.get(workspaceId, 'bench'))!;
    // The taken slots, written directly (the lookup reads only them): the next `posts` slots of the grid.
    const times = new SlotGrid(slots, 'Europe/Paris').next(new Date(), opts.posts);
    // The last one through the service, as a post into the queue takes it (when the service can take slots alone).
    const takeSlots = (
      ctx.queues as { takeSlots?: (tx: never, ws: string, name: string, n: number, tz: string) => Promise<unknown> }
    ).takeSlots;
    const direct = takeSlots ? times.slice(0, -1) : times;
    for (let i = 0; i < direct.length; i += 1000) {
      const values = direct.slice(i, i + 1000).map((t) => sql`(${queue.id}::uuid, ${t.toISOString()}::timestamptz)`);
      await ctx.database.db.execute(
        sql`insert into queue_slots (queue_id, slot_at) values ${sql.join(values, sql`, `)}`,
      );
    }
    if (takeSlots)
      await ctx.database.db.transaction((tx) =>
        takeSlots.call(ctx.queues, tx as never, workspaceId, 'bench', 1, 'UTC'),
      );
    const measure = async (label: string) => {
      const took: number[] = [];
      let first = '';
      for (let i = 0; i < opts.runs; i++) {
        const t0 = performance.now();
        // The lookup a post into the queue makes (the preview route adds the queue's view and counts).
        const next = await ctx.queues.nextFree(workspaceId, 'bench', 1);
        took.push(performance.now() - t0);
        first = next[0]!.toISOString();
      }
      took.sort((a, b) => a - b);
      console.log(
        `${label}: p50 ${fmt(pct(took, 50), 2)} ms, p99 ${fmt(pct(took, 99), 2)} ms over ${opts.runs} lookups (next: ${first}; target p99 < 20 ms)`,
      );
    };
    await measure(`no gap (${opts.posts} slots taken in a row)`);
    // A gap 100 slots before the end, freed as a cancelled post frees its slot.
    const gap = times[times.length - 100]!;
    const freed = await ctx.database.db.execute(
      sql`select id from queue_slots where queue_id = ${queue.id}::uuid and slot_at = ${gap.toISOString()}::timestamptz`,
    );
    await ctx.queues.store.release(rowsOf(freed)[0]!.id as string);
    await measure('one gap 100 slots before the end');
    // The same gap without the queue's recorded run (as after its slots or zone change): the search from now.
    await ctx.database.db.execute(
      sql`update posting_queues set filled_from = null, filled_to = null, filled_zone = null where id = ${queue.id}::uuid`,
    );
    await measure('the same gap, no recorded run');
  } finally {
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
