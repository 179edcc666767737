// `npm run bench web`: the web app's figures, printed beside their targets.
// - JavaScript of the composer's first load (what the browser fetched for /compose, each file gzipped), and whether
//   the calendar's chunk stayed out of it (it must load on demand);
// - Lighthouse (the npm package, driving Debian's chromium) on the composer and the calendar: performance,
//   accessibility and best practices;
// - the calendar with 1,000 posts in the month: time from the data's arrival to the rendered calendar, read from the
//   page's own performance measure (`herald:calendar`);
// - Herald's start-up time and idle memory with the app served and with HERALD_WEB_DIR=off, one after the other.
// Herald runs as `npm start` does, in sandbox mode on a fresh embedded database. BENCH_WEB_POSTS changes the 1,000.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { connectInSandbox, freePort, median, postJson, rssMiB, startHerald, type ServerProcess } from './lib.ts';

const ROOT = join(import.meta.dirname, '..');
const DIST = join(ROOT, 'web', 'dist');
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
async function firstLoadJs(browser: Browser, url: string, cookie: string, path: string) {
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
    const bytes = readFileSync(join(DIST, decodeURIComponent(p)));
    return { path: p, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  return { files, gzip: files.reduce((s, f) => s + f.gzip, 0), raw: files.reduce((s, f) => s + f.raw, 0) };
}

/** The calendar's own render measure after the data arrived, over `runs` page loads. */
async function calendarRender(browser: Browser, url: string, cookie: string, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 900 } });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url }]);
    const page = await context.newPage();
    await page.goto('/calendar');
    const ms = await page.waitForFunction(
      () => performance.getEntriesByName('herald:calendar', 'measure')[0]?.duration,
      undefined,
      { timeout: 120_000 },
    );
    out.push(Number(await ms.jsonValue()));
    await context.close();
  }
  return out;
}

async function lighthouse(url: string, cookie: string, paths: string[]) {
  const { default: lh } = await import('lighthouse');
  const launcher = await import('chrome-launcher');
  const chrome = await launcher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  const out: Record<string, Record<string, number>> = {};
  try {
    for (const path of paths) {
      const result = await lh(
        `${url}${path}`,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          extraHeaders: { Cookie: cookie },
          // Desktop form factor: the app is measured as a manager's browser opens it; mobile is the phone test's.
          formFactor: 'desktop',
          screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false },
          throttlingMethod: 'simulate',
        },
        undefined,
      );
      const cats = result?.lhr.categories ?? {};
      if (process.env.BENCH_WEB_LH_DETAIL === '1') {
        const audits = result?.lhr.audits ?? {};
        // The whole report, for the audits not printed here.
        const report = join(tmpdir(), `herald-lighthouse${path.replace(/\//g, '-')}.json`);
        writeFileSync(report, JSON.stringify(result?.lhr));
        console.log(`    ${path} report: ${report}`);
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
  } finally {
    chrome.kill();
  }
  return out;
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

export async function benchWeb(opts: { posts: number; runs: number; idleSeconds: number }) {
  console.log('\n== Web app: first-load JavaScript, Lighthouse, the calendar with many posts, start-up and memory');
  if (!existsSync(join(DIST, 'index.html')) || process.env.BENCH_WEB_BUILD === '1') {
    console.log('  building the app (npm run build:web)…');
    execFileSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'ignore' });
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-web-'));
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  try {
    const port = await freePort();
    server = await startHerald({
      HERALD_SANDBOX: '1',
      HERALD_DATA_DIR: dataDir,
      HERALD_AUTH_RATE_LIMIT_MAX: '10000',
      PORT: String(port),
      HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    const url = server.url;
    const a = await account(url);
    await postJson(`${url}/sandbox/_config`, { latencyMs: 0, processingMs: 0, maxRequests: 1_000_000 }, {});
    await connectInSandbox(url, a.bearer, 'linkedin');
    const cookie = await sessionCookie(url, a);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.slice(1) });

    const composer = await firstLoadJs(browser, url, cookie, '/compose');
    const calendarOnly = (await firstLoadJs(browser, url, cookie, '/calendar')).files.filter(
      (f) => !composer.files.some((c) => c.path === f.path),
    );
    console.log(
      `  composer first load: ${composer.files.length} JS files, ${kb(composer.gzip)} gzipped (${kb(composer.raw)} raw); target < 200 KB`,
    );
    console.log(
      `  calendar chunk(s) fetched only on /calendar: ${calendarOnly.length} file(s), ${kb(calendarOnly.reduce((s, f) => s + f.gzip, 0))} gzipped — ${calendarOnly.length ? 'loaded on demand' : 'NOT split from the first load'}`,
    );

    const made = await schedulePosts(url, a.bearer, 'linkedin', opts.posts);
    const renders = await calendarRender(browser, url, cookie, opts.runs);
    console.log(
      `  calendar with ${made} scheduled posts: rendered ${median(renders).toFixed(0)} ms after the data arrived (median of ${renders.length}; ${renders.map((r) => r.toFixed(0)).join(', ')}); target < 300 ms`,
    );
    await browser.close();
    browser = undefined;

    const scores = await lighthouse(url, cookie, ['/compose', '/calendar']);
    for (const [path, s] of Object.entries(scores))
      console.log(
        `  Lighthouse ${path}: performance ${s.performance}, accessibility ${s.accessibility}, best practices ${s['best-practices']}; target ≥ 90 each`,
      );
    await server.stop();
    server = undefined;

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
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
