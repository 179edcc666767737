// `npm run bench agent`: one agent turn with two tool calls (get_accounts and get_queued_posts in one
// step, then the final answer) against a scripted model (the AI SDK's MockLanguageModelV4) that takes 0 ms and then
// 500 ms per call. Herald's own overhead per turn is the turn's wall time minus the time spent inside the model's
// calls (measured in the mock itself): the route, credits, memory read, tool dispatch, both tools' own work, answer
// building, archiving and the memory write. Also printed: SQL statements per turn and the rows each table gained.
// In process over fastify's inject (no HTTP parsing), on embedded PGlite, or on PostgreSQL with DATABASE_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { MockLanguageModelV4 } from 'ai/test';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { openDatabase } from '../src/db/client.ts';
import { sql } from '../src/db/orm.ts';
import { buildApp } from '../src/transports/rest/app.ts';
import { fmt } from './lib.ts';

type Generated = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
let callId = 0;
const toolCalls = (): Generated => ({
  content: [
    { type: 'tool-call', toolCallId: `c${++callId}`, toolName: 'get_accounts', input: '{}' },
    { type: 'tool-call', toolCallId: `c${++callId}`, toolName: 'get_queued_posts', input: '{}' },
  ],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
});
const text = (t: string): Generated => ({
  content: [{ type: 'text', text: t }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
});

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

export async function benchAgent(opts: { turns: number; slowTurns: number; databaseUrl: string | undefined }) {
  const backEnd = opts.databaseUrl ? 'PostgreSQL' : 'PGlite';
  console.log(
    `\n== Agent: one turn = two tool calls in one step + the final answer, scripted model, ${backEnd}, in process`,
  );
  let latencyMs = 0;
  let inModelMs = 0;
  let modelCalls = 0;
  const model = new MockLanguageModelV4({
    modelId: 'bench-agent',
    doGenerate: async (o) => {
      const t0 = performance.now();
      modelCalls++;
      if (latencyMs) await new Promise((r) => setTimeout(r, latencyMs));
      const prompt = o.prompt as { role: string }[];
      // A summary request has no tools; a turn's first call ends with the member's message, the second with results.
      const out = !o.tools?.length
        ? text('The member asked about accounts and queued posts.')
        : prompt.at(-1)?.role === 'tool'
          ? text('You have one Bluesky account and nothing queued.')
          : toolCalls();
      inModelMs += performance.now() - t0;
      return out;
    },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-agent-'));
  const config = loadConfig({
    ...process.env,
    HERALD_DATA_DIR: dataDir,
    HERALD_LOG_LEVEL: 'silent',
    HERALD_SANDBOX: '1',
    HERALD_API_KEY_CACHE_SECONDS: '60',
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
  });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir,
    memory: !config.databaseUrl,
    poolSize: 4,
  });
  const ctx = await createContext(config, {
    database,
    logger: pino({ level: 'silent' }),
    aiModels: { label: 'mock bench-agent', language: model, vision: model, image: null, transcription: null },
  });
  const app = await buildApp(ctx);
  await app.ready();
  try {
    const signup = await app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: `bench-${Date.now()}@example.test`, password: 'benchmark password' },
    });
    const token = (signup.json() as { access_token: string }).access_token;
    const ws = (
      (
        await app.inject({ method: 'GET', url: '/workspaces', headers: { authorization: `Bearer ${token}` } })
      ).json() as { id: string }[]
    )[0]!.id;
    await ctx.workspaces.setPlan(ws, 'pro');
    const key = (
      await app.inject({
        method: 'POST',
        url: `/workspaces/${ws}/api-keys`,
        headers: { authorization: `Bearer ${token}` },
        payload: { name: 'bench', scope: 'full' },
      })
    ).json() as { secret: string };
    const turn = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/workspace-agent/website/chat',
        headers: { 'x-api-key': key.secret },
        payload: { text: 'Which accounts do I have, and what is queued?', workspace_id: ws },
      });
      if (res.statusCode !== 200) throw new Error(`chat: ${res.statusCode} ${res.body}`);
    };
    const tables = (
      (await ctx.database.db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      )) as unknown as { rows: { table_name: string }[] }
    ).rows.map((r) => r.table_name);
    const counts = async () => {
      const out: Record<string, number> = {};
      for (const t of tables)
        out[t] = Number(
          (
            (await ctx.database.db.execute(sql.raw(`select count(*)::int as n from "${t}"`))) as unknown as {
              rows: { n: number }[];
            }
          ).rows[0]!.n,
        );
      return out;
    };
    for (let i = 0; i < 5; i++) await turn(); // warm-up: the AI SDK loaded, caches filled, memory non-empty

    for (const [ms, n] of [
      [0, opts.turns],
      [500, opts.slowTurns],
    ] as const) {
      latencyMs = ms;
      const overhead: number[] = [];
      const before = await counts();
      let statements = 0;
      const writes: Record<string, number> = {};
      const stop = ctx.database.statements.watch((q) => {
        statements++;
        const w = /^\s*(insert into|update|delete from)\s+"?(\w+)"?/i.exec(q);
        if (w)
          writes[`${w[1]!.split(' ')[0]!.toLowerCase()} ${w[2]}`] =
            (writes[`${w[1]!.split(' ')[0]!.toLowerCase()} ${w[2]}`] ?? 0) + 1;
      });
      const calls0 = modelCalls;
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < n; i++) {
        inModelMs = 0;
        const t0 = performance.now();
        await turn();
        overhead.push(performance.now() - t0 - inModelMs);
      }
      const cpu = process.cpuUsage(cpu0);
      stop();
      const after = await counts();
      const grew = Object.entries(after)
        .map(([t, c]) => [t, (c - (before[t] ?? 0)) / n] as const)
        .filter(([, d]) => d !== 0)
        .map(([t, d]) => `${t} ${fmt(d, d % 1 ? 2 : 0)}`)
        .join(', ');
      console.log(
        `[model latency ${ms} ms per call, ${n} turns, ${fmt((modelCalls - calls0) / n, 2)} model calls per turn]`,
      );
      console.log(
        `  Herald overhead per turn  p50 ${fmt(pct(overhead, 50), 1)} ms  p99 ${fmt(pct(overhead, 99), 1)} ms  (target p50 < 30 ms)`,
      );
      console.log(
        `  process CPU per turn      ${fmt((cpu.user + cpu.system) / 1000 / n, 1)} ms (Herald and the scripted model share the process)`,
      );
      console.log(`  SQL statements per turn   ${fmt(statements / n, 1)}`);
      console.log(
        `  write statements per turn ${
          Object.entries(writes)
            .map(([k, v]) => `${k} ${fmt(v / n, v % n ? 2 : 0)}`)
            .join(', ') || 'none'
        }`,
      );
      console.log(`  rows added per turn       ${grew || 'none'}`);
    }
  } finally {
    await app.close();
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
