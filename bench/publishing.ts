// Issue 5 figures: latency and throughput of text posts to 1 and to 4 networks (every network the
// text route allows) against the sandbox, with simulated network latency 0 and 200 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fmt, postJson, startHerald } from './lib.ts';

async function connectAll(url: string, auth: Record<string, string>): Promise<string> {
  const r = await postJson<{ results: Record<string, { auth_url: string | null }> }>(`${url}/unified/oauth/url`, { platform: ['linkedin', 'facebook', 'threads'] }, auth);
  for (const [p, v] of Object.entries(r.results)) {
    const res = await fetch(v.auth_url!, { headers: { 'x-sandbox-auto-approve': '1' } });
    if (!(await res.text()).includes('data-status="success"')) throw new Error(`connecting ${p} failed`);
  }
  await postJson(`${url}/unified/oauth/url`, { platform: ['bluesky'], handle: 'bench.sandbox', app_password: 'abcd-efgh-ijkl-mnop' }, auth);
  const profiles = (await (await fetch(`${url}/unified/user-profiles/?platforms=facebook`, { headers: auth })).json()) as { facebook: { pages: { page_id: string }[] } };
  return profiles.facebook.pages[0]!.page_id;
}

async function run(url: string, headers: Record<string, string>, body: unknown, seconds: number, connections: number) {
  const r = await autocannon({ url, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), connections, duration: seconds });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

export async function benchPublishing(opts: { seconds: number }) {
  console.log('\n== Publishing (issue 5): text posts through the adapters to the simulators');
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  // The public URL must be the server's own address: the adapters call the sandbox through it.
  const port = 30_000 + Math.floor(Math.random() * 20_000);
  const herald = await startHerald({ HERALD_DATA_DIR: dir, HERALD_SANDBOX: '1', PORT: String(port), HERALD_PUBLIC_URL: `http://127.0.0.1:${port}` });
  try {
    const url = herald.url;
    const session = await postJson<{ access_token: string }>(`${url}/auth/signup`, { email: 'bench@example.test', password: 'benchmark password' });
    const ws = (await (await fetch(`${url}/workspaces`, { headers: { authorization: `Bearer ${session.access_token}` } })).json()) as { id: string }[];
    const auth = { authorization: `Bearer ${session.access_token}`, 'x-workspace-id': ws[0]!.id };
    const page = await connectAll(url, auth);
    const one = { platforms: ['bluesky'], default_text: 'Benchmark post #herald' };
    const four = { platforms: ['bluesky', 'linkedin', 'facebook', 'threads'], default_text: 'Benchmark post #herald', facebook: { facebook_page_ids: [page] } };
    const single = (p: string) => ({ platforms: [p], default_text: 'Benchmark post #herald', ...(p === 'facebook' ? { facebook: { facebook_page_ids: [page] } } : {}) });
    for (const latencyMs of [0, 200]) {
      await postJson(`${url}/sandbox/_config`, { latencyMs, processingMs: 0, maxRequests: 100 });
      console.log(`[simulated network latency ${latencyMs} ms per call]`);
      // Latency: one request at a time, so the figures are not queueing behind each other.
      const each: Record<string, number> = {};
      for (const p of ['bluesky', 'linkedin', 'facebook', 'threads']) {
        const r = await run(`${url}/unified/post/text`, auth, single(p), Math.max(2, opts.seconds / 2), 1);
        each[p] = r.p50;
        console.log(`  1 network  ${p.padEnd(9)} sequential   p50 ${r.p50} ms  p99 ${r.p99} ms  (${fmt(r.rps, 1)} req/s)`);
      }
      const seq = await run(`${url}/unified/post/text`, auth, four, opts.seconds, 1);
      console.log(`  4 networks together sequential   p50 ${seq.p50} ms  p99 ${seq.p99} ms  (slowest single network p50 ${Math.max(...Object.values(each))} ms, sum ${Object.values(each).reduce((a, b) => a + b, 0)} ms)`);
      const a = await run(`${url}/unified/post/text`, auth, one, opts.seconds, 10);
      const b = await run(`${url}/unified/post/text`, auth, four, opts.seconds, 10);
      console.log(`  throughput, 10 connections: 1 network ${fmt(a.rps, 1)} req/s (p50 ${a.p50} ms), 4 networks ${fmt(b.rps, 1)} req/s (p50 ${b.p50} ms); errors ${a.errors + b.errors}, non-2xx ${a.non2xx + b.non2xx}`);
    }
  } finally {
    await herald.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
