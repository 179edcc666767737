// Upgrades: a database made by an earlier release (test/fixtures/upgrade/: that release's migrations and rows it
// wrote) is migrated by this build with its rows kept; a database from a newer Herald is refused at start.
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, SchemaTooNewError } from '../../src/db/client.ts';
import { createTestDatabaseUrl } from '../helpers/harness.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/upgrade/', import.meta.url));
const load = createRequire(import.meta.url);

let database: Database;
let drop: (() => Promise<void>) | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'herald-upgrade-'));

async function query(text: string): Promise<Record<string, unknown>[]> {
  if (database.pool) return (await database.pool.query(text)).rows;
  return (await database.pglite!.query<Record<string, unknown>>(text)).rows;
}

beforeAll(async () => {
  const made = await createTestDatabaseUrl();
  drop = made?.drop;
  database = await openDatabase({ databaseUrl: made?.url, dataDir, memory: !made, poolSize: 2 });
  const migrationsFolder = join(FIXTURE, 'migrations');
  if (database.pool) {
    const { drizzle } = load('drizzle-orm/node-postgres') as typeof import('drizzle-orm/node-postgres');
    const { migrate } = load(
      'drizzle-orm/node-postgres/migrator',
    ) as typeof import('drizzle-orm/node-postgres/migrator');
    await migrate(drizzle(database.pool), { migrationsFolder });
    await database.pool.query(readFileSync(join(FIXTURE, 'seed.sql'), 'utf8'));
  } else {
    const { drizzle } = load('drizzle-orm/pglite') as typeof import('drizzle-orm/pglite');
    const { migrate } = load('drizzle-orm/pglite/migrator') as typeof import('drizzle-orm/pglite/migrator');
    await migrate(drizzle(database.pglite!), { migrationsFolder });
    await database.pglite!.exec(readFileSync(join(FIXTURE, 'seed.sql'), 'utf8'));
  }
});

afterAll(async () => {
  await database?.close();
  await drop?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a database from an earlier release', () => {
  it('is migrated to this schema with its rows kept', async () => {
    const before = await database.migrationStatus();
    expect(before.applied).toBe(14);
    expect(before.shipped).toBeGreaterThan(14);
    await database.migrate();
    expect(await database.migrationStatus()).toEqual({ applied: before.shipped, shipped: before.shipped });
    expect(await query('select email, is_admin from users')).toEqual([
      { email: 'before-upgrade@example.test', is_admin: true },
    ]);
    expect(await query('select name, time_zone from workspaces')).toEqual([
      { name: 'Old workspace', time_zone: 'Europe/Paris' },
    ]);
    // Tables of the later migrations exist and work beside the old rows.
    expect(await query('select count(*)::int as n from events')).toEqual([{ n: 0 }]);
  });

  it('refuses a database migrated by a newer Herald, saying so', async () => {
    await query(
      `insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-herald', 99999999999999)`,
    );
    await expect(database.migrate()).rejects.toThrow(SchemaTooNewError);
    await expect(database.migrate()).rejects.toThrow(/newer than this Herald knows.*a newer Herald made it/s);
  });
});
