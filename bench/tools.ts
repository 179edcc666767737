// `npm run bench tools` (issue 16): the tool surfaces next to the REST route they wrap, in one run against one
// server — MCP `tools/call` of get_accounts (stateless streamable HTTP, one JSON-RPC request per HTTP request, as
// a client sends it after initializing), GPT Actions `POST /unified/gpt-actions/get_accounts` when the server has
// that route, and REST `GET /unified/user-profiles/` — requests/s and p50/p99 at 20 connections. Target: each tool
// surface at ≥ 70 % of the REST rate. The workspace has two sandbox accounts (Bluesky, LinkedIn) whose profiles are
// cached after the first read, so the figures measure Herald, not the simulators.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fmt, postJson, startHerald } from './lib.ts';

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function run(name: string, opts: autocannon.Options): Promise<Row> {
  const r = await autocannon({ connections: 20, pipelining: 1, ...opts });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

/** Connects LinkedIn through the sandbox's consent page (auto-approved), following the redirects to Herald's callback. */
async function connectLinkedIn(url: string, auth: Record<string, string>): Promise<void> {
  const started = await postJson<{ results: { linkedin: { auth_url: string } } }>(`${url}/unified/oauth/url`, { platform: ['linkedin'] }, auth);
  const res = await fetch(started.results.linkedin.auth_url, { headers: { 'x-sandbox-auto-approve': '1' }, redirect: 'follow' });
  if (!(await res.text()).includes('data-status="success"')) throw new Error(`LinkedIn consent: ${res.status}`);
}

export async function benchTools(opts: { seconds: number }) {
  console.log('\n== Tool surfaces (issue 16): get_accounts over MCP and GPT Actions vs. the REST route, 20 connections');
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  const port = 30_000 + Math.floor(Math.random() * 20_000);
  const herald = await startHerald({ HERALD_DATA_DIR: dir, HERALD_SANDBOX: '1', PORT: String(port), HERALD_PUBLIC_URL: `http://127.0.0.1:${port}` });
  try {
    const url = herald.url;
    const session = await postJson<{ access_token: string }>(`${url}/auth/signup`, { email: 'bench@example.test', password: 'benchmark password' });
    const ws = (await (await fetch(`${url}/workspaces`, { headers: { authorization: `Bearer ${session.access_token}` } })).json()) as { id: string }[];
    const auth = { authorization: `Bearer ${session.access_token}`, 'x-workspace-id': ws[0]!.id };
    await postJson(`${url}/sandbox/_config`, { latencyMs: 0, processingMs: 0, maxRequests: 1_000_000 });
    await postJson(`${url}/unified/oauth/url`, { platform: ['bluesky'], handle: 'bench.sandbox', app_password: 'abcd-efgh-ijkl-mnop' }, auth);
    await connectLinkedIn(url, auth).catch((err: unknown) => console.log(`  (LinkedIn not connected: ${String(err)})`));
    const key = (await postJson<{ secret: string }>(`${url}/workspaces/${ws[0]!.id}/api-keys`, { scope: 'full' }, { authorization: `Bearer ${session.access_token}` })).secret;

    const rest: autocannon.Options = { url: `${url}/unified/user-profiles/`, headers: { 'x-api-key': key } };
    const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_accounts', arguments: {} } });
    const mcp: autocannon.Options = {
      url: `${url}/mcp`,
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: mcpBody,
    };
    const gpt: autocannon.Options = { url: `${url}/unified/gpt-actions/get_accounts`, method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' };

    // Check each surface answers what it should before measuring it.
    const restCheck = await fetch(rest.url as string, { headers: rest.headers as Record<string, string> });
    if (!restCheck.ok) throw new Error(`REST user-profiles: ${restCheck.status} ${await restCheck.text()}`);
    const mcpCheck = (await (await fetch(mcp.url as string, { method: 'POST', headers: mcp.headers as Record<string, string>, body: mcpBody })).json()) as { result?: { isError: boolean; structuredContent?: { platforms: string[] } } };
    if (mcpCheck.result?.isError !== false) throw new Error(`MCP get_accounts: ${JSON.stringify(mcpCheck)}`);
    const gptCheck = await fetch(gpt.url as string, { method: 'POST', headers: gpt.headers as Record<string, string>, body: '{}' });
    const withGpt = gptCheck.status === 200;
    console.log(`  accounts: ${mcpCheck.result.structuredContent?.platforms.join(', ')}; GPT Actions route ${withGpt ? 'present' : `absent (${gptCheck.status}), skipped`}`);

    // Warm-up of every surface, then the measured runs, REST first and last so drift shows.
    for (const o of [rest, mcp, ...(withGpt ? [gpt] : [])]) await autocannon({ ...o, connections: 20, duration: 2 });
    const rows: Row[] = [];
    rows.push(await run('REST GET /unified/user-profiles/', { ...rest, duration: opts.seconds }));
    rows.push(await run('MCP tools/call get_accounts (/mcp)', { ...mcp, duration: opts.seconds }));
    if (withGpt) rows.push(await run('GPT Actions POST get_accounts', { ...gpt, duration: opts.seconds }));
    rows.push(await run('REST GET /unified/user-profiles/ (again)', { ...rest, duration: opts.seconds }));
    for (const r of rows) {
      console.log(`  ${r.name.padEnd(42)} ${fmt(r.rps, 0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx} errors ${r.errors}`);
    }
    const restRps = (rows[0]!.rps + rows.at(-1)!.rps) / 2;
    for (const r of rows.slice(1, -1)) console.log(`  ${r.name}: ${fmt((r.rps / restRps) * 100, 0)}% of the REST rate (target ≥ 70%)`);
  } finally {
    await herald.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
