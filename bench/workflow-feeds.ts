// Feeds, for `npm run bench workflow`: one poll round over 100 feeds of 50 items each, served by a local server, in
// process (embedded PGlite, or the PostgreSQL of DATABASE_URL). Three rounds: the first (every item remembered, none
// posted: no backfill), a second after each feed gained 5 items (those become drafts: 500 posts through
// publishing), and a third where every feed answers 304. Prints each round's time and the process's RSS and heap
// after it. BENCH_FEEDS (default 100) and BENCH_FEED_ITEMS (default 50) change the sizes.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { openDatabase } from '../src/db/client.ts';
import { sql } from '../src/db/orm.ts';
import { FULL_SCOPE } from '../src/auth/scopes.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function rss(feed: number, count: number): string {
  const items = Array.from({ length: count }, (_, k) => {
    const i = count - k;
    return `<item><title>Feed ${feed} post ${i}</title><link>https://blog.example/${feed}/${i}</link><guid>${feed}-${i}</guid><description>${esc(`Summary <b>${i}</b> of feed ${feed}, a paragraph or so of text.`)}</description><pubDate>${new Date(Date.UTC(2026, 10, 1) + i * 60_000).toUTCString()}</pubDate></item>`;
  });
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed ${feed}</title>${items.join('')}</channel></rss>`;
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;

export async function benchFeeds(
  opts: { feeds?: number; items?: number; databaseUrl?: string | undefined } = {},
): Promise<void> {
  const feeds = opts.feeds ?? Number(process.env.BENCH_FEEDS ?? 100);
  const perFeed = opts.items ?? Number(process.env.BENCH_FEED_ITEMS ?? 50);
  const databaseUrl = opts.databaseUrl ?? process.env.DATABASE_URL;
  let extra = 0;
  let requests = 0;
  const docs = new Map<string, string>();
  const server = createServer((req, res) => {
    requests++;
    const n = Number((req.url ?? '').replace(/\D/g, ''));
    const body = docs.get(`${n}:${extra}`) ?? rss(n, perFeed + extra);
    docs.set(`${n}:${extra}`, body);
    const etag = `"${n}-${extra}"`;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
    res.writeHead(200, { 'content-type': 'application/rss+xml', etag }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-feeds-'));
  const config = loadConfig({
    ...process.env,
    HERALD_DATA_DIR: dataDir,
    HERALD_LOG_LEVEL: 'silent',
    HERALD_FETCH_ALLOW_HOSTS: '127.0.0.1',
    HERALD_FEED_POLL_SECONDS: '0',
    HERALD_FEED_MAX_ITEMS: '50',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir, memory: !databaseUrl, poolSize: 8 });
  const ctx = await createContext(config, { database, logger: pino({ level: 'silent' }) });
  try {
    const user = await ctx.accounts.signup({ email: `bench-${Date.now()}@example.test`, password: 'bench password 1' });
    const workspace = (await ctx.workspaces.listForUser(user.id))[0]!;
    const p = {
      kind: 'jwt' as const,
      user,
      workspaceId: workspace.id,
      planId: (await ctx.workspaces.byId(workspace.id))!.planId,
      role: 'owner' as const,
      scope: FULL_SCOPE,
      keyId: null,
    };
    for (let i = 0; i < feeds; i++) await ctx.feeds.create(p, { url: `${base}/feed/${i}`, networks: ['threads'] });
    const round = async (label: string) => {
      const before = requests;
      const t0 = performance.now();
      // Every feed is due again for this round: the bench measures polls, not the interval.
      await ctx.database.db.execute(sql`update feeds set last_polled_at = null`);
      const r = await ctx.feedPoller.round();
      const ms = performance.now() - t0;
      const m = process.memoryUsage();
      console.log(
        `feeds ${label}: ${r.feeds} feeds, ${requests - before} requests, ${r.notModified} not modified, ${r.posted} posted, ${r.failed} failed in ${ms.toFixed(0)} ms (${(ms / Math.max(1, r.feeds)).toFixed(1)} ms/feed); rss ${mib(m.rss)}, heap ${mib(m.heapUsed)}`,
      );
    };
    await round(`first poll (${perFeed} items each, none posted)`);
    extra = 5;
    await round('5 new items per feed (drafts)');
    await round('unchanged (304)');
  } finally {
    await ctx.close();
    server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
