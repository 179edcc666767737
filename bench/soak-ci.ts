// `npm run soak:ci`: the soak benchmark (bench/soak.ts) for 5 minutes at a fixed modest rate (BENCH_SOAK_RATE, 4
// requests/s; no capacity measurement), exiting non-zero on
//   - any failed request (a network error or a non-2xx answer, of any kind) or scheduled post that failed, or
//   - a clear RSS growth trend: the least-squares slope of the server's RSS over minutes 2-5 (samples every 5 s,
//     the first minute is warm-up) above SOAK_CI_MAX_RSS_SLOPE MiB/min (default 48, ~190 MiB over the four minutes).
//     Generous on purpose: RSS saws by 85-150 MiB as V8 shrinks its young generation and grows it again, and steady
//     one-hour runs measured four-minute windows from -33 to +33 MiB/min, late in the run as well.
// No latency bound: it must pass on a loaded two-core machine. DATABASE_URL runs it on PostgreSQL.
import { benchSoak } from './soak.ts';

const maxSlope = Number(process.env.SOAK_CI_MAX_RSS_SLOPE ?? 48);
const t0 = performance.now();
const r = await benchSoak({
  minutes: Number(process.env.BENCH_SOAK_MINUTES ?? 5),
  rate: Number(process.env.BENCH_SOAK_RATE ?? 4),
  capacitySeconds: 0,
  latencyMs: Number(process.env.BENCH_SOAK_LATENCY_MS ?? 20),
  databaseUrl: process.env.DATABASE_URL,
  outDir: process.env.BENCH_SOAK_OUT,
});
const problems: string[] = [];
if (r.errors) problems.push(`${r.errors} failed requests (${r.errorSamples.slice(0, 3).join('; ')})`);
if (r.failedScheduled) problems.push(`${r.failedScheduled} scheduled posts failed`);
if (!(r.rssSlope <= maxSlope))
  problems.push(`RSS grew ${r.rssSlope.toFixed(2)} MiB/min after the first minute (limit ${maxSlope})`);
console.log(
  `\nsoak:ci ${problems.length ? 'FAILED' : 'passed'} in ${((performance.now() - t0) / 1000).toFixed(0)} s${problems.length ? `: ${problems.join('; ')}` : ''}`,
);
if (problems.length) process.exitCode = 1;
