// `npm run bench scheduling-api`: the quick figures of docs/scheduling.md (sandbox at 0 ms latency):
// how fast entries are created and listed, and how a burst of posts all due at the same moment drains
// through the in-process worker (pg-boss wake-ups) to the simulators. The load benchmark of the
// scheduling issue (10,000 posts in a minute, several worker processes) is bench/scheduling.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fmt, freePort, postJson, startHerald } from './lib.ts';

interface Row {
  scheduled_time: string;
  published_at: string | null;
  status: string;
}

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN;

export async function benchSchedulingApi(opts: { seconds: number; burst: number; databaseUrl?: string | undefined }) {
  console.log(
    `\n== Scheduling: queue entries, and a burst of ${opts.burst} posts due at once (${opts.databaseUrl ? 'PostgreSQL' : 'PGlite'})`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  const port = await freePort();
  const herald = await startHerald({
    HERALD_DATA_DIR: dir,
    HERALD_SANDBOX: '1',
    PORT: String(port),
    HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
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
    await postJson(
      `${url}/unified/oauth/url`,
      { platform: ['bluesky'], handle: 'bench.sandbox', app_password: 'abcd-efgh-ijkl-mnop' },
      auth,
    );
    await postJson(`${url}/sandbox/_config`, { latencyMs: 0, processingMs: 0, maxRequests: 100000 });

    // Creation throughput: entries far in the future, so the worker leaves them alone.
    const far = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const create = await autocannon({
      url: `${url}/unified/scheduled-posts`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ post_type: 'text', platforms: ['bluesky'], default_text: 'Bench', scheduled_time: far }),
      connections: 10,
      duration: opts.seconds,
    });
    console.log(
      `  create (POST /unified/scheduled-posts)  ${fmt(create.requests.average).padStart(7)} req/s  p50 ${create.latency.p50} ms  p99 ${create.latency.p99} ms  non-2xx ${create.non2xx}`,
    );
    const list = await autocannon({
      url: `${url}/unified/scheduled-posts?limit=50`,
      headers: auth,
      connections: 10,
      duration: opts.seconds,
    });
    console.log(
      `  list 50 (GET /unified/scheduled-posts)  ${fmt(list.requests.average).padStart(7)} req/s  p50 ${list.latency.p50} ms  p99 ${list.latency.p99} ms`,
    );

    // The burst: all due at the same moment, a few seconds after they are created.
    const due = new Date(Date.now() + 3000 + opts.burst * 20);
    for (let i = 0; i < opts.burst; i++)
      await postJson(
        `${url}/unified/scheduled-posts`,
        { post_type: 'text', platforms: ['bluesky'], default_text: `Burst ${i}`, scheduled_time: due.toISOString() },
        auth,
      );
    let rows: Row[] = [];
    const deadline = due.getTime() + 120_000;
    while (Date.now() < deadline) {
      rows = [];
      for (let offset = 0; ; offset += 100) {
        const page = (
          (await (
            await fetch(`${url}/unified/scheduled-posts?status=published&limit=100&offset=${offset}`, { headers: auth })
          ).json()) as { data: { scheduled_posts: Row[] } }
        ).data.scheduled_posts;
        rows.push(...page);
        if (page.length < 100) break;
      }
      if (rows.length >= opts.burst) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const lags = rows.map((r) => new Date(r.published_at!).getTime() - new Date(r.scheduled_time).getTime());
    console.log(
      `  burst: ${rows.length}/${opts.burst} published; lag from scheduled time to published  first ${Math.min(...lags)} ms  p50 ${pct(lags, 50)} ms  p99 ${pct(lags, 99)} ms  last ${Math.max(...lags)} ms (target: first pickup within ~1 s)`,
    );
  } finally {
    await herald.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
