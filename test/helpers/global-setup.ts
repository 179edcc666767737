// Runs once before the suites. When DATABASE_URL is set the suites run against that PostgreSQL;
// an unreachable server is a hard failure, never a silent skip.
import pg from 'pg';

export default async function setup(): Promise<void> {
  // CI must run every suite: a missing service there is a failure, not a skip.
  if (process.env.CI && !process.env.REDIS_URL) throw new Error('CI run without REDIS_URL: the Redis-backed suites would not run');
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
