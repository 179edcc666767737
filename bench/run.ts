// `npm run bench [-- section ...]`: prints figures; no pass/fail thresholds (targets are printed beside them).
import { benchAgent } from './agent.ts';
import { benchAi } from './ai.ts';
import { benchEngagement } from './engagement.ts';
import { benchEvents } from './events.ts';
import { benchFoundation } from './foundation.ts';
import { benchMedia } from './media.ts';
import { benchPublishing } from './publishing.ts';
import { benchScheduling } from './scheduling.ts';
import { benchSoak } from './soak.ts';
import { benchSchedulingApi } from './scheduling-api.ts';
import { benchStartup } from './startup.ts';
import { benchTools } from './tools.ts';
import { benchWeb } from './web.ts';
import { benchWorkflow } from './workflow.ts';

const sections: Record<string, () => Promise<void>> = {
  // The web app: first-load JavaScript, Lighthouse, the calendar with BENCH_WEB_POSTS posts, start-up with and without it.
  web: () =>
    benchWeb({
      posts: Number(process.env.BENCH_WEB_POSTS ?? 1000),
      runs: Number(process.env.BENCH_WEB_RUNS ?? 3),
      idleSeconds: Number(process.env.BENCH_WEB_IDLE_SECONDS ?? 10),
    }),
  foundation: () =>
    benchFoundation({ seconds: Number(process.env.BENCH_SECONDS ?? 5), databaseUrl: process.env.DATABASE_URL }),
  // Issues 5 and 18: Herald's time, CPU and SQL statements per post (DATABASE_URL: on a fresh PostgreSQL database).
  // BENCH_BASELINE=/path/to/another/checkout: that checkout first, then this one, summarised side by side.
  publishing: () =>
    benchPublishing({
      seconds: Number(process.env.BENCH_SECONDS ?? 5),
      databaseUrl: process.env.DATABASE_URL,
      baseline: process.env.BENCH_BASELINE,
      posts: process.env.BENCH_PUBLISH_POSTS ? Number(process.env.BENCH_PUBLISH_POSTS) : undefined,
      latencies: (process.env.BENCH_PUBLISH_LATENCIES ?? '0,200').split(',').map(Number),
    }),
  // The scheduling issue's load benchmark (minutes; scaled by HERALD_BENCH_SCHED_* variables, see bench/scheduling.ts).
  scheduling: () => benchScheduling(),
  // Workflow features: the posting queue's next-free-slot lookup with BENCH_QUEUE_POSTS queued posts (10,000).
  workflow: () => benchWorkflow(),
  'scheduling-api': () =>
    benchSchedulingApi({
      seconds: Number(process.env.BENCH_SECONDS ?? 5),
      burst: Number(process.env.BENCH_SCHEDULE_BURST ?? 200),
      databaseUrl: process.env.DATABASE_URL,
    }),
  // The built-in AI provider in process (BENCH_AI_RUNS: copy runs, default 300; cards run a fifth as often).
  ai: () =>
    benchAi(
      process.env.BENCH_AI_RUNS
        ? {
            copyRuns: Number(process.env.BENCH_AI_RUNS),
            cardRuns: Math.max(10, Math.round(Number(process.env.BENCH_AI_RUNS) / 5)),
          }
        : {},
    ),
  // Issue 14: the comments sync of one workspace (8 networks × 10 posts × 50 comments, 100 ms simulated latency).
  engagement: () =>
    benchEngagement({
      posts: Number(process.env.BENCH_ENGAGEMENT_POSTS ?? 10),
      comments: Number(process.env.BENCH_ENGAGEMENT_COMMENTS ?? 50),
      latencyMs: Number(process.env.BENCH_ENGAGEMENT_LATENCY_MS ?? 100),
      seconds: Number(process.env.BENCH_SECONDS ?? 5),
    }),
  // Webhooks from the events outbox: latency by rate, the highest rate sustained, and a receiver down for a simulated
  // day (BENCH_EVENTS_RATES, BENCH_EVENTS_DAY_EVENTS; see bench/events.ts).
  events: () =>
    benchEvents({
      seconds: Number(process.env.BENCH_SECONDS ?? 3),
      rates: (process.env.BENCH_EVENTS_RATES ?? '10,100,1000').split(',').map(Number),
      dayEvents: Number(process.env.BENCH_EVENTS_DAY_EVENTS ?? 50),
      databaseUrl: process.env.DATABASE_URL,
    }),
  // Issue 16: get_accounts over MCP (and GPT Actions when present) next to GET /unified/user-profiles/, 20 connections.
  tools: () =>
    benchTools({ seconds: Number(process.env.BENCH_SECONDS ?? 5), rounds: Number(process.env.BENCH_ROUNDS ?? 3) }),
  // Issue 18: `herald serve` started warm and cold, time to /healthz and RSS (BENCH_STARTUP_* variables, see bench/startup.ts).
  startup: () =>
    benchStartup({
      runs: Number(process.env.BENCH_STARTUP_RUNS ?? 5),
      idleSeconds: Number(process.env.BENCH_STARTUP_IDLE_SECONDS ?? 30),
      ...(process.env.BENCH_STARTUP_BASELINE ? { baseline: process.env.BENCH_STARTUP_BASELINE } : {}),
    }),
  // Issue 17: one agent turn with two tool calls against a scripted model at 0 and 500 ms per model call.
  agent: () =>
    benchAgent({
      turns: Number(process.env.BENCH_AGENT_TURNS ?? 200),
      slowTurns: Number(process.env.BENCH_AGENT_SLOW_TURNS ?? 20),
      databaseUrl: process.env.DATABASE_URL,
    }),
  // BENCH_MEDIA_UNPACED=0 skips the upload without GC pacing, BENCH_MEDIA_CHUNKED=0 the chunked API.
  media: () =>
    benchMedia({
      ...(process.env.BENCH_MEDIA_BYTES ? { sizeBytes: Number(process.env.BENCH_MEDIA_BYTES) } : {}),
      unpaced: process.env.BENCH_MEDIA_UNPACED !== '0',
      chunked: process.env.BENCH_MEDIA_CHUNKED !== '0',
    }),
  // A steady mixed load for BENCH_SOAK_MINUTES (60) at BENCH_SOAK_RATE requests/s or BENCH_SOAK_FRACTION (0.5) of the
  // capacity measured first:
  // per-minute RSS, event-loop delay and latency, the RSS trend, CSV and SVG in BENCH_SOAK_OUT (see bench/soak.ts).
  soak: async () => {
    await benchSoak({
      minutes: Number(process.env.BENCH_SOAK_MINUTES ?? 60),
      rate: process.env.BENCH_SOAK_RATE ? Number(process.env.BENCH_SOAK_RATE) : undefined,
      fraction: Number(process.env.BENCH_SOAK_FRACTION ?? 0.5),
      // With BENCH_SOAK_RATE the capacity is measured only when BENCH_SOAK_CAPACITY_SECONDS asks for it.
      capacitySeconds: Number(process.env.BENCH_SOAK_CAPACITY_SECONDS ?? (process.env.BENCH_SOAK_RATE ? 0 : 20)),
      latencyMs: Number(process.env.BENCH_SOAK_LATENCY_MS ?? 20),
      databaseUrl: process.env.DATABASE_URL,
      outDir: process.env.BENCH_SOAK_OUT,
    });
  },
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(sections)) {
  // The soak takes an hour: only when named.
  if (wanted.length ? !wanted.includes(name) : name === 'soak') continue;
  await run();
}
