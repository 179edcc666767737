// `npm run bench web`: the web app's figures, printed beside their targets.
// - JavaScript of the composer's first load (what the browser fetched for /compose, each file gzipped), and whether
//   the calendar's chunk stayed out of it (it must load on demand);
// - Lighthouse (the npm package, driving Debian's chromium) on the composer and the calendar: performance,
//   accessibility and best practices;
// - the calendar with 1,000 posts in the month: time from the data's arrival to the rendered calendar, read from the
//   page's own performance measure (`herald:calendar`);
// - Herald's start-up time and idle memory with the app served and with HERALD_WEB_DIR=off, one after the other.
// Herald runs as `npm start` does, in sandbox mode on a fresh embedded database. BENCH_WEB_POSTS changes the 1,000;
// BENCH_WEB_BASELINE (an earlier build's folder, or several, comma-separated) measures it first on the same data;
// BENCH_WEB_LH_PRESETS and BENCH_WEB_LH_RUNS choose Lighthouse's settings (mobile, desktop, wide) and runs (median
// printed).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { connectInSandbox, freePort, median, postJson, rssMiB, startHerald } from './lib.ts';

const ROOT = join(import.meta.dirname, '..');
// BENCH_WEB_DIR: another built app to measure instead of web/dist.
const DIST = process.env.BENCH_WEB_DIR ?? join(ROOT, 'web', 'dist');
const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
interface Account {
  email: string;
  password: string;
  bearer: Record<string, string>;
}

/** A fresh account (session token for the API calls of the bench itself). */
async function account(url: string): Promise<Account> {
  const email = `bench-web-${Date.now().toString(36)}@example.test`;
  const password = 'correct horse battery staple';
  const s = await postJson<{ access_token: string }>(`${url}/auth/signup`, { email, password }, {});
  const authorization = `Bearer ${s.access_token}`;
  const ws = (await (await fetch(`${url}/workspaces`, { headers: { authorization } })).json()) as { id: string }[];
  return { email, password, bearer: { authorization, 'x-workspace-id': ws[0]!.id } };
}

/** The app's session cookie, as the login page gets it (X-Herald-Client: web). */
async function sessionCookie(url: string, a: Account): Promise<string> {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-herald-client': 'web' },
    body: JSON.stringify({ email: a.email, password: a.password }),
  });
  const set = res.headers.getSetCookie().find((c) => c.startsWith('herald_session='));
  if (!res.ok || !set) throw new Error(`login for a cookie: ${res.status}`);
  return set.split(';')[0]!;
}

/** Scheduled posts spread over the next days of this month (and into the next when the month is nearly over). */
async function schedulePosts(url: string, auth: Record<string, string>, platform: string, count: number) {
  const start = Date.now() + 3600_000;
  const span = 20 * 86400_000;
  let done = 0;
  const one = async (i: number) => {
    const when = new Date(start + Math.floor((span * i) / count)).toISOString();
    await postJson(
      `${url}/unified/post/text`,
      { platforms: [platform], default_text: `Calendar bench post ${i}`, scheduled_time: when },
      auth,
    );
    done++;
  };
  for (let i = 0; i < count; i += 8)
    await Promise.all(Array.from({ length: Math.min(8, count - i) }, (_, k) => one(i + k)));
  return done;
}

/** What the browser fetched as JavaScript for a page, each file gzipped as a server compressing them would send it. */
async function firstLoadJs(browser: Browser, url: string, cookie: string, path: string, dir: string) {
  const context = await browser.newContext({ baseURL: url });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url }]);
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await context.close();
  const files = scripts.map((p) => {
    const bytes = readFileSync(join(dir, decodeURIComponent(p)));
    return { path: p, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  return { files, gzip: files.reduce((s, f) => s + f.gzip, 0), raw: files.reduce((s, f) => s + f.raw, 0) };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

/**
 * The CPU time of the page's main thread between the calendar's two marks, from a Chromium trace: the tasks' thread
 * time (`tdur`), each task counted for its part inside the marks. On a loaded machine the wall time mostly measures
 * the wait for a core; this is the work itself.
 */
function mainThreadCpuMs(trace: Buffer): number | undefined {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const from = events.find((e) => e.name === 'herald:calendar:data');
  const to = events.find((e) => e.name === 'herald:calendar:rendered');
  if (!from || !to) return undefined;
  let us = 0;
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || e.pid !== from.pid || e.tid !== from.tid || !e.dur) continue;
    const inside = Math.min(e.ts + e.dur, to.ts) - Math.max(e.ts, from.ts);
    if (inside > 0) us += (e.tdur ?? 0) * (inside / e.dur);
  }
  return us / 1000;
}

/** The calendar's own render measure after the data arrived, and the main thread's CPU time for it, over `runs` loads. */
async function calendarRender(browser: Browser, url: string, cookie: string, runs: number) {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 900 } });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url }]);
    const page = await context.newPage();
    await browser.startTracing(page, {
      categories: ['blink.user_timing', 'devtools.timeline', 'disabled-by-default-devtools.timeline'],
    });
    await page.goto('/calendar');
    const ms = await page.waitForFunction(
      () => performance.getEntriesByName('herald:calendar', 'measure')[0]?.duration,
      undefined,
      { timeout: 120_000 },
    );
    wall.push(Number(await ms.jsonValue()));
    const busy = mainThreadCpuMs(await browser.stopTracing());
    if (busy !== undefined) cpu.push(busy);
    await context.close();
  }
  return { wall, cpu };
}

/**
 * Lighthouse's settings by preset. `mobile` is Lighthouse's default (a mid-range phone's screen, slow 4G, the CPU
 * slowed 4×, the mobile scoring curves): the targets are read on it. `desktop` is Lighthouse's own desktop preset
 * (core/config/desktop-config.js: desktop screen, dense 4G, no CPU slowdown, the desktop curves). `wide` is what
 * this bench measured before: the desktop screen and scoring curves with the mobile throttling, the harshest mix.
 */
const LH_PRESETS: Record<string, { flags?: Record<string, unknown>; config?: () => Promise<unknown> }> = {
  mobile: {},
  desktop: { config: async () => (await import('lighthouse/core/config/desktop-config.js')).default },
  wide: {
    flags: {
      formFactor: 'desktop',
      screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false },
    },
  },
};

type Scores = Record<string, number>;

/** One Lighthouse run of each page with one preset; BENCH_WEB_LH_DETAIL=1 prints and keeps the details. */
async function lighthouseOnce(url: string, cookie: string, paths: string[], preset: string, port: number) {
  const { default: lh } = await import('lighthouse');
  const out: Record<string, Scores> = {};
  for (const path of paths) {
    const result = await lh(
      `${url}${path}`,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        extraHeaders: { Cookie: cookie },
        throttlingMethod: 'simulate',
        ...LH_PRESETS[preset]!.flags,
      },
      (await LH_PRESETS[preset]!.config?.()) as Parameters<typeof lh>[2],
    );
    const cats = result?.lhr.categories ?? {};
    if (process.env.BENCH_WEB_LH_DETAIL === '1') {
      const audits = result?.lhr.audits ?? {};
      // The whole report, for the audits not printed here.
      const report = join(tmpdir(), `herald-lighthouse${path.replace(/\//g, '-')}-${preset}.json`);
      writeFileSync(report, JSON.stringify(result?.lhr));
      console.log(`    ${path} (${preset}) report: ${report}`);
      for (const id of [
        'first-contentful-paint',
        'largest-contentful-paint',
        'total-blocking-time',
        'speed-index',
        'cumulative-layout-shift',
        'render-blocking-insight',
        'network-dependency-tree-insight',
        'bootup-time',
        'mainthread-work-breakdown',
      ])
        if (audits[id]) console.log(`    ${path} ${id}: ${audits[id].displayValue ?? audits[id].score}`);
      // What the paint waits for and what moves: the LCP element, the shifted elements, the longest tasks.
      const items = (id: string) =>
        ((audits[id]?.details as { items?: unknown[] } | undefined)?.items ?? []).slice(0, 5);
      for (const id of ['largest-contentful-paint-element', 'layout-shifts', 'long-tasks', 'bootup-time'])
        for (const item of items(id)) console.log(`    ${path} ${id}: ${JSON.stringify(item).slice(0, 400)}`);
    }
    out[path] = Object.fromEntries(Object.entries(cats).map(([k, c]) => [k, Math.round((c.score ?? 0) * 100)]));
  }
  return out;
}

/** Each preset's scores over `runs` runs of every page (runs interleaved by page and preset), one Chromium. */
async function lighthouse(url: string, cookie: string, paths: string[], presets: string[], runs: number) {
  const launcher = await import('chrome-launcher');
  const chrome = await launcher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  const all: Record<string, Record<string, Scores[]>> = {};
  try {
    for (let i = 0; i < runs; i++)
      for (const preset of presets) {
        const once = await lighthouseOnce(url, cookie, paths, preset, chrome.port);
        for (const [path, scores] of Object.entries(once)) ((all[preset] ??= {})[path] ??= []).push(scores);
      }
  } finally {
    chrome.kill();
  }
  return all;
}

/** Start-up time to /healthz and RSS after `idleSeconds`, over `runs` starts on one data directory (warm starts). */
async function startups(env: Record<string, string>, runs: number, idleSeconds: number) {
  const times: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = await startHerald(env, { stderrPath: join(tmpdir(), 'herald-bench-web.log') });
    times.push(s.startMs);
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    rss.push(rssMiB(s.child.pid!));
    await s.stop();
  }
  return { startMs: median(times), rssMiB: median(rss) };
}

/** One build's figures: first-load JavaScript, the calendar's render measure, Lighthouse. */
async function measureBuild(
  label: string,
  dir: string,
  dataDir: string,
  opts: { posts: number; runs: number },
  state: { account?: Account },
) {
  const port = await freePort();
  const server = await startHerald({
    HERALD_SANDBOX: '1',
    HERALD_DATA_DIR: dataDir,
    HERALD_AUTH_RATE_LIMIT_MAX: '10000',
    PORT: String(port),
    HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
    HERALD_WEB_DIR: dir,
  });
  let browser: Browser | undefined;
  try {
    const url = server.url;
    console.log(`  -- ${label} (${dir})`);
    await postJson(`${url}/sandbox/_config`, { latencyMs: 0, processingMs: 0, maxRequests: 1_000_000 }, {});
    const fresh = !state.account;
    if (!state.account) {
      state.account = await account(url);
      await connectInSandbox(url, state.account.bearer, 'linkedin');
    }
    const a = state.account;
    const cookie = await sessionCookie(url, a);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.slice(1) });

    // The posts are scheduled after these loads (with the first build measured), so each build's first load is
    // measured on the same empty workspace.
    const composer = await firstLoadJs(browser, url, cookie, '/compose', dir);
    const calendarOnly = (await firstLoadJs(browser, url, cookie, '/calendar', dir)).files.filter(
      (f) => !composer.files.some((c) => c.path === f.path),
    );
    console.log(
      `  composer first load: ${composer.files.length} JS files, ${kb(composer.gzip)} gzipped (${kb(composer.raw)} raw); target < 200 KB`,
    );
    console.log(
      `  calendar chunk(s) fetched only on /calendar: ${calendarOnly.length} file(s), ${kb(calendarOnly.reduce((s, f) => s + f.gzip, 0))} gzipped — ${calendarOnly.length ? 'loaded on demand' : 'NOT split from the first load'}`,
    );

    if (fresh) await schedulePosts(url, a.bearer, 'linkedin', opts.posts);
    const renders = await calendarRender(browser, url, cookie, opts.runs);
    const list = (xs: number[]) => xs.map((r) => r.toFixed(0)).join(', ');
    console.log(
      `  calendar with ${opts.posts} scheduled posts: rendered ${median(renders.wall).toFixed(0)} ms after the data arrived (median of ${renders.wall.length}; ${list(renders.wall)}); target < 300 ms`,
    );
    if (renders.cpu.length)
      console.log(
        `  the same, main thread's CPU time: ${median(renders.cpu).toFixed(0)} ms (median of ${renders.cpu.length}; ${list(renders.cpu)}); load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
      );
    await browser.close();
    browser = undefined;

    const presets = (process.env.BENCH_WEB_LH_PRESETS ?? 'mobile,desktop').split(',').filter((p) => p in LH_PRESETS);
    const lhRuns = Number(process.env.BENCH_WEB_LH_RUNS ?? 3);
    const scores = await lighthouse(url, cookie, ['/compose', '/calendar'], presets, lhRuns);
    for (const [preset, byPath] of Object.entries(scores))
      for (const [path, runs] of Object.entries(byPath)) {
        const figure = (cat: string) => {
          const xs = runs.map((r) => r[cat] ?? 0);
          return `${median(xs)} (${xs.join(', ')})`;
        };
        console.log(
          `  Lighthouse ${preset} ${path}: performance ${figure('performance')}, accessibility ${figure('accessibility')}, best practices ${figure('best-practices')}; median of ${runs.length}; target ≥ 90 each`,
        );
      }
  } finally {
    await browser?.close();
    await server.stop();
  }
}

export async function benchWeb(opts: { posts: number; runs: number; idleSeconds: number }) {
  console.log('\n== Web app: first-load JavaScript, Lighthouse, the calendar with many posts, start-up and memory');
  if (!process.env.BENCH_WEB_DIR && (!existsSync(join(DIST, 'index.html')) || process.env.BENCH_WEB_BUILD === '1')) {
    console.log('  building the app (npm run build:web)…');
    execFileSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'ignore' });
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-web-'));
  try {
    // BENCH_WEB_BASELINE: copies of earlier builds (comma-separated), measured first on the same data, for before
    // and after figures from one sitting.
    const builds = [
      ...(process.env.BENCH_WEB_BASELINE ?? '')
        .split(',')
        .filter(Boolean)
        .map((dir, i, all) => ({ label: all.length > 1 ? `baseline ${i + 1}` : 'baseline', dir })),
      { label: 'this build', dir: DIST },
    ];
    const state: { account?: Account } = {};
    for (const b of builds) await measureBuild(b.label, b.dir, dataDir, opts, state);

    // BENCH_WEB_STARTUP=0 leaves out the start-up and memory figures (they do not depend on the build measured).
    if (process.env.BENCH_WEB_STARTUP === '0') return;
    const served = await startups({ HERALD_SANDBOX: '1', HERALD_DATA_DIR: dataDir }, opts.runs, opts.idleSeconds);
    const without = await startups(
      { HERALD_SANDBOX: '1', HERALD_DATA_DIR: dataDir, HERALD_WEB_DIR: 'off' },
      opts.runs,
      opts.idleSeconds,
    );
    console.log(
      `  warm start to /healthz: ${served.startMs.toFixed(0)} ms serving the app, ${without.startMs.toFixed(0)} ms without (HERALD_WEB_DIR=off); idle RSS after ${opts.idleSeconds} s: ${served.rssMiB.toFixed(0)} vs ${without.rssMiB.toFixed(0)} MiB`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
