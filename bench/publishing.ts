// Publishing figures: text posts through the adapters to the simulators, on PGlite or, with
// DATABASE_URL, on a fresh PostgreSQL database (created and dropped here).
//
// At 0 ms simulated latency a request's time is Herald's own time per post (the simulators answer in the
// same process, so their small share is included: an upper bound). For 1 network, 4 networks and 7 targets
// (the four text networks with LinkedIn's profile and two organizations and two Facebook Pages, every
// destination the sandbox gives the text route) it prints p50/p99 one request at a time (timed by this driver to
// 0.1 ms on a kept-alive node:http connection; autocannon, used for throughput, reports whole milliseconds), the server's CPU
// per post, and the SQL statements and transactions per post from the server's own counters
// (herald_db_statements_total, herald_db_transactions_total on /metrics; BEGIN and COMMIT count as statements).
// Then the same at 200 ms per network call (the fan-out runs the networks in parallel) and throughput at 10
// connections. BENCH_BASELINE=/path/to/another/checkout runs that checkout's Herald first under this driver and
// prints the summary of both side by side (before/after; an older build without the SQL counters shows NaN).
// On a loaded machine a few seconds are a handful of posts, and start-up work and background sweeps weigh on each:
// BENCH_PUBLISH_POSTS=N sends N posts per run instead (each run then lasts as long as they take), and
// BENCH_PUBLISH_LATENCIES=0 skips the 200 ms pass.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  benchDatabase,
  CLI,
  cpuSeconds,
  fmt,
  freePort,
  metricsText,
  metricValue,
  postJson,
  startHerald,
} from './lib.ts';

interface Destinations {
  facebookPages: string[];
  linkedinOrgs: string[];
}

async function connectAll(url: string, auth: Record<string, string>): Promise<Destinations> {
  const r = await postJson<{ results: Record<string, { auth_url: string | null }> }>(
    `${url}/unified/oauth/url`,
    { platform: ['linkedin', 'facebook', 'threads'] },
    auth,
  );
  for (const [p, v] of Object.entries(r.results)) {
    const res = await fetch(v.auth_url!, { headers: { 'x-sandbox-auto-approve': '1' } });
    if (!(await res.text()).includes('data-status="success"')) throw new Error(`connecting ${p} failed`);
  }
  await postJson(
    `${url}/unified/oauth/url`,
    { platform: ['bluesky'], handle: 'bench.sandbox', app_password: 'abcd-efgh-ijkl-mnop' },
    auth,
  );
  const profiles = (await (
    await fetch(`${url}/unified/user-profiles/?platforms=facebook&platforms=linkedin`, { headers: auth })
  ).json()) as {
    facebook: { pages: { page_id: string }[] };
    linkedin: { organizations: { page_id: string }[] };
  };
  return {
    facebookPages: profiles.facebook.pages.map((p) => p.page_id),
    linkedinOrgs: profiles.linkedin.organizations.map((o) => o.page_id),
  };
}

async function counters(url: string): Promise<{ statements: number; transactions: number; simulatorS: number }> {
  const text = await metricsText(url);
  // The simulators' share: the server time of every route that is neither Herald's post route nor /metrics (in this
  // bench, the calls the adapters make to the in-process simulators).
  let simulatorS = 0;
  for (const m of text.matchAll(/^herald_http_request_duration_seconds_sum\{([^}]*)\} (\S+)$/gm)) {
    const route = /route="([^"]*)"/.exec(m[1]!)?.[1] ?? '';
    if (route !== '/unified/post/text' && route !== '/metrics') simulatorS += Number(m[2]);
  }
  return {
    statements: metricValue(text, 'herald_db_statements_total'),
    transactions: metricValue(text, 'herald_db_transactions_total'),
    simulatorS,
  };
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Answers of 2xx in which a network refused its post (every post must be published for the figures to mean it). */
  failed: number;
  requests: number;
  /** Per request: server CPU ms, statements, transactions, and the simulators' server time in ms. */
  cpuMs: number;
  simulatorMs: number;
  statements: number;
  transactions: number;
}

let sent = 0;
/**
 * The body with a text of its own: networks refuse a copy of an earlier post (LinkedIn answers DUPLICATE_POST), and a
 * refusal is a cheaper path than a publish.
 */
function unique(body: unknown): string {
  const b = body as { default_text: string };
  return JSON.stringify({ ...b, default_text: `${b.default_text} (${++sent})` });
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** One POST on a kept-alive socket with node:http (lighter than fetch, whose own cost would show in a 3 ms figure). */
function postOnce(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: keepAlive, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

type Traffic = Pick<Run, 'rps' | 'p50' | 'p99' | 'errors' | 'non2xx' | 'failed' | 'requests'>;

/** A 2xx answer in which a network refused its post. */
const refused = (status: number, body: string) => status >= 200 && status < 300 && body.includes('"success":false');

/**
 * One at a time, timed here to a tenth of a millisecond (autocannon reports whole milliseconds, too coarse for a 3 ms
 * target): from sending the request on a kept-alive connection to the end of the response body.
 */
async function sequential(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  seconds: number,
  posts?: number,
) {
  const latencies: number[] = [];
  let failed = 0;
  let errors = 0;
  let non2xx = 0;
  const t0 = performance.now();
  while (posts ? latencies.length < posts : performance.now() - t0 < seconds * 1000) {
    const start = performance.now();
    try {
      const res = await postOnce(`${url}/unified/post/text`, headers, unique(body));
      if (res.status < 200 || res.status > 299) non2xx++;
      else if (refused(res.status, res.body)) failed++;
    } catch {
      errors++;
    }
    latencies.push(performance.now() - start);
  }
  const elapsed = (performance.now() - t0) / 1000;
  const n = latencies.length;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(n - 1, Math.floor(q * n))]! * 10) / 10;
  return { rps: n / elapsed, p50: at(0.5), p99: at(0.99), errors, non2xx, failed, requests: n };
}

/** `connections` at once, by autocannon. */
async function concurrent(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  seconds: number,
  connections: number,
  posts?: number,
): Promise<Traffic> {
  let failed = 0;
  const r = await autocannon({
    url: `${url}/unified/post/text`,
    method: 'POST',
    headers,
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: unique(body) }),
        onResponse: (status, resBody) => {
          if (refused(status, resBody)) failed++;
        },
      },
    ],
    connections,
    ...(posts ? { amount: Math.max(posts, connections) } : { duration: seconds }),
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    failed,
    requests: r.requests.total,
  };
}

async function run(
  url: string,
  pid: number,
  auth: Record<string, string>,
  body: unknown,
  seconds: number,
  connections: number,
  posts?: number,
): Promise<Run> {
  const headers = { ...auth, 'content-type': 'application/json' };
  const c0 = await counters(url);
  const cpu0 = cpuSeconds(pid);
  const traffic =
    connections === 1
      ? await sequential(url, headers, body, seconds, posts)
      : await concurrent(url, headers, body, seconds, connections, posts);
  const cpu1 = cpuSeconds(pid);
  const c1 = await counters(url);
  // The /metrics read itself sends no SQL; the requests are every response received.
  const n = Math.max(1, traffic.requests);
  return {
    ...traffic,
    cpuMs: ((cpu1 - cpu0) * 1000) / n,
    simulatorMs: ((c1.simulatorS - c0.simulatorS) * 1000) / n,
    statements: (c1.statements - c0.statements) / n,
    transactions: (c1.transactions - c0.transactions) / n,
  };
}

const perPost = (r: Run) =>
  `CPU ${fmt(r.cpuMs, 1)} ms/post, ${fmt(r.statements, 1)} statements and ${fmt(r.transactions, 2)} transactions per post${r.failed ? `; ${r.failed} refused by a network` : ''}`;

interface Summary {
  one: Run;
  four: Run;
  many: Run;
  targets: number;
  throughput: Run;
}

/**
 * `baseline`: another checkout (BENCH_BASELINE), measured first by the same driver; the summary then shows
 * its figures and this checkout's side by side.
 */
export async function benchPublishing(opts: {
  seconds: number;
  databaseUrl?: string | undefined;
  baseline?: string | undefined;
  posts?: number | undefined;
  latencies?: number[] | undefined;
}) {
  const where = opts.databaseUrl ? 'PostgreSQL' : 'PGlite';
  const variants = opts.baseline
    ? [
        { name: 'before', cli: join(opts.baseline, 'src/cli.ts') },
        { name: 'after', cli: CLI },
      ]
    : [{ name: 'this checkout', cli: CLI }];
  const results: Summary[] = [];
  for (const v of variants) {
    console.log(`\n== Publishing: text posts through the adapters to the simulators (${where}; ${v.name}: ${v.cli})`);
    results.push(await measure(opts, v.cli));
  }
  const cell = (r: Run) =>
    `p50 ${r.p50} ms (${fmt(r.p50 - r.simulatorMs, 1)} without the simulators' ${fmt(r.simulatorMs, 1)}), ${fmt(r.cpuMs, 1)} ms CPU, ${fmt(r.statements, 1)} stmts`;
  console.log(
    `\n  Herald's own time per post on ${where} (0 ms simulated latency, one at a time; targets: 1 network < ${opts.databaseUrl ? 3 : 6} ms, every target < 12 ms):`,
  );
  console.log(`  ${''.padEnd(34)}${variants.map((v) => v.name.padEnd(64)).join('')}`);
  const rows: [string, (s: Summary) => string][] = [
    ['1 network (bluesky)', (s) => cell(s.one)],
    ['4 networks', (s) => cell(s.four)],
    [`${results[0]!.targets} targets`, (s) => cell(s.many)],
    [
      'throughput, 10 conn., 1 network',
      (s) => `${fmt(s.throughput.rps, 1)} req/s, ${fmt(s.throughput.cpuMs, 1)} ms CPU/post`,
    ],
  ];
  for (const [label, f] of rows) console.log(`  ${label.padEnd(34)}${results.map((r) => f(r).padEnd(64)).join('')}`);
}

async function measure(
  opts: {
    seconds: number;
    databaseUrl?: string | undefined;
    posts?: number | undefined;
    latencies?: number[] | undefined;
  },
  cli: string,
): Promise<Summary> {
  const n = opts.posts;
  let summary: Summary | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  const db = await benchDatabase(opts.databaseUrl, 'pub');
  const dbUrl = db.url;
  // The public URL must be the server's own address: the adapters call the sandbox through it.
  const port = await freePort();
  const herald = await startHerald(
    {
      HERALD_DATA_DIR: dir,
      HERALD_SANDBOX: '1',
      PORT: String(port),
      HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
    },
    { cli },
  );
  try {
    const url = herald.url;
    const pid = herald.child.pid!;
    const session = await postJson<{ access_token: string }>(`${url}/auth/signup`, {
      email: 'bench@example.test',
      password: 'benchmark password',
    });
    const ws = (await (
      await fetch(`${url}/workspaces`, { headers: { authorization: `Bearer ${session.access_token}` } })
    ).json()) as { id: string }[];
    const auth = { authorization: `Bearer ${session.access_token}`, 'x-workspace-id': ws[0]!.id };
    const dest = await connectAll(url, auth);
    const text = 'Benchmark post #herald';
    const one = { platforms: ['bluesky'], default_text: text };
    const four = {
      platforms: ['bluesky', 'linkedin', 'facebook', 'threads'],
      default_text: text,
      facebook: { facebook_page_ids: [dest.facebookPages[0]] },
    };
    const seven = {
      platforms: ['bluesky', 'linkedin', 'facebook', 'threads'],
      default_text: text,
      facebook: { facebook_page_ids: dest.facebookPages },
      linkedin: { linkedin_page_ids: dest.linkedinOrgs, post_to_personal: true },
    };
    const targets = 2 + dest.facebookPages.length + dest.linkedinOrgs.length + 1;
    const single = (p: string) => ({
      platforms: [p],
      default_text: text,
      ...(p === 'facebook' ? { facebook: { facebook_page_ids: [dest.facebookPages[0]] } } : {}),
    });
    for (const latencyMs of opts.latencies ?? [0, 200]) {
      // Threads' 250 posts a day would end the runs of more posts early: the limit is lifted here.
      await postJson(`${url}/sandbox/_config`, {
        latencyMs,
        processingMs: 0,
        maxRequests: 1_000_000,
        publishLimits: { threads: 1_000_000 },
      });
      console.log(`[simulated network latency ${latencyMs} ms per call]`);
      // Latency: one request at a time, so the figures are not queueing behind each other.
      const each: Record<string, number> = {};
      for (const p of ['bluesky', 'linkedin', 'facebook', 'threads']) {
        const r = await run(url, pid, auth, single(p), Math.max(2, opts.seconds / 2), 1, n);
        each[p] = r.p50;
        console.log(
          `  1 network  ${p.padEnd(9)} sequential   p50 ${r.p50} ms  p99 ${r.p99} ms  (${fmt(r.rps, 1)} req/s; ${perPost(r)})`,
        );
      }
      const seq = await run(url, pid, auth, four, opts.seconds, 1, n);
      console.log(
        `  4 networks together sequential   p50 ${seq.p50} ms  p99 ${seq.p99} ms  (slowest single network p50 ${Math.max(...Object.values(each))} ms, sum ${Object.values(each).reduce((a, b) => a + b, 0)} ms; ${perPost(seq)})`,
      );
      const many = await run(url, pid, auth, seven, opts.seconds, 1, n);
      console.log(
        `  ${targets} targets (4 networks, every page) sequential   p50 ${many.p50} ms  p99 ${many.p99} ms  (${perPost(many)})`,
      );
      const a = await run(url, pid, auth, one, opts.seconds, 10, n);
      const b = await run(url, pid, auth, four, opts.seconds, 10, n);
      console.log(
        `  throughput, 10 connections: 1 network ${fmt(a.rps, 1)} req/s (p50 ${a.p50} ms), 4 networks ${fmt(b.rps, 1)} req/s (p50 ${b.p50} ms); errors ${a.errors + b.errors + seq.errors + many.errors}, non-2xx ${a.non2xx + b.non2xx + seq.non2xx + many.non2xx}, posts a network refused ${a.failed + b.failed + seq.failed + many.failed}`,
      );
      if (latencyMs === 0) {
        // Bluesky again, now warm (the first run above also paid the first requests' loading).
        summary = { one: await run(url, pid, auth, one, opts.seconds, 1, n), four: seq, many, targets, throughput: a };
      }
    }
    return summary!;
  } finally {
    await herald.stop();
    rmSync(dir, { recursive: true, force: true });
    await db.drop().catch(() => undefined);
  }
}
