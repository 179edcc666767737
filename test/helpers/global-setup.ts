// Runs once before the suites. When DATABASE_URL is set the suites run against that PostgreSQL;
// an unreachable server is a hard failure, never a silent skip.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.ts';

// Every test harness on PGlite starts from one migrated database made here (test/helpers/harness.ts
// loads it with PGlite's loadDataDir) instead of running initdb and the migrations itself: ~3 s of CPU
// per harness otherwise. Servers the suites spawn share one template cache of this run
// (HERALD_PGLITE_TEMPLATE_DIR), never the user's.
async function pgliteTemplate(dir: string): Promise<void> {
  const database = await openDatabase({ dataDir: dir, memory: true });
  try {
    await database.migrate();
    const tarball = await database.pglite!.dumpDataDir('none');
    const file = join(dir, 'migrated.tar');
    writeFileSync(file, new Uint8Array(await tarball.arrayBuffer()));
    process.env.HERALD_TEST_PGLITE_TEMPLATE = file;
  } finally {
    await database.close();
  }
}

export default async function setup(): Promise<(() => void) | undefined> {
  let dir: string | undefined;
  if (!process.env.HERALD_TEST_PGLITE_TEMPLATE_ROOT) {
    dir = mkdtempSync(join(tmpdir(), 'herald-test-templates-'));
    process.env.HERALD_TEST_PGLITE_TEMPLATE_ROOT = dir;
    process.env.HERALD_PGLITE_TEMPLATE_DIR ??= join(dir, 'cache');
    if (!process.env.DATABASE_URL) await pgliteTemplate(dir);
  }
  const teardown = dir ? () => rmSync(dir, { recursive: true, force: true }) : undefined;
  await checkServices();
  return teardown;
}

async function checkServices(): Promise<void> {
  // CI must run every suite: a missing service there is a failure, not a skip.
  if (process.env.CI && !process.env.REDIS_URL)
    throw new Error('CI run without REDIS_URL: the Redis-backed suites would not run');
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.log('[herald tests] database: embedded PGlite (set DATABASE_URL to run against PostgreSQL)');
    return;
  }
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    console.log(`[herald tests] database: PostgreSQL ${rows[0]?.server_version} at ${new URL(url).host}`);
  } catch (err) {
    throw new Error(`DATABASE_URL is set but PostgreSQL is unreachable: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}
