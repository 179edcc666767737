// Shared pieces of the benchmarks: a Herald server in a child process, HTTP load, RSS readings.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '../test/helpers/net.ts';

/** A free loopback port the OS picked (a random one collided with other processes' ports on a busy machine). */
export { freePort };

/**
 * The Herald the benchmarks start: this checkout's, or BENCH_HERALD_CHECKOUT's (another checkout, e.g. a
 * worktree of an older commit) so that one bench driver measures before and after the same way.
 */
export const CLI = join(process.env.BENCH_HERALD_CHECKOUT ?? join(import.meta.dirname, '..'), 'src/cli.ts');

/** Node's flags in a checkout's `npm start` script (`node <flags> src/cli.ts serve`): the benches start Herald as `npm start` does. */
export function startFlags(cli: string): string[] {
  const pkg = JSON.parse(readFileSync(join(dirname(dirname(cli)), 'package.json'), 'utf8')) as {
    scripts?: { start?: string };
  };
  const words = (pkg.scripts?.start ?? '').split(/\s+/);
  return words[0] === 'node' ? words.slice(1).filter((w) => w.startsWith('--')) : [];
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  startMs: number;
  stop(): Promise<void>;
}

/** `stderrPath`: append the server's stderr (its warn/error log) to this file instead of the terminal. */
export async function startHerald(
  env: Record<string, string>,
  opts: { stderrPath?: string; cli?: string } = {},
): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const t0 = performance.now();
  const { DATABASE_URL: _d, ...base } = process.env;
  const cli = opts.cli ?? CLI;
  const child = spawn(process.execPath, [...startFlags(cli), cli, 'serve'], {
    env: {
      ...base,
      PORT: String(port),
      HOST: '127.0.0.1',
      HERALD_LOG_LEVEL: 'warn',
      HERALD_RATE_LIMIT_MAX: '100000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', opts.stderrPath ? openSync(opts.stderrPath, 'a') : 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const startMs = performance.now() - t0;
  return {
    url,
    child,
    startMs,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** CPU time (user + system, seconds) a process has used so far, from /proc/<pid>/stat; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces): state is field 3, utime 14, stime 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections = 50,
): Promise<Load> {
  const r = await autocannon({ url, headers, connections, duration: seconds, pipelining: 1 });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

export async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The middle value of a list (the upper of the two middle ones for an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Connects a network through the sandbox's consent page (auto-approved), following the redirects to Herald's callback. */
export async function connectInSandbox(url: string, auth: Record<string, string>, platform: string): Promise<void> {
  const started = await postJson<{ results: Record<string, { auth_url: string }> }>(
    `${url}/unified/oauth/url`,
    { platform: [platform] },
    auth,
  );
  const res = await fetch(started.results[platform]!.auth_url, {
    headers: { 'x-sandbox-auto-approve': '1' },
    redirect: 'follow',
  });
  if (!(await res.text()).includes('data-status="success"')) throw new Error(`${platform} consent: ${res.status}`);
}

/**
 * A fresh database for one run on the PostgreSQL server of `adminUrl` (any database of it; none without one): its URL
 * for the server's DATABASE_URL, and `drop`, which removes it and closes the admin connection.
 */
export async function benchDatabase(
  adminUrl: string | undefined,
  tag: string,
): Promise<{ url?: string; drop(): Promise<void> }> {
  if (!adminUrl) return { drop: async () => undefined };
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `herald_bench_${tag}_${process.pid}_${Date.now()}`;
  await admin.query(`create database "${name}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      try {
        await admin.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}
