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

/** Resident memory of a process by where it lives, MiB (see `memoryParts`). */
export interface MemoryParts {
  /** All resident memory (the sum of the smaps Rss; the same as VmRSS up to the kernel's lag in counting). */
  rss: number;
  /** WebAssembly memories (PGlite's Postgres): the touched pages of V8's multi-GiB reservations. */
  wasm: number;
  /** glibc malloc: the brk heap ([heap]) and the 64 MiB arenas of other threads. */
  malloc: number;
  /** Mapped files: the node binary, shared libraries (sharp's libvips among them), other files. */
  file: number;
  /** The other anonymous memory: V8's heap pages, its code space, large malloc blocks (mmap'd on their own), stacks. */
  anon: number;
}

const MiB = 2 ** 20;
/** glibc's HEAP_MAX_SIZE on 64-bit: each arena of a non-main thread is one mapping of this size, aligned to it. */
const ARENA = 64 * MiB;
/** Smaller than V8's reservation for a 32-bit WebAssembly memory (8 GiB and up), far above any other mapping. */
const WASM_RESERVATION = 4 * 1024 * MiB;

/**
 * Splits a process's resident memory by reading /proc/<pid>/smaps. A WebAssembly memory is one anonymous
 * reservation of 8 GiB or more (V8 reserves the 32-bit address space plus guard pages), of which the committed
 * start is a read-write mapping and the rest a `---p` one right after it: the pair is told by its size. A malloc arena is a
 * 64 MiB-aligned anonymous mapping that, with the `---p` rest after it, spans exactly 64 MiB. Large malloc
 * blocks are anonymous mappings of their own and land in `anon`, beside V8's heap.
 */
export function memoryParts(pid: number): MemoryParts {
  const vmas: { start: number; end: number; perms: string; inode: string; path: string; rss: number }[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const h = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (h)
      vmas.push({
        start: Number.parseInt(h[1]!, 16),
        end: Number.parseInt(h[2]!, 16),
        perms: h[3]!,
        inode: h[4]!,
        path: h[5]!,
        rss: 0,
      });
    else if (line.startsWith('Rss:') && vmas.length) vmas.at(-1)!.rss = Number(/\d+/.exec(line)?.[0] ?? 0) / 1024;
  }
  const parts: MemoryParts = { rss: 0, wasm: 0, malloc: 0, file: 0, anon: 0 };
  vmas.forEach((v, i) => {
    parts.rss += v.rss;
    const next = vmas[i + 1];
    const reserveAfter = next && next.start === v.end && next.perms === '---p' && next.path === '' ? next : undefined;
    if (v.path === '[heap]') parts.malloc += v.rss;
    else if (v.inode !== '0' || (v.path !== '' && !v.path.startsWith('['))) parts.file += v.rss;
    // [stack], [vdso] and the like
    else if (v.path !== '') parts.anon += v.rss;
    else if ((reserveAfter?.end ?? v.end) - v.start >= WASM_RESERVATION) parts.wasm += v.rss;
    else if (v.start % ARENA === 0 && (reserveAfter?.end ?? v.end) - v.start === ARENA) parts.malloc += v.rss;
    else parts.anon += v.rss;
  });
  return parts;
}

/** The server's /metrics page (Prometheus text). */
export async function metricsText(url: string): Promise<string> {
  return (await fetch(`${url}/metrics`)).text();
}

/** The value of the sample `name` (with its labels when it has any: `x{a="b"}`) in /metrics text; NaN when absent. */
export function metricValue(text: string, name: string): number {
  const m = new RegExp(`^${name.replace(/[{}"]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
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
