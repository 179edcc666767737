// `npm run bench tools`: the tool surfaces next to the REST route they wrap, in one run against one
// server — MCP `tools/call` of get_accounts (stateless streamable HTTP, one JSON-RPC request per HTTP request, as
// a client sends it after initializing), GPT Actions `POST /unified/gpt-actions/get_accounts` when the server has
// that route, and REST `GET /unified/user-profiles/` — requests/s and p50/p99 at 20 connections. Target: each tool
// surface at ≥ 70 % of the REST rate. The workspace has two sandbox accounts (Bluesky, LinkedIn) whose profiles are
// cached after the first read, so the figures measure Herald, not the simulators. The surfaces take turns over a few
// rounds and the medians are compared, with the server's CPU time per request beside the rates.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { connectInSandbox, cpuSeconds, fmt, freePort, median, postJson, startHerald } from './lib.ts';

interface Row {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The server process's CPU time per request (user + system): steadier than req/s on a shared machine. */
  cpuMs: number;
}

async function run(pid: number, opts: autocannon.Options): Promise<Row> {
  const cpu0 = cpuSeconds(pid);
  const r = await autocannon({ connections: 20, pipelining: 1, ...opts });
  const cpuMs = ((cpuSeconds(pid) - cpu0) * 1000) / Math.max(1, r.requests.total);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, cpuMs };
}

export async function benchTools(opts: { seconds: number; rounds: number }) {
  console.log('\n== Tool surfaces: get_accounts over MCP and GPT Actions vs. the REST route, 20 connections');
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  const port = await freePort();
  const herald = await startHerald({
    HERALD_DATA_DIR: dir,
    HERALD_SANDBOX: '1',
    PORT: String(port),
    HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  try {
    const url = herald.url;
    const session = await postJson<{ access_token: string }>(`${url}/auth/signup`, {
      email: 'bench@example.test',
      password: 'benchmark password',
    });
    const ws = (await (
      await fetch(`${url}/workspaces`, { headers: { authorization: `Bearer ${session.access_token}` } })
    ).json()) as { id: string }[];
    const auth = { authorization: `Bearer ${session.access_token}`, 'x-workspace-id': ws[0]!.id };
    await postJson(`${url}/sandbox/_config`, { latencyMs: 0, processingMs: 0, maxRequests: 1_000_000 });
    await postJson(
      `${url}/unified/oauth/url`,
      { platform: ['bluesky'], handle: 'bench.sandbox', app_password: 'abcd-efgh-ijkl-mnop' },
      auth,
    );
    await connectInSandbox(url, auth, 'linkedin').catch((err: unknown) =>
      console.log(`  (LinkedIn not connected: ${String(err)})`),
    );
    const key = (
      await postJson<{ secret: string }>(
        `${url}/workspaces/${ws[0]!.id}/api-keys`,
        { scope: 'full' },
        { authorization: `Bearer ${session.access_token}` },
      )
    ).secret;

    const rest: autocannon.Options = { url: `${url}/unified/user-profiles/`, headers: { 'x-api-key': key } };
    const mcpBody = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_accounts', arguments: {} },
    });
    const mcp: autocannon.Options = {
      url: `${url}/mcp`,
      method: 'POST',
      headers: {
        'x-api-key': key,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: mcpBody,
    };
    const gpt: autocannon.Options = {
      url: `${url}/unified/gpt-actions/get_accounts`,
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    };

    // Check each surface answers what it should before measuring it.
    const restCheck = await fetch(rest.url as string, { headers: rest.headers as Record<string, string> });
    if (!restCheck.ok) throw new Error(`REST user-profiles: ${restCheck.status} ${await restCheck.text()}`);
    const mcpCheck = (await (
      await fetch(mcp.url as string, { method: 'POST', headers: mcp.headers as Record<string, string>, body: mcpBody })
    ).json()) as { result?: { isError: boolean; structuredContent?: { platforms: string[] } } };
    if (mcpCheck.result?.isError !== false) throw new Error(`MCP get_accounts: ${JSON.stringify(mcpCheck)}`);
    const gptCheck = await fetch(gpt.url as string, {
      method: 'POST',
      headers: gpt.headers as Record<string, string>,
      body: '{}',
    });
    const withGpt = gptCheck.status === 200;
    console.log(
      `  accounts: ${mcpCheck.result.structuredContent?.platforms.join(', ')}; GPT Actions route ${withGpt ? 'present' : `absent (${gptCheck.status}), skipped`}`,
    );

    // Warm-up of every surface, then rounds in rotating order (so drift of a shared machine hits each alike); the
    // medians are compared.
    const surfaces: [string, autocannon.Options][] = [
      ['REST GET /unified/user-profiles/', rest],
      ['MCP tools/call get_accounts (/mcp)', mcp],
      ...(withGpt ? [['GPT Actions POST get_accounts', gpt] as [string, autocannon.Options]] : []),
    ];
    for (const [, o] of surfaces) await autocannon({ ...o, connections: 20, duration: 2 });
    const pid = herald.child.pid!;
    const rows = new Map<string, Row[]>(surfaces.map(([name]) => [name, []]));
    for (let round = 0; round < opts.rounds; round++) {
      for (let i = 0; i < surfaces.length; i++) {
        const [name, o] = surfaces[(i + round) % surfaces.length]!;
        rows.get(name)!.push(await run(pid, { ...o, duration: opts.seconds }));
      }
    }
    console.log(`  ${opts.rounds} rounds of ${opts.seconds} s each; medians`);
    const med = new Map<string, Row>();
    for (const [name, rs] of rows) {
      const m: Row = {
        rps: median(rs.map((r) => r.rps)),
        p50: median(rs.map((r) => r.p50)),
        p99: median(rs.map((r) => r.p99)),
        cpuMs: median(rs.map((r) => r.cpuMs)),
        non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
        errors: rs.reduce((a, r) => a + r.errors, 0),
      };
      med.set(name, m);
      console.log(
        `  ${name.padEnd(36)} ${fmt(m.rps, 0).padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  CPU ${fmt(m.cpuMs, 2)} ms/request  non-2xx ${m.non2xx} errors ${m.errors}  (rounds: ${rs.map((r) => fmt(r.rps, 0)).join(', ')} req/s)`,
      );
    }
    const base = med.get(surfaces[0]![0])!;
    for (const [name] of surfaces.slice(1)) {
      const m = med.get(name)!;
      console.log(
        `  ${name}: ${fmt((m.rps / base.rps) * 100, 0)}% of the REST rate (target ≥ 70%); CPU per request ${fmt((m.cpuMs / base.cpuMs) * 100, 0)}% of REST's`,
      );
    }
  } finally {
    await herald.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
