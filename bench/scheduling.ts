// `npm run bench scheduling`: the scheduling issue's load benchmark.
//
// N posts (10,000) due within one minute, spread uniformly over it, to the Bluesky simulator with 100 ms
// of network latency per call; created before the minute begins through the product's bulk import
// (POST /unified/bulk/import, files of 10,000 CSV rows: ordinary scheduled posts, each with its creation event
// and its pg-boss wake-up, as the API makes them) or, with HERALD_BENCH_SCHED_SEED=api, one by one through
// POST /unified/scheduled-posts in parallel (about 100/s here: 100,000 would take a quarter of an hour). Measured from the database
// afterwards: lag = published_at − scheduled_time (first / p50 / p99 / max), the claim lag, the time from
// the first due time until all are published, and the throughput while draining; CPU of every process
// (Herald, workers, PostgreSQL, this bench, the whole machine) is sampled from /proc once a second.
//
// Scenarios (HERALD_BENCH_SCHED_SCENARIOS, comma-separated, default all four):
//   target-pg      1,000 posts over the minute, one `herald worker` on PostgreSQL: lag p99 vs the 2 s target
//   target-pglite  the same on PGlite (embedded), `herald serve` with its in-process worker
//   pg             10,000 posts, `herald serve` (HERALD_WORKER_IN_PROCESS=0: API + sandbox) plus 1, 2 and 4
//                  `herald worker` processes, each run on a fresh PostgreSQL database (created and dropped)
//   pglite         10,000 posts, `herald serve` with its in-process worker on PGlite
//
// Environment (all optional):
//   HERALD_BENCH_SCHED_POSTS=10000           posts due in the window of the load scenarios (pg, pglite)
//   HERALD_BENCH_SCHED_TARGET_POSTS=1000     posts due in the window of the target checks
//   HERALD_BENCH_SCHED_WINDOW_S=60           the window the posts are spread over
//   HERALD_BENCH_SCHED_WORKERS=1,2,4         `herald worker` counts of the pg scenario
//   HERALD_BENCH_SCHED_LATENCY_MS=100        sandbox latency per simulator call (_config.latencyMs)
//   HERALD_BENCH_SCHED_SEED=bulk             bulk: the bulk import route; api: one POST per entry
//   HERALD_BENCH_SCHED_BULK_ROWS=10000       rows per bulk import file (the route takes at most 10,000)
//   HERALD_BENCH_SCHED_BULK_CONCURRENCY=2    bulk import files sent at once
//   HERALD_BENCH_SCHED_CREATE_CONCURRENCY=16 parallel POSTs while creating the entries (SEED=api)
//   HERALD_BENCH_SCHED_DRAIN_TIMEOUT_S=120   stop waiting this long after the window's end (pending posts are reported)
//   HERALD_BENCH_PG_URL                      admin URL of the PostgreSQL server (default DATABASE_URL, else
//                                            postgres://postgres@127.0.0.1:5432/postgres); each run creates its own database
//   HERALD_BENCH_SCHED_WORKSPACES=1          spread the posts over this many workspaces (each its own user and Bluesky
//                                            account), round-robin: each workspace's credit row is locked by every publish
//   HERALD_BENCH_SCHED_QUIET_WAIT_S=90       before each scenario, wait up to this long for the machine to be < 20% busy
//   HERALD_BENCH_SCHED_KEEP_LOGS=1           keep the processes' stderr logs (otherwise kept only when not empty)
// Herald's own settings (HERALD_SCHEDULER_CONCURRENCY, _BATCH, _POLL_MS, _QUEUE, …) pass through from the
// environment to `herald serve` and every `herald worker`.
//
// A full run (all four scenarios at the defaults) takes about 15 minutes on a quiet 2-core machine: each
// 10,000-post scenario needs a few seconds of creation (bulk import, ~1,800 entries/s), the minute itself and
// its drain. The scale run, 100,000 posts over ten minutes (HERALD_BENCH_SCHED_SCENARIOS=pg
// HERALD_BENCH_SCHED_POSTS=100000 HERALD_BENCH_SCHED_WINDOW_S=600 HERALD_BENCH_SCHED_WORKERS=2,4), takes about
// 13 minutes per worker count, a minute of it creation. Other jobs on the machine lengthen it (the quiet wait,
// slower creation) and disturb the figures (see the "other" CPU column).
// The database's own figures come from pg_stat_database (this run's database) and pg_stat_activity sampled
// once a second (lock waits, and what active backends wait on); pg_stat_statements is not used (it needs
// shared_preload_libraries, a server restart).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import {
  CLI,
  cpuSeconds,
  fmt,
  freePort,
  metricsText,
  metricValue,
  postJson,
  type ServerProcess,
  startFlags,
  startHerald,
} from './lib.ts';

const E = process.env;
function num(name: string, dflt: number, min = 1): number {
  const raw = E[name];
  const n = raw === undefined || raw === '' ? dflt : Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name}=${raw}: expected a number ≥ ${min}`);
  return n;
}
const CFG = {
  posts: num('HERALD_BENCH_SCHED_POSTS', 10_000),
  targetPosts: num('HERALD_BENCH_SCHED_TARGET_POSTS', 1000),
  windowS: num('HERALD_BENCH_SCHED_WINDOW_S', 60),
  workers: (E.HERALD_BENCH_SCHED_WORKERS || '1,2,4').split(',').map((w) => {
    if (!/^\s*\d+\s*$/.test(w) || Number(w) < 1)
      throw new Error(`HERALD_BENCH_SCHED_WORKERS: '${w}' is not a worker count ≥ 1`);
    return Number(w);
  }),
  latencyMs: num('HERALD_BENCH_SCHED_LATENCY_MS', 100, 0),
  createConcurrency: num('HERALD_BENCH_SCHED_CREATE_CONCURRENCY', 16),
  seed: (() => {
    const v = E.HERALD_BENCH_SCHED_SEED || 'bulk';
    if (v !== 'bulk' && v !== 'api') throw new Error(`HERALD_BENCH_SCHED_SEED=${v}: expected bulk or api`);
    return v;
  })(),
  bulkRows: num('HERALD_BENCH_SCHED_BULK_ROWS', 10_000),
  bulkConcurrency: num('HERALD_BENCH_SCHED_BULK_CONCURRENCY', 2),
  drainTimeoutS: num('HERALD_BENCH_SCHED_DRAIN_TIMEOUT_S', 120),
  scenarios: (E.HERALD_BENCH_SCHED_SCENARIOS || 'target-pg,target-pglite,pg,pglite').split(',').map((s) => s.trim()),
  pgUrl: E.HERALD_BENCH_PG_URL || E.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  keepLogs: E.HERALD_BENCH_SCHED_KEEP_LOGS === '1',
  workspaces: num('HERALD_BENCH_SCHED_WORKSPACES', 1),
};
const TARGET_P99_MS = 2000;
const CORES = availableParallelism();
const FAR_FUTURE_DAYS = 30;
/** Before each scenario, wait at most this long for the machine to be quiet (other jobs). */
const QUIET_WAIT_S = num('HERALD_BENCH_SCHED_QUIET_WAIT_S', 90, 0);

interface Scenario {
  key: string;
  db: 'pg' | 'pglite';
  /** `herald worker` processes; 0 = the in-process worker of `herald serve`. */
  workers: number;
  posts: number;
  windowS: number;
  target: boolean;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)}` : '–');
const secs = (n: number) => (Number.isFinite(n) ? fmt(n / 1000, 1) : '–');

// ---------------------------------------------------------------------------------------------
// Creating the entries: a pool of parallel POSTs.

interface Created {
  ok: number;
  failed: number;
  firstError: string | undefined;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

async function createPosts(
  url: string,
  auths: Record<string, string>[],
  opts: {
    count: number;
    timeOf: (i: number) => string;
    text: (i: number) => string;
    concurrency: number;
    untilMs?: number;
  },
): Promise<Created> {
  let next = 0;
  let ok = 0;
  let failed = 0;
  let firstError: string | undefined;
  const latencies: number[] = [];
  const headers = auths.map((auth) => ({ ...auth, 'content-type': 'application/json' }));
  const t0 = performance.now();
  const lane = async () => {
    for (;;) {
      if (opts.untilMs !== undefined && performance.now() - t0 > opts.untilMs) return;
      const i = next++;
      if (i >= opts.count) return;
      const body = JSON.stringify({
        post_type: 'text',
        platforms: ['bluesky'],
        default_text: opts.text(i),
        scheduled_time: opts.timeOf(i),
      });
      const t = performance.now();
      try {
        const res = await fetch(`${url}/unified/scheduled-posts`, {
          method: 'POST',
          headers: headers[i % headers.length]!,
          body,
        });
        const text = await res.text();
        if (res.ok) ok++;
        else {
          failed++;
          firstError ??= `${res.status} ${text.slice(0, 300)}`;
        }
      } catch (err) {
        failed++;
        firstError ??= String(err);
      }
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, lane));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    ok,
    failed,
    firstError,
    seconds,
    rps: (ok + failed) / seconds,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
  };
}

/**
 * The same entries through the bulk import (`POST /unified/bulk/import`, CSV, `HERALD_BENCH_SCHED_BULK_ROWS` rows a
 * file, `HERALD_BENCH_SCHED_BULK_CONCURRENCY` files at once): each file is one transaction of the product's own
 * import (credits, entries, their creation events) and then its pg-boss wake-ups, a thousand per statement. `rps` is
 * rows per second; the latencies are those of the files.
 */
async function importPosts(
  url: string,
  auths: Record<string, string>[],
  opts: {
    count: number;
    timeOf: (i: number) => string;
    text: (i: number) => string;
    concurrency: number;
    rowsPerFile: number;
  },
): Promise<Created> {
  const files = Math.ceil(opts.count / opts.rowsPerFile);
  let next = 0;
  let ok = 0;
  let failed = 0;
  let firstError: string | undefined;
  const latencies: number[] = [];
  const t0 = performance.now();
  const lane = async () => {
    for (;;) {
      const f = next++;
      if (f >= files) return;
      const from = f * opts.rowsPerFile;
      const to = Math.min(opts.count, from + opts.rowsPerFile);
      let csv = 'text,networks,time\n';
      for (let i = from; i < to; i++) csv += `${opts.text(i)},bluesky,${opts.timeOf(i)}\n`;
      const t = performance.now();
      try {
        const res = await fetch(`${url}/unified/bulk/import`, {
          method: 'POST',
          headers: { ...auths[f % auths.length]!, 'content-type': 'text/csv' },
          body: csv,
        });
        const text = await res.text();
        const imported = res.ok ? (JSON.parse(text) as { scheduled: unknown[] }).scheduled.length : 0;
        ok += imported;
        failed += to - from - imported;
        if (!res.ok) firstError ??= `${res.status} ${text.slice(0, 300)}`;
      } catch (err) {
        failed += to - from;
        firstError ??= String(err);
      }
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, files) }, lane));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    ok,
    failed,
    firstError,
    seconds,
    rps: (ok + failed) / seconds,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
  };
}

// ---------------------------------------------------------------------------------------------
// Sampling: CPU of each process group from /proc, progress from /metrics, PostgreSQL activity.

interface Sample {
  t: number; // epoch ms
  cpu: { serve: number; workers: number; postgres: number; bench: number };
  /** CPU seconds of each worker process, in start order. */
  perWorker: number[];
  sysBusy: number; // seconds of CPU busy on the whole machine so far
  sysTotal: number;
  remaining: number; // entries of the window not yet published or failed
  dueNotStarted: number;
  publishing: number;
  pgActive: number;
  pgLockWaits: number;
}

function systemCpu(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = f[3]! + f[4]!; // idle + iowait
  return { busy: (total - idle) / 100, total: total / 100 };
}

/** Share of the machine's CPU busy over `ms` (every process: ours and anyone else's). */
async function machineBusy(ms: number): Promise<number> {
  const a = systemCpu();
  await sleep(ms);
  const b = systemCpu();
  return (b.busy - a.busy) / (b.total - a.total);
}

class Sampler {
  readonly samples: Sample[] = [];
  #stop = false;
  #loop: Promise<void> | undefined;
  // CPU seconds of processes that exited (a pooled backend closing) would vanish from the sums: keep each pid's last reading.
  readonly #lastPg = new Map<number, number>();
  /** Statements seen waiting on a lock (wait event and text), with how many samples saw them. */
  readonly lockWaits = new Map<string, number>();
  /** This run's active backends by what they were doing at each sample (wait event, or CPU when none). */
  readonly activeBy = new Map<string, number>();

  readonly url: string;
  readonly servePid: number;
  readonly workerPids: () => number[];
  /** Far-future entries (the calibration) that stay 'scheduled' throughout. */
  readonly baselineScheduled: number;
  readonly pgClient: pg.Client | undefined;
  readonly dbName: string | undefined;

  constructor(
    url: string,
    servePid: number,
    workerPids: () => number[],
    baselineScheduled: number,
    pgClient: pg.Client | undefined,
    dbName: string | undefined,
  ) {
    this.url = url;
    this.servePid = servePid;
    this.workerPids = workerPids;
    this.baselineScheduled = baselineScheduled;
    this.pgClient = pgClient;
    this.dbName = dbName;
  }

  async sampleOnce(): Promise<Sample> {
    const t = Date.now();
    let text = '';
    try {
      text = await metricsText(this.url);
    } catch {
      /* the next sample will do */
    }
    const scheduled = metricValue(text, 'herald_scheduled_queue_depth{status="scheduled"}');
    const publishing = metricValue(text, 'herald_scheduled_queue_depth{status="publishing"}');
    let pgActive = NaN;
    let pgLockWaits = NaN;
    let postgres = 0;
    if (this.pgClient && this.dbName) {
      // This run's backends, and the server's own background processes (WAL writer, checkpointer…); not the
      // backends of other databases (anything else using the same server).
      const r = await this.pgClient.query<{
        pid: number;
        mine: boolean;
        state: string | null;
        wait_event_type: string | null;
        wait_event: string | null;
        query: string;
      }>(
        `select pid, datname = $1 as mine, state, wait_event_type, wait_event, left(query, 160) as query from pg_stat_activity where (datname = $1 or backend_type <> 'client backend') and pid <> pg_backend_pid()`,
        [this.dbName],
      );
      const active = r.rows.filter((x) => x.mine && x.state === 'active');
      pgActive = active.length;
      for (const a of active) {
        const k = a.wait_event_type ? `${a.wait_event_type}:${a.wait_event}` : 'CPU (no wait event)';
        this.activeBy.set(k, (this.activeBy.get(k) ?? 0) + 1);
      }
      const waiting = r.rows.filter((x) => x.mine && x.wait_event_type === 'Lock');
      pgLockWaits = waiting.length;
      for (const w of waiting) {
        const k = `${w.wait_event}: ${w.query.replace(/\s+/g, ' ')}`;
        this.lockWaits.set(k, (this.lockWaits.get(k) ?? 0) + 1);
      }
      for (const { pid } of r.rows) {
        const c = cpuSeconds(pid);
        if (Number.isFinite(c)) this.#lastPg.set(pid, c);
      }
      for (const c of this.#lastPg.values()) postgres += c;
    }
    const perWorker = this.workerPids().map((p) => cpuSeconds(p) || 0);
    const bench = process.cpuUsage();
    const sys = systemCpu();
    const s: Sample = {
      t,
      cpu: {
        serve: cpuSeconds(this.servePid),
        workers: perWorker.reduce((a, b) => a + b, 0),
        postgres,
        bench: (bench.user + bench.system) / 1e6,
      },
      perWorker,
      sysBusy: sys.busy,
      sysTotal: sys.total,
      remaining: scheduled + publishing - this.baselineScheduled,
      dueNotStarted: metricValue(text, 'herald_scheduled_due_not_started'),
      publishing,
      pgActive,
      pgLockWaits,
    };
    this.samples.push(s);
    return s;
  }

  start(): void {
    this.#loop = (async () => {
      while (!this.#stop) {
        const t = Date.now();
        await this.sampleOnce().catch(() => undefined);
        await sleep(Math.max(0, 1000 - (Date.now() - t)));
      }
    })();
  }

  async stop(): Promise<void> {
    this.#stop = true;
    await this.#loop;
  }

  /** Averages over [from, to] (epoch ms): cores used per group, machine busy share, and maxima of the gauges. */
  summary(from: number, to: number) {
    const inRange = this.samples.filter((s) => s.t >= from - 1000 && s.t <= to + 1000);
    const a = inRange[0];
    const b = inRange[inRange.length - 1];
    if (!a || !b || b.t <= a.t) return undefined;
    const dt = (b.t - a.t) / 1000;
    const cores = (k: keyof Sample['cpu']) => (b.cpu[k] - a.cpu[k]) / dt;
    let maxBusy = 0;
    for (let i = 1; i < inRange.length; i++) {
      const p = inRange[i - 1]!;
      const q = inRange[i]!;
      const total = q.sysTotal - p.sysTotal;
      if (total > 0) maxBusy = Math.max(maxBusy, (q.sysBusy - p.sysBusy) / total);
    }
    const finite = (xs: number[]) => xs.filter(Number.isFinite);
    const max = (xs: number[]) => (finite(xs).length ? Math.max(...finite(xs)) : NaN);
    const avg = (xs: number[]) => (finite(xs).length ? finite(xs).reduce((x, y) => x + y, 0) / finite(xs).length : NaN);
    const busyShare = (b.sysBusy - a.sysBusy) / (b.sysTotal - a.sysTotal);
    const ours = cores('serve') + cores('workers') + cores('postgres') + cores('bench');
    return {
      seconds: dt,
      serve: cores('serve'),
      workers: cores('workers'),
      maxWorker: b.perWorker.length ? Math.max(...b.perWorker.map((c, i) => (c - (a.perWorker[i] ?? 0)) / dt)) : NaN,
      postgres: cores('postgres'),
      bench: cores('bench'),
      /** Cores busy with processes outside this run (other jobs on the machine, the kernel). */
      other: Math.max(0, busyShare * CORES - ours),
      busyShare,
      maxBusyShare: maxBusy,
      maxDueNotStarted: max(inRange.map((s) => s.dueNotStarted)),
      maxPublishing: max(inRange.map((s) => s.publishing)),
      pgActiveAvg: avg(inRange.map((s) => s.pgActive)),
      pgActiveMax: max(inRange.map((s) => s.pgActive)),
      pgLockWaitsMax: max(inRange.map((s) => s.pgLockWaits)),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Processes and databases.

function startWorker(env: Record<string, string>, logPath: string): ChildProcess {
  const { DATABASE_URL: _d, ...base } = E;
  return spawn(process.execPath, [...startFlags(CLI), CLI, 'worker'], {
    env: { ...base, HERALD_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', openSync(logPath, 'a')],
  });
}

async function stopChild(child: ChildProcess, timeoutMs = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

async function pgAdmin(): Promise<pg.Client | undefined> {
  const c = new pg.Client({ connectionString: CFG.pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    return c;
  } catch (err) {
    console.log(
      `  !! PostgreSQL at ${CFG.pgUrl.replace(/\/\/[^@]*@/, '//…@')} is not reachable (${(err as Error).message}): the PostgreSQL scenarios are SKIPPED.`,
    );
    return undefined;
  }
}

function databaseUrl(name: string): string {
  const u = new URL(CFG.pgUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

// ---------------------------------------------------------------------------------------------
// Results from the database.

interface ResultRow {
  scheduled_time: Date;
  published_at: Date | null;
  status: string;
  claimed_at: Date | null;
  claim_reason: string | null;
  error_message: string | null;
  attempts: number;
  retry_reason: string | null;
}

const RESULTS_SQL = `
  select sp.scheduled_time, sp.published_at, sp.status, sp.error_message, sp.attempts,
    (select e.reason from scheduled_post_events e where e.scheduled_post_id = sp.id and e.reason like 'attempt % failed, retry at %' order by e.seq limit 1) as retry_reason,
    (select e.at from scheduled_post_events e where e.scheduled_post_id = sp.id and e.to_status = 'publishing' order by e.seq limit 1) as claimed_at,
    (select e.reason from scheduled_post_events e where e.scheduled_post_id = sp.id and e.to_status = 'publishing' order by e.seq limit 1) as claim_reason
  from scheduled_posts sp
  where sp.scheduled_time < now() + interval '1 day'`;

interface Outcome {
  scenario: Scenario;
  created: Created;
  calibrationRps: number;
  leadSeconds: number;
  overrunSeconds: number;
  published: number;
  failed: number;
  pending: number;
  firstError: string | undefined;
  lag: { first: number; p50: number; p99: number; max: number };
  claimLag: { p50: number; p99: number; max: number };
  service: { p50: number; p99: number };
  allDoneAfterMs: number;
  throughput: number;
  peak5s: number;
  offered: number;
  queueClaims: number;
  scanClaims: number;
  sandboxPosts: number;
  callsPerPost: string;
  retried: number;
  retryReasons: [string, number][];
  cpu: ReturnType<Sampler['summary']>;
  logs: string[];
  timedOut: boolean;
  busyBefore: number;
  lockWaits: [string, number][];
  /** This run's active PostgreSQL backends by wait event over the samples (share of backend-samples). */
  activeBy: [string, number][];
  /** SQL of the `herald serve` process per published post (its /metrics counters): with the in-process worker (PGlite), the worker's statements. */
  serveSql: { statements: number; transactions: number } | undefined;
  /** PostgreSQL work per published post while draining (pg_stat_database): transactions (each statement outside one counts), rows written and read. */
  dbPerPost:
    | {
        xacts: number;
        rollbacks: number;
        inserted: number;
        updated: number;
        fetched: number;
        blksRead: number;
        blksHit: number;
        deadlocks: number;
      }
    | undefined;
}

interface DbCounters {
  xacts: number;
  rollbacks: number;
  inserted: number;
  updated: number;
  fetched: number;
  blksRead: number;
  blksHit: number;
  deadlocks: number;
}

/** The serve process's own SQL counters (herald_db_statements_total, herald_db_transactions_total); undefined on a tree without them. */
async function serveCounters(url: string): Promise<{ statements: number; transactions: number } | undefined> {
  try {
    const text = await metricsText(url);
    const statements = metricValue(text, 'herald_db_statements_total');
    const transactions = metricValue(text, 'herald_db_transactions_total');
    return Number.isFinite(statements) ? { statements, transactions } : undefined;
  } catch {
    return undefined;
  }
}
async function dbCounters(c: pg.Client | undefined, db: string | undefined): Promise<DbCounters | undefined> {
  if (!c || !db) return undefined;
  // Statistics reach the shared view within about a second: ask for a fresh snapshot.
  await c.query('select pg_stat_clear_snapshot()');
  const r = await c.query<Record<keyof DbCounters, string>>(
    `select xact_commit + xact_rollback as "xacts", xact_rollback as "rollbacks", tup_inserted as "inserted",
       tup_updated as "updated", tup_fetched as "fetched", blks_read as "blksRead", blks_hit as "blksHit",
       deadlocks as "deadlocks"
     from pg_stat_database where datname = $1`,
    [db],
  );
  const row = r.rows[0];
  return row
    ? (Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as DbCounters)
    : undefined;
}

function analyse(rows: ResultRow[], t0: number) {
  const published = rows.filter((r) => r.status === 'published' && r.published_at);
  const lags = published.map((r) => r.published_at!.getTime() - r.scheduled_time.getTime()).sort((a, b) => a - b);
  const claimed = rows.filter((r) => r.claimed_at);
  const claimLags = claimed.map((r) => r.claimed_at!.getTime() - r.scheduled_time.getTime()).sort((a, b) => a - b);
  const service = published
    .filter((r) => r.claimed_at)
    .map((r) => r.published_at!.getTime() - r.claimed_at!.getTime())
    .sort((a, b) => a - b);
  const times = published.map((r) => r.published_at!.getTime()).sort((a, b) => a - b);
  let peak = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! > 5000) j++;
    peak = Math.max(peak, i - j + 1);
  }
  const first = times[0] ?? NaN;
  const last = times[times.length - 1] ?? NaN;
  return {
    published: published.length,
    failed: rows.filter((r) => r.status === 'failed').length,
    pending: rows.filter((r) => r.status === 'scheduled' || r.status === 'publishing').length,
    firstError: rows.find((r) => r.status === 'failed')?.error_message ?? undefined,
    lag: { first: lags[0] ?? NaN, p50: pct(lags, 50), p99: pct(lags, 99), max: lags[lags.length - 1] ?? NaN },
    claimLag: { p50: pct(claimLags, 50), p99: pct(claimLags, 99), max: claimLags[claimLags.length - 1] ?? NaN },
    service: { p50: pct(service, 50), p99: pct(service, 99) },
    allDoneAfterMs: last - t0,
    throughput: times.length > 1 ? times.length / ((last - first) / 1000) : NaN,
    peak5s: peak / 5,
    queueClaims: claimed.filter((r) => r.claim_reason?.includes('(queue)')).length,
    scanClaims: claimed.filter((r) => r.claim_reason?.includes('(scan)')).length,
    retried: rows.filter((r) => r.attempts > 1).length,
    // The reasons of the first transient failures, without their retry times.
    retryReasons: [
      ...rows.reduce((m, r) => {
        if (!r.retry_reason) return m;
        const k = r.retry_reason.replace(/^attempt \d+ failed, retry at \S+: /, '').slice(0, 200);
        return m.set(k, (m.get(k) ?? 0) + 1);
      }, new Map<string, number>()),
    ]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 3),
  };
}

// ---------------------------------------------------------------------------------------------
// One scenario.

async function runScenario(s: Scenario, admin: pg.Client | undefined): Promise<Outcome> {
  const label = scenarioLabel(s);
  console.log(`\n-- ${label}: ${s.posts} posts due over ${s.windowS} s`);
  // Other jobs on the machine distort every figure: wait (a while) for it to be quiet, and say how busy it was.
  let idleBefore = await machineBusy(2000);
  for (const end = Date.now() + QUIET_WAIT_S * 1000; idleBefore > 0.2 && Date.now() < end; )
    idleBefore = await machineBusy(3000);
  console.log(
    `  machine ${fmt(idleBefore * 100, 0)}% busy before the run${idleBefore > 0.2 ? ` (other jobs: waited ${QUIET_WAIT_S} s for it to be quiet; the figures are disturbed)` : ''}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-sched-'));
  const logDir = mkdtempSync(join(tmpdir(), 'herald-bench-sched-logs-'));
  const dbName = s.db === 'pg' ? `herald_bench_${process.pid}_${Date.now()}` : undefined;
  let herald: ServerProcess | undefined;
  const workers: ChildProcess[] = [];
  let statsClient: pg.Client | undefined;
  let sampler: Sampler | undefined;
  try {
    if (dbName) await admin!.query(`create database "${dbName}"`);
    const dbUrl = dbName ? databaseUrl(dbName) : undefined;
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    herald = await startHerald(
      {
        HERALD_DATA_DIR: dir,
        HERALD_SANDBOX: '1',
        PORT: String(port),
        HERALD_PUBLIC_URL: publicUrl,
        HERALD_WORKER_IN_PROCESS: s.workers > 0 ? '0' : '1',
        ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
      },
      { stderrPath: join(logDir, 'serve.log') },
    );
    const url = herald.url;
    // One workspace (one user, one Bluesky account) by default; HERALD_BENCH_SCHED_WORKSPACES spreads the posts round-robin.
    const auth: Record<string, string>[] = [];
    for (let w = 0; w < CFG.workspaces; w++) {
      const session = await postJson<{ access_token: string }>(`${url}/auth/signup`, {
        email: `bench${w}@example.test`,
        password: 'benchmark password',
      });
      const ws = (await (
        await fetch(`${url}/workspaces`, { headers: { authorization: `Bearer ${session.access_token}` } })
      ).json()) as { id: string }[];
      auth.push({ authorization: `Bearer ${session.access_token}`, 'x-workspace-id': ws[0]!.id });
      await postJson(
        `${url}/unified/oauth/url`,
        { platform: ['bluesky'], handle: `bench${w}.sandbox`, app_password: 'abcd-efgh-ijkl-mnop' },
        auth[w],
      );
    }
    await postJson(`${url}/sandbox/_config`, { latencyMs: CFG.latencyMs, processingMs: 0, maxRequests: 1_000_000 });

    // Worker processes start before the entries exist, as they would be running in production.
    for (let i = 0; i < s.workers; i++) {
      workers.push(
        startWorker(
          { DATABASE_URL: dbUrl!, HERALD_DATA_DIR: dir, HERALD_PUBLIC_URL: publicUrl, HERALD_SANDBOX: '1' },
          join(logDir, `worker-${i + 1}.log`),
        ),
      );
    }

    // Calibration: creation far in the future (those entries stay, never due) to learn how long the real
    // creation takes, so the window can start right after it.
    const runId = Date.now().toString(36);
    const far = new Date(Date.now() + FAR_FUTURE_DAYS * 86_400_000).toISOString();
    const bulk = CFG.seed === 'bulk';
    const create = (o: {
      count: number;
      timeOf: (i: number) => string;
      text: (i: number) => string;
      untilMs?: number;
      rowsPerFile?: number;
    }) =>
      bulk
        ? importPosts(url, auth, { rowsPerFile: CFG.bulkRows, ...o, concurrency: CFG.bulkConcurrency })
        : createPosts(url, auth, { ...o, concurrency: CFG.createConcurrency });
    // A spike of other work on the machine only ever slows a measurement down: take the best of three (API: 1.5 s
    // of requests each; bulk: files of 2,000 rows, as many at once as the real creation sends).
    const calFile = Math.min(2000, CFG.bulkRows);
    const calRows = bulk ? calFile * CFG.bulkConcurrency : 1e9;
    const warm = await create({
      count: bulk ? calFile : 1e9,
      rowsPerFile: calFile,
      timeOf: () => far,
      text: (i) => `Warm-up ${runId} #${i}`,
      untilMs: 1000,
    });
    const cals: Created[] = [];
    for (let k = 0; k < 3; k++)
      cals.push(
        await create({
          count: calRows,
          rowsPerFile: calFile,
          timeOf: () => far,
          text: (i) => `Calibration ${runId}.${k} #${i}`,
          untilMs: 1500,
        }),
      );
    const failedCal = [warm, ...cals].find((c) => c.failed);
    if (failedCal) throw new Error(`creating entries fails: ${failedCal.firstError}`);
    const cal = { rps: Math.max(...cals.map((c) => c.rps)), ok: cals.reduce((n, c) => n + c.ok, 0) };
    const leadSeconds = Math.ceil((s.posts / cal.rps) * 1.25 + 5);
    const t0 = Math.ceil((Date.now() + leadSeconds * 1000) / 1000) * 1000;
    const step = (s.windowS * 1000) / s.posts;
    console.log(
      `  creation (${bulk ? `bulk import, ${CFG.bulkRows} rows a file, ${CFG.bulkConcurrency} at once` : `API, ${CFG.createConcurrency} POSTs at once`}) measured at ${fmt(cal.rps, 0)} entries/s (${warm.ok + cal.ok} far-future entries); the window starts in ${leadSeconds} s`,
    );

    // The entries, in the order they fall due.
    const created = await create({
      count: s.posts,
      timeOf: (i) => new Date(t0 + Math.floor(i * step)).toISOString(),
      text: (i) => `Bench ${runId} post #${i}`,
    });
    const overrunSeconds = Math.max(0, (Date.now() - t0) / 1000);
    console.log(
      `  created ${created.ok}/${s.posts} in ${fmt(created.seconds, 1)} s (${fmt(created.rps, 0)} entries/s; ${bulk ? `per file of ${CFG.bulkRows}` : 'per request'} p50 ${ms(created.p50)} ms, p99 ${ms(created.p99)} ms, ${bulk ? CFG.bulkConcurrency : CFG.createConcurrency} in parallel)${created.failed ? `; ${created.failed} FAILED, first: ${created.firstError}` : ''}`,
    );
    if (overrunSeconds > 0)
      console.log(
        `  !! creation overran the window's start by ${fmt(overrunSeconds, 1)} s: the first posts were late before any worker could take them`,
      );
    for (const [i, w] of workers.entries())
      if (w.exitCode !== null) throw new Error(`worker ${i + 1} exited with ${w.exitCode}; see ${logDir}`);

    // Sample from now until everything is published (or the drain timeout).
    if (dbUrl) {
      statsClient = new pg.Client({ connectionString: CFG.pgUrl });
      await statsClient.connect();
    }
    sampler = new Sampler(
      url,
      herald.child.pid!,
      () => workers.map((w) => w.pid!).filter(Boolean),
      warm.ok + cal.ok,
      statsClient,
      dbName,
    );
    const countersBefore = await dbCounters(statsClient, dbName);
    const serveBefore = await serveCounters(url);
    sampler.start();
    const deadline = t0 + s.windowS * 1000 + CFG.drainTimeoutS * 1000;
    let timedOut = false;
    let lastPrint = 0;
    for (;;) {
      await sleep(1000);
      const last = sampler.samples[sampler.samples.length - 1];
      if (last && Date.now() >= t0 && last.remaining <= 0) break;
      if (Date.now() > deadline) {
        timedOut = true;
        console.log(
          `  !! not drained ${CFG.drainTimeoutS} s after the window's end (HERALD_BENCH_SCHED_DRAIN_TIMEOUT_S): ${last?.remaining} entries still pending`,
        );
        break;
      }
      if (last && Date.now() >= t0 && Date.now() - lastPrint >= 15_000) {
        lastPrint = Date.now();
        console.log(
          `  t+${fmt((Date.now() - t0) / 1000, 0).padStart(3)} s: ${s.posts - last.remaining} done, ${last.publishing} publishing, ${last.dueNotStarted} due and not claimed`,
        );
      }
    }
    await sampler.stop();
    await sleep(dbName ? 1500 : 0); // let the last statistics arrive
    const countersAfter = await dbCounters(statsClient, dbName);
    const serveAfter = await serveCounters(url);

    // Worker processes stop first (their runs in flight finish), so the simulator and the database agree.
    await Promise.all(workers.map((w) => stopChild(w)));
    // The simulator's view: posts it holds (exactly once) and calls made per post. (PGlite: the in-process
    // worker still runs until the server stops, so with posts pending the two counts may differ a little.)
    let sandboxPosts = NaN;
    let callsPerPost = '';
    try {
      const st = (await (await fetch(`${url}/sandbox/_state?platform=bluesky`)).json()) as Record<string, unknown>;
      const slice = ((st.bluesky as object | undefined) ?? st) as {
        posts: unknown[];
        requests: { method: string; path: string; at: string }[];
      };
      sandboxPosts = slice.posts.length;
      const counts = new Map<string, number>();
      for (const r of slice.requests) {
        if (new Date(r.at).getTime() < t0 - leadSeconds * 1000 - 5000) continue;
        const k = `${r.method} ${r.path.replace(/^.*\/xrpc\//, '')}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      callsPerPost = [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ×${fmt(n / Math.max(1, sandboxPosts), 2)}`)
        .join(', ');
    } catch (err) {
      callsPerPost = `(sandbox state unavailable: ${(err as Error).message})`;
    }

    // Results from the database: PostgreSQL now; PGlite once the server has let go of its directory.
    let rows: ResultRow[];
    if (dbUrl) {
      const c = new pg.Client({ connectionString: dbUrl });
      await c.connect();
      rows = (await c.query<ResultRow>(RESULTS_SQL)).rows;
      await c.end();
    } else {
      await herald.stop();
      herald = undefined;
      const db = new PGlite(join(dir, 'pglite'));
      await db.waitReady;
      rows = (await db.query<ResultRow>(RESULTS_SQL)).rows;
      await db.close();
    }
    const a = analyse(rows, t0);
    const cpu = sampler.summary(t0, t0 + Math.max(a.allDoneAfterMs || 0, 1000));
    const outcome: Outcome = {
      scenario: s,
      created,
      calibrationRps: cal.rps,
      leadSeconds,
      overrunSeconds,
      ...a,
      offered: s.posts / s.windowS,
      sandboxPosts,
      callsPerPost,
      cpu,
      logs: [],
      timedOut,
      busyBefore: idleBefore,
      lockWaits: [...sampler.lockWaits].sort((x, y) => y[1] - x[1]).slice(0, 3),
      serveSql:
        serveBefore && serveAfter && a.published
          ? {
              statements: (serveAfter.statements - serveBefore.statements) / a.published,
              transactions: (serveAfter.transactions - serveBefore.transactions) / a.published,
            }
          : undefined,
      activeBy: (() => {
        const total = [...sampler.activeBy.values()].reduce((x, y) => x + y, 0);
        return [...sampler.activeBy]
          .sort((x, y) => y[1] - x[1])
          .slice(0, 6)
          .map(([k, n]): [string, number] => [k, n / Math.max(1, total)]);
      })(),
      dbPerPost:
        countersBefore && countersAfter && a.published
          ? {
              xacts: (countersAfter.xacts - countersBefore.xacts) / a.published,
              rollbacks: (countersAfter.rollbacks - countersBefore.rollbacks) / a.published,
              inserted: (countersAfter.inserted - countersBefore.inserted) / a.published,
              updated: (countersAfter.updated - countersBefore.updated) / a.published,
              fetched: (countersAfter.fetched - countersBefore.fetched) / a.published,
              blksRead: (countersAfter.blksRead - countersBefore.blksRead) / a.published,
              blksHit: (countersAfter.blksHit - countersBefore.blksHit) / a.published,
              deadlocks: countersAfter.deadlocks - countersBefore.deadlocks,
            }
          : undefined,
    };
    printOutcome(outcome);
    return outcome;
  } finally {
    await sampler?.stop();
    await Promise.all(workers.map((w) => stopChild(w)));
    await herald?.stop();
    await statsClient?.end().catch(() => undefined);
    if (dbName)
      await admin!
        .query(`drop database if exists "${dbName}" with (force)`)
        .catch((err: unknown) => console.log(`  !! could not drop ${dbName}: ${(err as Error).message}`));
    rmSync(dir, { recursive: true, force: true });
    reportLogs(logDir);
  }
}

function reportLogs(logDir: string): void {
  let any = false;
  for (const f of readdirSync(logDir)) {
    const p = join(logDir, f);
    if (statSync(p).size === 0) continue;
    any = true;
    const lines = readFileSync(p, 'utf8').trim().split('\n');
    console.log(
      `  ${f}: ${lines.length} log line(s) at warn or above; last: ${lines[lines.length - 1]!.slice(0, 400)}`,
    );
  }
  if (any || CFG.keepLogs) console.log(`  logs kept in ${logDir}`);
  else rmSync(logDir, { recursive: true, force: true });
}

function scenarioLabel(s: Scenario): string {
  const where =
    s.db === 'pg'
      ? `PostgreSQL, ${s.workers} worker process${s.workers === 1 ? '' : 'es'}`
      : 'PGlite, in-process worker';
  return `${s.target ? 'target check' : 'load'} ${s.posts}/${s.windowS}s, ${where}`;
}

function printOutcome(o: Outcome): void {
  console.log(
    `  published ${o.published}/${o.scenario.posts}, failed ${o.failed}, pending ${o.pending}; sandbox holds ${o.sandboxPosts} posts; calls per post: ${o.callsPerPost || '–'}` +
      (o.firstError ? `\n  first failure: ${o.firstError.slice(0, 300)}` : ''),
  );
  console.log(
    `  lag (published − scheduled): first ${ms(o.lag.first)} ms, p50 ${ms(o.lag.p50)} ms, p99 ${ms(o.lag.p99)} ms, max ${ms(o.lag.max)} ms; claim lag p50 ${ms(o.claimLag.p50)} / p99 ${ms(o.claimLag.p99)} ms; claim→published p50 ${ms(o.service.p50)} / p99 ${ms(o.service.p99)} ms`,
  );
  console.log(
    (o.pending
      ? `  NOT all published: ${o.pending} still pending when the bench stopped waiting, ${secs(o.allDoneAfterMs)} s after the first due time (at ${fmt(o.throughput, 1)} posts/s they would need about ${fmt(o.pending / o.throughput, 0)} s more);`
      : `  all published ${secs(o.allDoneAfterMs)} s after the first due time;`) +
      ` throughput ${fmt(o.throughput, 1)} posts/s (peak 5 s: ${fmt(o.peak5s, 1)}; offered ${fmt(o.offered, 1)}/s); claims by pg-boss wake-up ${o.queueClaims}, by scan ${o.scanClaims}` +
      (o.scenario.target
        ? `\n  target lag p99 < ${TARGET_P99_MS} ms: ${o.lag.p99 < TARGET_P99_MS && o.pending === 0 && o.failed === 0 ? 'met' : 'NOT met'}`
        : ''),
  );
  const c = o.cpu;
  if (c) {
    console.log(
      `  CPU over the drain (${fmt(c.seconds, 0)} s, in cores of ${CORES}): serve ${fmt(c.serve, 2)}, workers ${fmt(c.workers, 2)}${o.scenario.workers > 1 ? ` (busiest ${fmt(c.maxWorker, 2)})` : ''}, postgres ${fmt(c.postgres, 2)}, bench ${fmt(c.bench, 2)}, other processes ${fmt(c.other, 2)}; machine busy ${fmt(c.busyShare * 100, 0)}% (max 1 s ${fmt(c.maxBusyShare * 100, 0)}%)` +
        `; max due-not-claimed ${ms(c.maxDueNotStarted)}, max publishing ${ms(c.maxPublishing)}` +
        (Number.isFinite(c.pgActiveMax)
          ? `; PostgreSQL active backends avg ${fmt(c.pgActiveAvg, 1)} / max ${c.pgActiveMax}, max waiting on locks ${c.pgLockWaitsMax}`
          : ''),
    );
  }
  if (o.dbPerPost)
    console.log(
      `  PostgreSQL per published post (pg_stat_database of this run's database, sampling included): ${fmt(o.dbPerPost.xacts, 1)} transactions (${fmt(o.dbPerPost.rollbacks, 2)} rolled back), ${fmt(o.dbPerPost.inserted, 1)} rows inserted, ${fmt(o.dbPerPost.updated, 1)} updated, ${fmt(o.dbPerPost.fetched, 0)} fetched, ${fmt(o.dbPerPost.blksHit, 0)} buffer hits, ${fmt(o.dbPerPost.blksRead, 2)} blocks read; deadlocks ${o.dbPerPost.deadlocks}; CPU per post: ${o.cpu ? fmt(((o.cpu.serve + o.cpu.workers + o.cpu.postgres) * o.cpu.seconds * 1000) / Math.max(1, o.published), 1) : '–'} ms (serve + workers + postgres)`,
    );
  else if (o.cpu)
    console.log(
      `  CPU per post: ${fmt(((o.cpu.serve + o.cpu.workers + o.cpu.postgres) * o.cpu.seconds * 1000) / Math.max(1, o.published), 1)} ms (serve, PGlite included)`,
    );
  if (o.serveSql && o.scenario.workers === 0)
    console.log(
      `  SQL per published post (serve process: API, sandbox and in-process worker, /metrics sampling included): ${fmt(o.serveSql.statements, 1)} statements, ${fmt(o.serveSql.transactions, 2)} transactions`,
    );
  if (o.retried)
    console.log(
      `  ${o.retried} post(s) needed more than one attempt (a transient failure, then the backoff of 30 s or more); first failures: ${o.retryReasons.map(([r, n]) => `${n}× ${r}`).join(' | ')}`,
    );
  for (const [q, n] of o.lockWaits) console.log(`  waiting on a lock in ${n} backend-sample(s): ${q}`);
  if (o.activeBy.length)
    console.log(
      `  PostgreSQL active backends by wait event (share of backend-samples, 1 s apart): ${o.activeBy.map(([k, x]) => `${k} ${fmt(x * 100, 0)}%`).join(', ')}`,
    );
}

/** A reading of the figures, not a proof: what limited this run. */
function bottleneck(o: Outcome): string {
  const c = o.cpu;
  if (!c) return '–';
  const keptUp = o.lag.p99 < TARGET_P99_MS && o.pending === 0;
  const ours = c.serve + c.workers + c.postgres + c.bench;
  const groups = [
    ['postgres', c.postgres],
    ['serve', c.serve],
    ['workers', c.workers],
    ['bench', c.bench],
    ['other', c.other],
  ]
    .filter(([, v]) => (v as number) > 0.05)
    .sort((a, b) => (b[1] as number) - (a[1] as number))
    .map(([k, v]) => `${k} ${fmt(v as number, 2)}`)
    .join(', ');
  const busy = `machine ${fmt(c.busyShare * 100, 0)}% busy: ${groups}`;
  if (keptUp) return `none reached: kept up with the offered rate (${busy})`;
  // A Node process runs its JavaScript (and PGlite, which is WebAssembly in the same thread) on one core.
  const single = o.scenario.workers > 0 ? c.maxWorker : c.serve;
  const who = o.scenario.workers > 0 ? 'a worker process' : 'the serve process (API + worker + PGlite in one thread)';
  if (c.busyShare >= 0.85 && ours >= 0.75 * CORES) return `the ${CORES} cores (${busy})`;
  if (single >= 0.85) return `${who}'s single thread at ${fmt(single, 2)} core (${busy})`;
  if (c.busyShare >= 0.85) return `the cores, shared with other jobs (${busy})`;
  if (c.pgLockWaitsMax > 2) return `database locks: up to ${c.pgLockWaitsMax} backends waiting (${busy})`;
  return `not CPU (${busy}): slots × latency, or waiting`;
}

function printTables(outcomes: Outcome[]): void {
  if (!outcomes.length) return;
  console.log(
    `\n== Scheduling under load: summary (sandbox latency ${CFG.latencyMs} ms per call, ${CORES} cores; lag = published_at − scheduled_time)`,
  );
  const head = [
    'scenario',
    'posts',
    'create/s',
    'published',
    'failed',
    'first',
    'p50',
    'p99',
    'max',
    'claim p99',
    'all done',
    'posts/s',
    'peak 5s',
  ];
  const rows = outcomes.map((o) => [
    scenarioLabel(o.scenario),
    String(o.scenario.posts),
    fmt(o.created.rps, 0),
    `${o.published}${o.pending ? ` (+${o.pending} pending)` : ''}`,
    String(o.failed),
    `${secs(o.lag.first)} s`,
    `${secs(o.lag.p50)} s`,
    `${o.pending ? '≥ ' : ''}${secs(o.lag.p99)} s`,
    `${o.pending ? '≥ ' : ''}${secs(o.lag.max)} s`,
    `${secs(o.claimLag.p99)} s`,
    `${o.pending ? '> ' : ''}${secs(o.allDoneAfterMs)} s`,
    fmt(o.throughput, 1),
    fmt(o.peak5s, 1),
  ]);
  printTable(head, rows);
  console.log(
    '  (all done: from the first due time until the last post was published; posts/s: published ÷ (last − first publication); offered rate = posts ÷ window)',
  );
  console.log(
    `\n  CPU while draining (first due time → last publication), in cores of ${CORES}; busiest = the busiest worker process; other = processes outside this run; machine = share of all cores busy; before = machine busy just before the run`,
  );
  const cpuHead = [
    'scenario',
    'serve',
    'workers',
    'busiest',
    'postgres',
    'bench',
    'other',
    'machine',
    'max 1 s',
    'before',
    'pg active',
    'lock waits',
    'bottleneck',
  ];
  const cpuRows = outcomes.map((o) => {
    const c = o.cpu;
    return [
      scenarioLabel(o.scenario),
      c ? fmt(c.serve, 2) : '–',
      c && o.scenario.workers ? fmt(c.workers, 2) : '–',
      c && o.scenario.workers ? fmt(c.maxWorker, 2) : '–',
      c && o.scenario.db === 'pg' ? fmt(c.postgres, 2) : '(in serve)',
      c ? fmt(c.bench, 2) : '–',
      c ? fmt(c.other, 2) : '–',
      c ? `${fmt(c.busyShare * 100, 0)}%` : '–',
      c ? `${fmt(c.maxBusyShare * 100, 0)}%` : '–',
      `${fmt(o.busyBefore * 100, 0)}%`,
      c && Number.isFinite(c.pgActiveMax) ? `${fmt(c.pgActiveAvg, 1)}/${c.pgActiveMax}` : '–',
      c && Number.isFinite(c.pgLockWaitsMax) ? String(c.pgLockWaitsMax) : '–',
      bottleneck(o),
    ];
  });
  printTable(cpuHead, cpuRows);
  for (const o of outcomes.filter((x) => x.scenario.target)) {
    console.log(
      `  target (lag p99 < ${TARGET_P99_MS} ms for ${o.scenario.posts} posts/${o.scenario.windowS} s, one worker) on ${o.scenario.db === 'pg' ? 'PostgreSQL' : 'PGlite'}: p50 ${ms(o.lag.p50)} ms, p99 ${ms(o.lag.p99)} ms → ${o.lag.p99 < TARGET_P99_MS && o.pending === 0 && o.failed === 0 ? 'met' : 'NOT met'}`,
    );
  }
}

function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `  ${cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd()}`;
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

export async function benchScheduling(): Promise<void> {
  console.log(
    `\n== Scheduling under load (the scheduling issue): posts due within ${CFG.windowS} s to the Bluesky simulator, ${CFG.latencyMs} ms latency per call, ${CFG.workspaces} workspace${CFG.workspaces === 1 ? '' : 's'}`,
  );
  const settings = Object.entries(E)
    .filter(([k]) => k.startsWith('HERALD_SCHEDULER_') || k === 'HERALD_PUBLISH_WAIT_SECONDS')
    .map(([k, v]) => `${k}=${v}`);
  const config = readFileSync(join(import.meta.dirname, '../src/config/scheduling.ts'), 'utf8');
  console.log(
    `  worker settings: ${settings.length ? settings.join(' ') : 'defaults'}${config.includes('HERALD_SCHEDULER_CONCURRENCY') ? '' : ' (this tree has no HERALD_SCHEDULER_CONCURRENCY: one batch at a time per loop)'}`,
  );
  const scenarios: Scenario[] = [];
  for (const key of CFG.scenarios) {
    if (key === 'target-pg')
      scenarios.push({ key, db: 'pg', workers: 1, posts: CFG.targetPosts, windowS: CFG.windowS, target: true });
    else if (key === 'target-pglite')
      scenarios.push({ key, db: 'pglite', workers: 0, posts: CFG.targetPosts, windowS: CFG.windowS, target: true });
    else if (key === 'pg')
      for (const n of CFG.workers)
        scenarios.push({ key, db: 'pg', workers: n, posts: CFG.posts, windowS: CFG.windowS, target: false });
    else if (key === 'pglite')
      scenarios.push({ key, db: 'pglite', workers: 0, posts: CFG.posts, windowS: CFG.windowS, target: false });
    else
      throw new Error(`HERALD_BENCH_SCHED_SCENARIOS: unknown scenario '${key}' (target-pg, target-pglite, pg, pglite)`);
  }
  const admin = scenarios.some((s) => s.db === 'pg') ? await pgAdmin() : undefined;
  const outcomes: Outcome[] = [];
  const started = Date.now();
  try {
    for (const s of scenarios) {
      if (s.db === 'pg' && !admin) continue;
      try {
        outcomes.push(await runScenario(s, admin));
      } catch (err) {
        console.log(
          `  !! ${scenarioLabel(s)} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        );
      }
    }
  } finally {
    await admin?.end();
  }
  printTables(outcomes);
  console.log(`  (scheduling section: ${fmt((Date.now() - started) / 60_000, 1)} min)`);
}
