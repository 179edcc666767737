// `npm run bench soak`: a real `herald serve` (sandbox mode; embedded PGlite, or a fresh PostgreSQL database with
// DATABASE_URL) under a steady mixed load for BENCH_SOAK_MINUTES (60): text posts published through the adapters to
// the in-process simulators, scheduled posts due 60 s later (published by the scheduler during the run), small image
// uploads (each deleted again), inbox reads (comments and the read state), MCP tools/call get_accounts, and agent
// turns (two tool calls, then the answer) against a local OpenAI-compatible model server over HTTP.
//
// The rate: BENCH_SOAK_RATE requests/s, or half of the capacity measured first (the same mix, closed loop at 8
// connections, BENCH_SOAK_CAPACITY_SECONDS). Requests arrive open loop at that rate, evenly spaced (a slow server
// does not slow the arrivals; at most 256 are in flight, beyond that an arrival is counted as shed).
//
// One line per minute: requests, errors, p50/p99 per kind, the server's RSS (/proc/<pid>/status), its V8 heap used
// and its event-loop delay p99 (prom-client's default metrics on /metrics: herald_nodejs_eventloop_lag_p99_seconds,
// from perf_hooks.monitorEventLoopDelay at 10 ms resolution, reset at each scrape; read every 5 s, a minute's figure
// is the highest of its twelve 5 s windows). RSS is also split by part (`Memory`: V8's heap, WebAssembly memory, i.e.
// PGlite, malloc, mapped files, the rest; from /proc/<pid>/smaps) and the database's size on disk is read each minute.
// At the end: the least-squares slope of RSS, of the heap and of each part over the run without the first minute, from
// samples every 5 s; the per-minute series as CSV and an SVG plot in BENCH_SOAK_OUT (default: a new temp directory).
//
// `npm run soak:ci` (bench/soak-ci.ts) runs it for 5 minutes at a fixed modest rate and fails on any error or a
// clear RSS growth trend (see there).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { startModelServer, type ModelServer } from '../test/ai-routes/helpers/openai-server.ts';
import {
  benchDatabase,
  connectInSandbox,
  cpuSeconds,
  fmt,
  freePort,
  memoryParts,
  metricsText,
  metricValue,
  postJson,
  rssMiB,
  startHerald,
} from './lib.ts';

export const KINDS = ['post', 'schedule', 'upload', 'inbox', 'mcp', 'agent'] as const;
export type Kind = (typeof KINDS)[number];
/** Requests of each kind per 12 of the mix (an inbox read and an agent turn are two requests each, see `ops`). */
const WEIGHTS: Record<Kind, number> = { post: 2, schedule: 2, upload: 1, inbox: 3, mcp: 3, agent: 1 };

/**
 * The server's resident memory by part, MiB (every 5 s and at the end of each minute). wasm, malloc and file are read
 * from /proc/<pid>/smaps (`memoryParts`); v8 is V8's committed heap (herald_nodejs_heap_size_total_bytes), which sits
 * in the anonymous mappings beside large malloc blocks and stacks: rest is those mappings less v8. The five add up to
 * RSS. external (herald_nodejs_external_memory_bytes: Buffers and other memory V8 objects hold outside the heap) is
 * not a part of its own: it lives in malloc or rest.
 */
export interface Memory {
  rss: number;
  /** V8 heap used. */
  heap: number;
  v8: number;
  wasm: number;
  malloc: number;
  file: number;
  rest: number;
  external: number;
}
export const MEMORY = ['rss', 'heap', 'v8', 'wasm', 'malloc', 'file', 'rest', 'external'] as const;

/** The parts that add up to RSS, in the order printed. */
const PARTS = ['v8', 'wasm', 'malloc', 'file', 'rest'] as const;
const PART_NAMES: Record<(typeof PARTS)[number], string> = {
  v8: 'V8 heap',
  wasm: 'wasm',
  malloc: 'malloc',
  file: 'files',
  rest: 'other anon',
};

export interface Minute {
  minute: number;
  /** Seconds since the load started, at the end of this minute. */
  t: number;
  requests: number;
  errors: number;
  shed: number;
  p50: number;
  p99: number;
  kinds: Record<Kind, { n: number; errors: number; p50: number; p99: number }>;
  rssMiB: number;
  heapMiB: number;
  memory: Memory;
  /** The database's size on disk, MiB: PGlite's data directory, or pg_database_size on PostgreSQL. */
  dbMiB: number;
  loopP99Ms: number;
  /** The server's CPU over the minute, % of one core. */
  cpuPct: number;
  load1: number;
}

export interface SoakResult {
  rate: number;
  capacity: number | null;
  minutes: Minute[];
  /** MiB per minute, least squares over the 5 s samples after the first minute. */
  rssSlope: number;
  heapSlope: number;
  /** The same for each part of the memory. */
  slopes: Memory;
  /** RSS at the end of the first minute and at the end of the run. */
  rssAfterWarmup: number;
  rssEnd: number;
  errors: number;
  errorSamples: string[];
  failedScheduled: number;
  outDir: string;
  /** Memory every 5 s: seconds since the load started, MiB by part. */
  samples: ({ t: number } & Memory)[];
}

export interface SoakOptions {
  minutes: number;
  /** Requests/s; undefined: `fraction` of the measured capacity. */
  rate?: number | undefined;
  /** Of the measured capacity (0.5). */
  fraction?: number | undefined;
  /** How long the capacity is measured; 0: not measured (then `rate` is required). */
  capacitySeconds: number;
  databaseUrl?: string | undefined;
  outDir?: string | undefined;
  /** Simulated network latency per call of the simulators, ms. */
  latencyMs: number;
}

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]! : NaN;

/** Least-squares slope of y over x. */
export function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den ? num / den : NaN;
}

const MEMORY_METRICS = [
  'herald_nodejs_heap_size_used_bytes',
  'herald_nodejs_heap_size_total_bytes',
  'herald_nodejs_external_memory_bytes',
];

/** The memory of the server now: smaps read right after the /metrics figures `m` (see `Memory`). */
function memoryNow(pid: number, m: Record<string, number>): Memory {
  const p = memoryParts(pid);
  const v8 = m.herald_nodejs_heap_size_total_bytes! / 2 ** 20;
  return {
    rss: p.rss,
    heap: m.herald_nodejs_heap_size_used_bytes! / 2 ** 20,
    v8,
    wasm: p.wasm,
    malloc: p.malloc,
    file: p.file,
    rest: p.anon - v8,
    external: m.herald_nodejs_external_memory_bytes! / 2 ** 20,
  };
}

async function metric(url: string, names: string[]): Promise<Record<string, number>> {
  const text = await metricsText(url);
  return Object.fromEntries(names.map((n) => [n, metricValue(text, n)]));
}

type Op = () => Promise<void>;

class Failure extends Error {}

async function expectOk(res: Response, what: string): Promise<unknown> {
  const body = await res.text();
  if (!res.ok) throw new Failure(`${what}: ${res.status} ${body.slice(0, 200)}`);
  return body ? JSON.parse(body) : null;
}

export async function benchSoak(opts: SoakOptions): Promise<SoakResult> {
  const where = opts.databaseUrl ? 'PostgreSQL' : 'PGlite';
  console.log(
    `\n== Soak: a steady mixed load on one \`herald serve\` (sandbox, ${where}) for ${opts.minutes} min; load average at start ${loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'herald-soak-'));
  const outDir = opts.outDir ?? mkdtempSync(join(tmpdir(), 'herald-soak-out-'));
  mkdirSync(outDir, { recursive: true });
  // Pro without the monthly AI credit and storage caps: an hour of agent turns and uploads would exhaust them.
  const plansFile = join(dir, 'plans.json');
  writeFileSync(
    plansFile,
    JSON.stringify({ plans: { pro: { limits: { ai_credits_per_month: null, storage_bytes: null } } } }),
  );
  const db = await benchDatabase(opts.databaseUrl, 'soak');
  const dbUrl = db.url;
  const model: ModelServer = await startModelServer();
  // An agent turn: get_accounts and get_queued_posts in one step, then the answer (as bench/agent.ts scripts it).
  model.chat = (r) =>
    r.messages.some((m) => m.role === 'tool')
      ? 'You have Bluesky and LinkedIn connected; a few posts are queued.'
      : !r.tools?.length
        ? 'The member asked about accounts and queued posts.'
        : {
            tool_calls: [
              { name: 'get_accounts', arguments: {} },
              { name: 'get_queued_posts', arguments: {} },
            ],
          };
  const port = await freePort();
  const herald = await startHerald({
    HERALD_DATA_DIR: dir,
    HERALD_SANDBOX: '1',
    PORT: String(port),
    HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
    HERALD_PLANS_FILE: plansFile,
    HERALD_AI_PROVIDER: 'openai-compatible',
    HERALD_AI_BASE_URL: model.baseUrl,
    HERALD_AI_API_KEY: 'test-key',
    HERALD_AI_MODEL: 'herald-test-chat',
    ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
  });
  const url = herald.url;
  const pid = herald.child.pid!;
  const sizeClient = dbUrl ? new pg.Client({ connectionString: dbUrl }) : undefined;
  const dbMiB = async () =>
    sizeClient
      ? Number((await sizeClient.query('select pg_database_size(current_database()) as n')).rows[0].n) / 2 ** 20
      : readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .reduce((a, e) => a + (statSync(join(e.parentPath, e.name), { throwIfNoEntry: false })?.size ?? 0), 0) /
        2 ** 20;
  // Stopped with Ctrl-C or a kill: the server goes too (it would otherwise outlive this process).
  const onSignal = () => {
    herald.child.kill('SIGTERM');
    process.exit(130);
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    await sizeClient?.connect();
    const session = await postJson<{ access_token: string }>(`${url}/auth/signup`, {
      email: 'soak@example.test',
      password: 'benchmark password',
    });
    const ws = (
      (await (
        await fetch(`${url}/workspaces`, { headers: { authorization: `Bearer ${session.access_token}` } })
      ).json()) as { id: string }[]
    )[0]!.id;
    const auth = { authorization: `Bearer ${session.access_token}`, 'x-workspace-id': ws };
    // The simulators keep the last 1000 requests per network (their default), so their log stays bounded.
    await postJson(`${url}/sandbox/_config`, { latencyMs: opts.latencyMs, processingMs: 0 });
    await postJson(
      `${url}/unified/oauth/url`,
      { platform: ['bluesky'], handle: 'soak.sandbox', app_password: 'abcd-efgh-ijkl-mnop' },
      auth,
    );
    await connectInSandbox(url, auth, 'linkedin');
    const key = (await postJson<{ secret: string }>(`${url}/workspaces/${ws}/api-keys`, { scope: 'full' }, auth))
      .secret;
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 90 } } })
      .png()
      .toBuffer();
    const json = { ...auth, 'content-type': 'application/json' };
    let seq = 0;
    const mcpHeaders = {
      'x-api-key': key,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };

    const ops: Record<Kind, Op> = {
      post: async () => {
        await expectOk(
          await fetch(`${url}/unified/post/text`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ platforms: ['bluesky', 'linkedin'], default_text: `Soak post ${++seq} #herald` }),
          }),
          'post',
        );
      },
      schedule: async () => {
        await expectOk(
          await fetch(`${url}/unified/scheduled-posts`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({
              post_type: 'text',
              platforms: ['bluesky'],
              default_text: `Soak scheduled ${++seq}`,
              scheduled_time: new Date(Date.now() + 60_000).toISOString(),
            }),
          }),
          'schedule',
        );
      },
      upload: async () => {
        const boundary = `----soak${++seq}`;
        const body = Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="media_type"\r\n\r\nimage\r\n--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="soak.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          image,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        const media = (await expectOk(
          await fetch(`${url}/media/upload`, {
            method: 'POST',
            headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
            body,
          }),
          'upload',
        )) as { media_id: string };
        // Deleted again, so storage and the library stay the same size over the run.
        await expectOk(
          await fetch(`${url}/media/${media.media_id}`, { method: 'DELETE', headers: auth }),
          'delete media',
        );
      },
      inbox: async () => {
        await expectOk(await fetch(`${url}/unified/comments`, { headers: auth }), 'comments');
        await expectOk(await fetch(`${url}/unified/comments/read`, { headers: auth }), 'comments read');
      },
      mcp: async () => {
        const r = (await expectOk(
          await fetch(`${url}/mcp`, {
            method: 'POST',
            headers: mcpHeaders,
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: ++seq,
              method: 'tools/call',
              params: { name: 'get_accounts', arguments: {} },
            }),
          }),
          'mcp',
        )) as { result?: { isError?: boolean } };
        if (r.result?.isError !== false) throw new Failure(`mcp: ${JSON.stringify(r).slice(0, 200)}`);
      },
      agent: async () => {
        await expectOk(
          await fetch(`${url}/workspace-agent/website/chat`, {
            method: 'POST',
            headers: { 'x-api-key': key, 'content-type': 'application/json' },
            body: JSON.stringify({ text: 'Which accounts do I have, and what is queued?', workspace_id: ws }),
          }),
          'agent',
        );
      },
    };
    // The mix as a repeating sequence, interleaved so each kind is spread over the cycle.
    const cycle: Kind[] = [];
    const left = { ...WEIGHTS };
    while (Object.values(left).some((n) => n > 0))
      for (const k of KINDS)
        if (left[k] > 0) {
          cycle.push(k);
          left[k]--;
        }
    // Each kind once, so first-use loading is not in the figures.
    for (const k of KINDS) await ops[k]();

    // Per-kind latencies and errors of the current minute.
    type Bucket = { lat: number[]; errors: number };
    let buckets = Object.fromEntries(KINDS.map((k) => [k, { lat: [], errors: 0 } as Bucket])) as Record<Kind, Bucket>;
    let shed = 0;
    let errors = 0;
    const errorSamples: string[] = [];
    let inFlight = 0;
    const run = async (k: Kind) => {
      const t0 = performance.now();
      try {
        await ops[k]();
        buckets[k].lat.push(performance.now() - t0);
      } catch (err) {
        buckets[k].errors++;
        errors++;
        if (errorSamples.length < 20) errorSamples.push(`${k}: ${String((err as Error).message ?? err)}`);
      }
    };

    let capacity: number | null = null;
    let rate = opts.rate;
    if (opts.capacitySeconds > 0) {
      // Closed loop at 8 connections for a while: the completed requests per second is the capacity of this mix.
      let done = 0;
      let i = 0;
      const until = performance.now() + opts.capacitySeconds * 1000;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (performance.now() < until) {
            await run(cycle[i++ % cycle.length]!);
            done++;
          }
        }),
      );
      capacity = done / opts.capacitySeconds;
      console.log(
        `  capacity of the mix: ${fmt(capacity, 1)} requests/s (8 connections, ${opts.capacitySeconds} s, errors ${errors})`,
      );
      rate ??= Math.max(1, Math.round(capacity * (opts.fraction ?? 0.5)));
    }
    if (!rate) throw new Error('soak: no rate (BENCH_SOAK_RATE) and no capacity measured');
    console.log(
      `  soak at ${rate} requests/s (${opts.rate ? 'BENCH_SOAK_RATE' : `${fmt((opts.fraction ?? 0.5) * 100, 0)} % of the capacity`})`,
    );
    console.log(
      `  mix per ${cycle.length}: ${KINDS.map((k) => `${k} ${WEIGHTS[k]}`).join(', ')} (an inbox read is 2 HTTP requests, an agent turn 1 request and 2 model calls)`,
    );
    buckets = Object.fromEntries(KINDS.map((k) => [k, { lat: [], errors: 0 } as Bucket])) as Record<Kind, Bucket>;
    await metric(url, ['herald_nodejs_eventloop_lag_p99_seconds']); // resets the event-loop histogram

    const samples: SoakResult['samples'] = [];
    const minutes: Minute[] = [];
    const start = performance.now();
    const end = start + opts.minutes * 60_000;
    const interval = 1000 / rate;
    let next = start;
    let n = 0;
    let stopping = false;
    const pending = new Set<Promise<void>>();
    // Arrivals: a timer wakes every 10 ms and starts every request whose time has come.
    const arrivals = setInterval(() => {
      const now = performance.now();
      while (!stopping && next <= now && next < end) {
        next += interval;
        if (inFlight >= 256) {
          shed++;
          continue;
        }
        inFlight++;
        const p = run(cycle[n++ % cycle.length]!).finally(() => {
          inFlight--;
          pending.delete(p);
        });
        pending.add(p);
      }
    }, 10);
    // Every /metrics read resets prom-client's event-loop histogram: each 5 s read gives that window's p99, and a
    // minute's figure is the highest of its windows.
    let loopMax = 0;
    const sample = async () => {
      try {
        const m = await metric(url, [...MEMORY_METRICS, 'herald_nodejs_eventloop_lag_p99_seconds']);
        const loop = m.herald_nodejs_eventloop_lag_p99_seconds! * 1000;
        if (Number.isFinite(loop)) loopMax = Math.max(loopMax, loop);
        samples.push({ t: (performance.now() - start) / 1000, ...memoryNow(pid, m) });
      } catch {
        /* the next sample */
      }
    };
    const sampler = setInterval(() => void sample(), 5000);
    console.log(
      `  ${'min'.padStart(3)} ${'req'.padStart(6)} ${'err'.padStart(4)} ${'p50'.padStart(5)} ${'p99'.padStart(6)} ${'RSS'.padStart(6)} ${'heap'.padStart(5)} | ${PARTS.map((p) => p.padStart(6)).join(' ')} | ${'db'.padStart(4)} ${'loop99'.padStart(6)} ${'CPU%'.padStart(5)}  per kind: n p50/p99 ms  (MiB; RSS = v8 + wasm + malloc + file + rest; db: on disk)`,
    );
    let cpu0 = cpuSeconds(pid);
    for (let minute = 1; minute <= opts.minutes; minute++) {
      await new Promise((r) => setTimeout(r, Math.max(0, start + minute * 60_000 - performance.now())));
      const b = buckets;
      buckets = Object.fromEntries(KINDS.map((k) => [k, { lat: [], errors: 0 } as Bucket])) as Record<Kind, Bucket>;
      const m = await metric(url, ['herald_nodejs_eventloop_lag_p99_seconds', ...MEMORY_METRICS]);
      const memory = memoryNow(pid, m);
      const loopLast = m.herald_nodejs_eventloop_lag_p99_seconds! * 1000;
      const loopP99Ms = Math.max(loopMax, Number.isFinite(loopLast) ? loopLast : 0);
      loopMax = 0;
      const cpu1 = cpuSeconds(pid);
      const all = KINDS.flatMap((k) => b[k].lat);
      const row: Minute = {
        minute,
        t: (performance.now() - start) / 1000,
        requests: all.length + KINDS.reduce((a, k) => a + b[k].errors, 0),
        errors: KINDS.reduce((a, k) => a + b[k].errors, 0),
        shed,
        p50: pct(all, 50),
        p99: pct(all, 99),
        kinds: Object.fromEntries(
          KINDS.map((k) => [
            k,
            { n: b[k].lat.length + b[k].errors, errors: b[k].errors, p50: pct(b[k].lat, 50), p99: pct(b[k].lat, 99) },
          ]),
        ) as Minute['kinds'],
        rssMiB: rssMiB(pid),
        heapMiB: memory.heap,
        memory,
        dbMiB: await dbMiB(),
        loopP99Ms,
        cpuPct: ((cpu1 - cpu0) / 60) * 100,
        load1: loadavg()[0]!,
      };
      cpu0 = cpu1;
      shed = 0;
      model.requests.length = 0; // the model server's request log would otherwise grow in this process
      minutes.push(row);
      // Written every minute as well, so a run stopped early leaves its figures so far.
      writeFileSync(join(outDir, 'soak.csv'), csv(minutes));
      console.log(
        `  ${String(minute).padStart(3)} ${String(row.requests).padStart(6)} ${String(row.errors).padStart(4)} ${fmt(row.p50, 0).padStart(5)} ${fmt(row.p99, 0).padStart(6)} ${fmt(row.rssMiB, 0).padStart(6)} ${fmt(row.heapMiB, 0).padStart(5)} | ${PARTS.map((p) => fmt(memory[p], 0).padStart(6)).join(' ')} | ${fmt(row.dbMiB, 0).padStart(4)} ${fmt(row.loopP99Ms, 1).padStart(6)} ${fmt(row.cpuPct, 0).padStart(5)}  ${KINDS.map(
          (k) =>
            `${k} ${row.kinds[k].n} ${fmt(row.kinds[k].p50, 0)}/${fmt(row.kinds[k].p99, 0)}${row.kinds[k].errors ? ` (${row.kinds[k].errors} err)` : ''}`,
        ).join('  ')}${row.shed ? `  shed ${row.shed}` : ''}`,
      );
    }
    stopping = true;
    clearInterval(arrivals);
    clearInterval(sampler);
    await Promise.all(pending);
    // The scheduled posts are all due by now (60 s after the last one, plus the scheduler's pickup).
    await new Promise((r) => setTimeout(r, 65_000));
    const failed = (await expectOk(
      await fetch(`${url}/unified/scheduled-posts?status=failed&limit=100`, { headers: auth }),
      'failed scheduled posts',
    )) as { data: { scheduled_posts: unknown[] } };
    const failedScheduled = failed.data.scheduled_posts.length;

    const after = samples.filter((s) => s.t >= 60);
    const slopes = Object.fromEntries(
      MEMORY.map((k) => [
        k,
        slope(
          after.map((s) => s.t / 60),
          after.map((s) => s[k]),
        ),
      ]),
    ) as unknown as Memory;
    const rssSlope = slopes.rss;
    const heapSlope = slopes.heap;
    const result: SoakResult = {
      rate,
      capacity,
      minutes,
      rssSlope,
      heapSlope,
      slopes,
      rssAfterWarmup: minutes[0]?.rssMiB ?? NaN,
      rssEnd: minutes.at(-1)?.rssMiB ?? NaN,
      errors: minutes.reduce((a, m) => a + m.errors, 0),
      errorSamples,
      failedScheduled,
      outDir,
      samples,
    };
    writeFileSync(join(outDir, 'soak.csv'), csv(minutes));
    writeFileSync(join(outDir, 'soak.svg'), svg(result, where));
    // Everything, the 5 s memory samples included, so the plot can be drawn again (`svg(JSON.parse(…), where)`).
    writeFileSync(join(outDir, 'soak.json'), JSON.stringify({ where, ...result }));
    const total = minutes.reduce((a, m) => a + m.requests, 0);
    console.log(
      `  ${total} requests in ${opts.minutes} min at ${rate}/s; errors ${result.errors}, shed ${minutes.reduce((a, m) => a + m.shed, 0)}, scheduled posts failed ${failedScheduled}`,
    );
    for (const e of errorSamples.slice(0, 5)) console.log(`    ${e}`);
    console.log(
      `  trend after the first minute: RSS ${fmt(rssSlope, 2)} MiB/min (${fmt(result.rssAfterWarmup, 0)} → ${fmt(result.rssEnd, 0)} MiB), V8 heap used ${fmt(heapSlope, 2)} MiB/min (${after.length} samples, 5 s apart)`,
    );
    const first = minutes[0]?.memory;
    const last = minutes.at(-1)?.memory;
    console.log(
      `  by part, MiB/min (end of minute 1 → end): ${[...PARTS, 'external' as const].map((p) => `${p} ${fmt(slopes[p], 2)} (${fmt(first?.[p] ?? NaN, 0)} → ${fmt(last?.[p] ?? NaN, 0)})`).join(', ')}`,
    );
    console.log(
      `  database on disk: ${fmt(minutes[0]?.dbMiB ?? NaN, 1)} → ${fmt(minutes.at(-1)?.dbMiB ?? NaN, 1)} MiB`,
    );
    console.log(
      `  load average at end ${loadavg()
        .map((l) => fmt(l, 2))
        .join(' ')}; CSV and SVG: ${join(outDir, 'soak.csv')} ${join(outDir, 'soak.svg')}`,
    );
    return result;
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await sizeClient?.end();
    await herald.stop();
    await model.close();
    rmSync(dir, { recursive: true, force: true });
    await db.drop().catch(() => undefined);
  }
}

export function csv(minutes: Minute[]): string {
  const head = [
    'minute',
    'requests',
    'errors',
    'shed',
    'p50_ms',
    'p99_ms',
    'rss_mib',
    'heap_mib',
    ...PARTS.map((p) => `${p}_mib`),
    'external_mib',
    'db_mib',
    'eventloop_p99_ms',
    'cpu_pct',
    'load1',
    ...KINDS.flatMap((k) => [`${k}_n`, `${k}_errors`, `${k}_p50_ms`, `${k}_p99_ms`]),
  ];
  const rows = minutes.map((m) =>
    [
      m.minute,
      m.requests,
      m.errors,
      m.shed,
      fmt(m.p50, 1),
      fmt(m.p99, 1),
      fmt(m.rssMiB, 1),
      fmt(m.heapMiB, 1),
      ...PARTS.map((p) => fmt(m.memory[p], 1)),
      fmt(m.memory.external, 1),
      fmt(m.dbMiB, 1),
      fmt(m.loopP99Ms, 2),
      fmt(m.cpuPct, 1),
      fmt(m.load1, 2),
      ...KINDS.flatMap((k) => [m.kinds[k].n, m.kinds[k].errors, fmt(m.kinds[k].p50, 1), fmt(m.kinds[k].p99, 1)]),
    ].join(','),
  );
  return `${[head.join(','), ...rows].join('\n')}\n`;
}

/**
 * Three stacked panels over the run: memory (RSS and V8 heap every 5 s, with RSS's least-squares line after the first
 * minute dashed), the event-loop delay p99 per minute, request latency p99 per kind per minute.
 */
export function svg(r: SoakResult, where: string): string {
  const W = 760;
  const panelH = 170;
  const left = 60;
  const right = 20;
  const top = 40;
  const gap = 40;
  const H = top + 3 * (panelH + gap);
  const xMax = Math.max(1, r.minutes.length);
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const px = (x: number) => left + (x / xMax) * (W - left - right);
  const heading = esc(
    `Herald soak: ${r.minutes.length} min at ${r.rate} requests/s (${where}); RSS trend ${fmt(r.rssSlope, 2)} MiB/min, errors ${r.errors}`,
  );
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<title>${heading}: memory, latency and event-loop delay per minute</title>`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${left}" y="22" font-size="14">${heading}</text>`,
  ];
  type Series = { name: string; color: string; pts: [number, number][]; dashed?: boolean };
  const panel = (i: number, title: string, unit: string, series: Series[]) => {
    const y0 = top + i * (panelH + gap) + 10;
    const vals = series.flatMap((s) => s.pts.map((p) => p[1])).filter(Number.isFinite);
    const yMax = niceMax(Math.max(1, ...vals));
    // Below zero only when a series is (the memory's "other anon" can be): a quarter of the panel per tick.
    const yMin = Math.min(0, ...vals) < 0 ? -yMax / 4 : 0;
    const py = (y: number) => y0 + panelH - ((y - yMin) / (yMax - yMin)) * panelH;
    out.push(`<text x="${left}" y="${y0 - 6}" font-weight="bold">${esc(title)} (${unit})</text>`);
    for (let t = yMin < 0 ? -1 : 0; t <= 4; t++) {
      const v = (yMax * t) / 4;
      out.push(
        `<line x1="${left}" x2="${W - right}" y1="${py(v)}" y2="${py(v)}" stroke="#ddd"/>`,
        `<text x="${left - 6}" y="${py(v) + 4}" text-anchor="end">${fmt(v, Math.abs(v) < 10 ? 1 : 0)}</text>`,
      );
    }
    const step = Math.max(1, Math.ceil(xMax / 12));
    for (let x = 0; x <= xMax; x += step)
      out.push(`<text x="${px(x)}" y="${y0 + panelH + 14}" text-anchor="middle">${x}</text>`);
    if (i === 2) out.push(`<text x="${W - right}" y="${y0 + panelH + 28}" text-anchor="end">minutes of load</text>`);
    // The legend on the title's line, right-aligned, so it never covers a line.
    let lx = W - right;
    for (const s of [...series].reverse()) {
      out.push(
        `<text x="${lx}" y="${y0 - 6}" text-anchor="end" fill="${s.color}">${s.dashed ? '- - ' : ''}${esc(s.name)}</text>`,
      );
      lx -= (s.name.length + (s.dashed ? 4 : 0)) * 6.2 + 14;
    }
    series.forEach((s) => {
      const pts = s.pts
        .filter((p) => Number.isFinite(p[1]))
        .map(([x, y]) => `${fmt(px(x), 1)},${fmt(py(y), 1)}`)
        .join(' ');
      out.push(
        `<polyline fill="none" stroke="${s.color}" stroke-width="1.5"${s.dashed ? ' stroke-dasharray="5 4"' : ''} points="${pts}"/>`,
      );
    });
  };
  const after = r.samples.filter((s) => s.t >= 60);
  const mx = after.reduce((a, s) => a + s.t / 60, 0) / Math.max(1, after.length);
  const my = after.reduce((a, s) => a + s.rss, 0) / Math.max(1, after.length);
  const trend: [number, number][] = after.length > 1 ? [1, xMax].map((x) => [x, my + r.rssSlope * (x - mx)]) : [];
  panel(0, 'Memory', 'MiB', [
    { name: 'RSS', color: '#1f77b4', pts: r.samples.map((s) => [s.t / 60, s.rss]) },
    { name: `RSS trend ${fmt(r.rssSlope, 2)} MiB/min`, color: '#1f77b4', pts: trend, dashed: true },
    ...PARTS.map((p, i) => ({
      name: PART_NAMES[p],
      color: ['#2ca02c', '#9467bd', '#ff7f0e', '#7f7f7f', '#8c564b'][i]!,
      pts: r.samples.map((s): [number, number] => [s.t / 60, s[p]]),
    })),
  ]);
  const perMinute = (f: (m: Minute) => number): [number, number][] => r.minutes.map((m) => [m.minute, f(m)]);
  panel(1, 'Event-loop delay p99 per minute', 'ms', [
    { name: 'event-loop p99', color: '#d62728', pts: perMinute((m) => m.loopP99Ms) },
  ]);
  const colors = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b'];
  panel(
    2,
    'Latency p99 per minute',
    'ms',
    KINDS.map((k, i) => ({ name: k, color: colors[i]!, pts: perMinute((m) => m.kinds[k].p99) })),
  );
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

function niceMax(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
