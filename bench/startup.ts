// Start-up figures: `herald serve` as a real process on embedded PGlite, started again and again.
//
// Each run spawns `node src/cli.ts serve` on a free port and polls /healthz every 10 ms; the start time is from
// the spawn to the first 200. Beside it: the CPU the server used until then (its own and that of the children it
// waited for, such as the initdb child of a fresh data directory; less sensitive to a busy machine than the
// wall clock), its peak RSS (the kernel's high-water mark, VmHWM) at the first 200 and over the whole run, the
// peak of its children, and its RSS after BENCH_STARTUP_IDLE_SECONDS (default 30) of idling.
//
// warm: an existing data directory (made by one start beforehand); cold: a fresh data directory every run,
// made from the embedded database's template cache (HERALD_PGLITE_TEMPLATE_DIR, a directory of the bench's
// that the uncounted first start filled); cold, no template: the same with the cache off (initdb runs);
// cold, no compile cache: also without Node's module compile cache (NODE_DISABLE_COMPILE_CACHE=1), the very
// first start after an install. A baseline checkout without the template cache ignores its setting. Node runs
// with the flags of the checkout's `npm start` script, as `npm start` would run it.
//
// BENCH_STARTUP_RUNS (default 5) runs of each; BENCH_STARTUP_BASELINE=/path/to/other/checkout runs that
// checkout's src/cli.ts as well, alternating run by run, and prints both columns (before/after on one machine
// under the same load). Medians are printed with the spread (min–max); the targets are printed beside them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI, fmt, freePort, startFlags } from './lib.ts';

interface Run {
  startMs: number;
  cpuS: number;
  peakAtHealthMiB: number;
  peakMiB: number;
  childPeakMiB: number;
  idleMiB: number;
}

interface Variant {
  name: string;
  cli: string;
}

type Kind = 'warm' | 'cold' | 'cold, no template' | 'cold, no compile cache';

function status(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/** utime + stime + cutime + cstime in seconds (children count once reaped). */
function cpuWithChildren(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(x[11]) + Number(x[12]) + Number(x[13]) + Number(x[14])) / 100;
}

function descendants(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      for (const c of readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number))
        out.push(c, ...descendants(c));
    }
  } catch {
    /* gone */
  }
  return out;
}

async function once(cli: string, dataDir: string, kind: Kind, idleSeconds: number, templateDir: string): Promise<Run> {
  const port = await freePort();
  // Never inherit a compile-cache location: each checkout decides for itself whether it uses one.
  const {
    DATABASE_URL: _d,
    NODE_COMPILE_CACHE: _c,
    NODE_DISABLE_COMPILE_CACHE: _n,
    REDIS_URL: _r,
    ...base
  } = process.env;
  const env: Record<string, string | undefined> = {
    ...base,
    PORT: String(port),
    HOST: '127.0.0.1',
    HERALD_DATA_DIR: dataDir,
    HERALD_LOG_LEVEL: 'warn',
  };
  if (kind === 'cold, no compile cache') env.NODE_DISABLE_COMPILE_CACHE = '1';
  env.HERALD_PGLITE_TEMPLATE_DIR = kind === 'warm' || kind === 'cold' ? templateDir : 'off';
  const t0 = performance.now();
  const child = spawn(process.execPath, [...startFlags(cli), cli, 'serve'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pid = child.pid!;
  let childPeak = 0;
  const sampler = setInterval(() => {
    for (const c of descendants(pid)) childPeak = Math.max(childPeak, status(c, 'VmHWM') || 0);
  }, 20);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const startMs = performance.now() - t0;
    const cpuS = cpuWithChildren(pid);
    const peakAtHealthMiB = status(pid, 'VmHWM');
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    return {
      startMs,
      cpuS,
      peakAtHealthMiB,
      peakMiB: status(pid, 'VmHWM'),
      childPeakMiB: childPeak,
      idleMiB: status(pid, 'VmRSS'),
    };
  } finally {
    clearInterval(sampler);
    const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const spread = (xs: number[], digits: number) =>
  `${fmt(median(xs), digits)} (${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)})`;

export async function benchStartup(opts: { runs: number; idleSeconds: number; baseline?: string }) {
  console.log('\n== Start-up and memory: herald serve on embedded PGlite');
  const variants: Variant[] = [];
  if (opts.baseline) variants.push({ name: 'before', cli: join(resolve(opts.baseline), 'src/cli.ts') });
  variants.push({ name: opts.baseline ? 'after' : 'this checkout', cli: CLI });
  console.log(
    `  ${opts.runs} runs of each, idle reading after ${opts.idleSeconds} s; load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const v of variants) console.log(`  ${v.name}: ${v.cli}`);
  const results = new Map<string, Run[]>();
  const key = (v: Variant, k: Kind) => `${v.name}|${k}`;
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'herald-bench-start-'));
    dirs.push(d);
    return d;
  };
  try {
    // One data directory per checkout for the warm runs, made by a start that is not counted.
    // and one template cache per checkout, filled by that same start.
    const warmDirs = new Map<string, string>();
    const templates = new Map<string, string>();
    for (const v of variants) {
      const d = fresh();
      templates.set(v.name, join(fresh(), 'template-cache'));
      await once(v.cli, d, 'cold', 0, templates.get(v.name)!);
      warmDirs.set(v.name, d);
    }
    const kinds: Kind[] = ['warm', 'cold', 'cold, no template', 'cold, no compile cache'];
    for (let i = 0; i < opts.runs; i++) {
      for (const kind of kinds) {
        for (const v of variants) {
          const r = await once(
            v.cli,
            kind === 'warm' ? warmDirs.get(v.name)! : fresh(),
            kind,
            opts.idleSeconds,
            templates.get(v.name)!,
          );
          results.set(key(v, kind), [...(results.get(key(v, kind)) ?? []), r]);
        }
      }
    }
    console.log(
      `  load average at end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const cols = variants.map((v) => v.name.padEnd(26)).join('');
    for (const kind of kinds) {
      console.log(`\n  [${kind}] median (min–max) of ${opts.runs}`);
      console.log(`  ${''.padEnd(34)}${'target'.padEnd(12)}${cols}`);
      const target: Record<string, string> = {
        startMs: kind === 'warm' ? '< 500' : '< 4000',
        peakMiB: '< 300',
        idleMiB: '< 200',
      };
      const rows: [keyof Run, string, number][] = [
        ['startMs', 'start to /healthz 200 (ms)', 0],
        ['cpuS', 'CPU until then, incl. children (s)', 2],
        ['peakAtHealthMiB', 'peak RSS at first 200 (MiB)', 0],
        ['peakMiB', `peak RSS over the run (MiB)`, 0],
        ['childPeakMiB', 'peak RSS of a child (MiB)', 0],
        ['idleMiB', `RSS after ${opts.idleSeconds} s idle (MiB)`, 0],
      ];
      for (const [field, label, digits] of rows) {
        const cells = variants
          .map((v) =>
            spread(
              (results.get(key(v, kind)) ?? []).map((r) => r[field]),
              digits,
            ).padEnd(26),
          )
          .join('');
        console.log(`  ${label.padEnd(34)}${(target[field] ?? '').padEnd(12)}${cells}`);
      }
    }
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
