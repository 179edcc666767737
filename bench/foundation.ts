// Foundation figures: authenticated request throughput vs. /healthz, start-up times and idle memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { fmt, load, postJson, rssMiB, startHerald } from './lib.ts';

async function freshPgDatabase(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `herald_bench_${Date.now()}`;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const d = new pg.Client({ connectionString: base });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

async function throughput(label: string, env: Record<string, string>, seconds: number) {
  const server = await startHerald(env);
  try {
    const session = await postJson<{ access_token: string }>(`${server.url}/auth/signup`, {
      email: 'bench@example.test',
      password: 'benchmark password',
    });
    const ws = (await (
      await fetch(`${server.url}/workspaces`, { headers: { authorization: `Bearer ${session.access_token}` } })
    ).json()) as { id: string }[];
    const key = await postJson<{ secret: string }>(
      `${server.url}/workspaces/${ws[0]!.id}/api-keys`,
      { scope: 'full' },
      { authorization: `Bearer ${session.access_token}` },
    );
    await load(`${server.url}/healthz`, {}, 2); // warm-up
    const health = await load(`${server.url}/healthz`, {}, seconds);
    const viaKey = await load(`${server.url}/billing/usage`, { 'x-api-key': key.secret }, seconds);
    const viaJwt = await load(
      `${server.url}/billing/usage`,
      { authorization: `Bearer ${session.access_token}`, 'x-workspace-id': ws[0]!.id },
      seconds,
    );
    console.log(`\n[${label}] 50 connections, ${seconds}s each`);
    for (const [name, r] of [
      ['GET /healthz (no auth)', health],
      ['GET /billing/usage (API key)', viaKey],
      ['GET /billing/usage (JWT + X-Workspace-Id)', viaJwt],
    ] as const) {
      console.log(
        `  ${name.padEnd(44)} ${fmt(r.rps, 0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors} non-2xx ${r.non2xx}`,
      );
    }
    console.log(`  API-key rate / healthz rate: ${fmt((viaKey.rps / health.rps) * 100, 0)}% (target ≥ 50%)`);
  } finally {
    await server.stop();
  }
}

export async function benchFoundation(opts: { seconds: number; databaseUrl?: string }) {
  console.log('\n== Foundation');
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  try {
    const cold = await startHerald({ HERALD_DATA_DIR: dir });
    await new Promise((r) => setTimeout(r, 1000));
    const coldRss = rssMiB(cold.child.pid!);
    await cold.stop();
    const warm = await startHerald({ HERALD_DATA_DIR: dir });
    await new Promise((r) => setTimeout(r, 1000));
    const warmRss = rssMiB(warm.child.pid!);
    await warm.stop();
    console.log(
      `embedded start to /healthz: cold (fresh data dir) ${fmt(cold.startMs, 0)} ms, warm ${fmt(warm.startMs, 0)} ms`,
    );
    console.log(
      `idle RSS 1 s after start: cold ${fmt(coldRss, 0)} MiB, warm ${fmt(warmRss, 0)} MiB (target < 300 MiB)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pgliteDir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  try {
    await throughput('PGlite', { HERALD_DATA_DIR: pgliteDir }, opts.seconds);
  } finally {
    rmSync(pgliteDir, { recursive: true, force: true });
  }
  if (opts.databaseUrl) {
    const db = await freshPgDatabase(opts.databaseUrl);
    const dir2 = mkdtempSync(join(tmpdir(), 'herald-bench-'));
    try {
      await throughput('PostgreSQL', { HERALD_DATA_DIR: dir2, DATABASE_URL: db.url }, opts.seconds);
    } finally {
      await db.drop();
      rmSync(dir2, { recursive: true, force: true });
    }
  } else {
    console.log('[PostgreSQL] skipped: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)');
  }
}
