// Opens the database: embedded PGlite under the data directory (default) or PostgreSQL via DATABASE_URL.
// Both are driven through the same Drizzle PgDatabase type, so repositories never know which one runs.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { createRequire } from 'node:module';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from './orm.ts';
import type pg from 'pg';
import * as baseSchema from './schema.ts';
import * as publishingSchema from './schema-publishing.ts';
import * as schedulingSchema from './schema-scheduling.ts';
import * as accountsSchema from './schema-accounts.ts';
import * as connectionsSchema from './schema-connections.ts';
import * as mediaSchema from './schema-media.ts';
import * as engagementSchema from './schema-engagement.ts';
import * as agentSchema from './schema-agent.ts';
import * as eventsSchema from './schema-events.ts';
import * as webhooksSchema from './schema-webhooks.ts';

const schema = {
  ...baseSchema,
  ...connectionsSchema,
  ...mediaSchema,
  ...publishingSchema,
  ...schedulingSchema,
  ...accountsSchema,
  ...engagementSchema,
  ...agentSchema,
  ...eventsSchema,
  ...webhooksSchema,
};
import { acquireDirLock, type DirLock } from './lock.ts';
import { StatementTap } from './statements.ts';
import { baselineWasm } from './pglite-wasm.ts';
import { type HoldServer, serveHolds } from './snapshot-hold.ts';

// Loaded through require() like the rest of Drizzle (see orm.ts), and only the driver this process uses: a server
// on PGlite never loads node-postgres, one on PostgreSQL never loads PGlite's Drizzle driver.
const load = createRequire(import.meta.url);
const pgliteDriver = () => load('drizzle-orm/pglite') as typeof import('drizzle-orm/pglite');
const pgliteMigrator = () => load('drizzle-orm/pglite/migrator') as typeof import('drizzle-orm/pglite/migrator');
const pgDriver = () => load('drizzle-orm/node-postgres') as typeof import('drizzle-orm/node-postgres');
const pgMigrator = () =>
  load('drizzle-orm/node-postgres/migrator') as typeof import('drizzle-orm/node-postgres/migrator');
const nodePostgres = () => load('pg') as typeof pg;

export type Schema = typeof baseSchema & typeof publishingSchema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
// Embedded PostgreSQL sized for one small process: the defaults (128 MB shared buffers) cost RSS
// that a single-user install never uses.
export const PGLITE_CONF = ['shared_buffers=16MB', 'work_mem=4MB', 'maintenance_work_mem=16MB', 'wal_buffers=1MB'];
const INIT_SCRIPT = fileURLToPath(new URL('./pglite-init.ts', import.meta.url));

// Opens the data directory, making it when there is none, in a child process (pglite-init.ts): unpacked from this
// PGlite build's template when the cache has one (pglite-template.ts), else by initdb, which also stores the
// template. Until a new directory is complete a marker beside it says so, and a start that finds the marker makes
// the directory again: a start that died half-way never leaves something that is taken for a database. (Nothing
// but initdb's output is in it before the marker goes.)
async function openPgliteDir(
  dataDir: string,
  templateDir: string | undefined,
  onCreate?: () => void,
): Promise<{ client: PGlite; made: 'template' | 'initdb' | 'existing' }> {
  const dir = join(dataDir, 'pglite');
  const marker = join(dataDir, 'pglite.incomplete');
  let made: 'template' | 'initdb' | 'existing' = 'existing';
  if (!existsSync(join(dir, 'PG_VERSION')) || existsSync(marker)) {
    onCreate?.();
    writeFileSync(marker, 'a new PGlite data directory is being made; a start that finds this file makes it again\n', {
      mode: 0o600,
    });
    rmSync(dir, { recursive: true, force: true });
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [INIT_SCRIPT, dir, ...(templateDir ? [templateDir] : [])],
      { timeout: 120_000 },
    );
    made = stdout.trim() === 'template' ? 'template' : 'initdb';
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const client = new PGlite(dir, { postgresqlconf: PGLITE_CONF });
  await client.waitReady;
  rmSync(marker, { force: true });
  return { client, made };
}

// An arbitrary constant shared by every Herald process migrating the same PostgreSQL.
const MIGRATION_LOCK_ID = 7_246_813_507;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Raw driver handle for libraries that need it (the job queue). */
  pglite?: PGlite;
  /** PGlite on a data directory: how this start found it (made from the template, by initdb, or already there). */
  pgliteDir?: 'template' | 'initdb' | 'existing';
  /** PGlite on a data directory: the unix socket `herald backup` asks to hold the database still (snapshot-hold.ts). */
  backupSocket?: string;
  pool?: pg.Pool;
  /** Every statement sent through `db` (tests count round trips with it). */
  statements: StatementTap;
  migrate(): Promise<void>;
  /** Number of migrations applied vs. shipped, for /readyz. */
  migrationStatus(): Promise<{ applied: number; shipped: number }>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** In-memory PGlite (tests): no lock file and no directory. */
  memory?: boolean;
  /** In-memory PGlite: start from this data directory (a tarball from PGlite's dumpDataDir) instead of initdb. */
  memoryTemplate?: Blob;
  /**
   * Where fresh data directories are made from and store their template (HERALD_PGLITE_TEMPLATE_DIR); undefined: always
   * initdb.
   */
  templateDir?: string | undefined;
  poolSize?: number;
  /** Called when an embedded database is about to be made on the data directory (a first start), before the wait. */
  onCreate?: () => void;
  /** Embedded database on disk: how long it holds still for an online backup at most (snapshot-hold.ts). */
  backupHoldLimitMs?: number;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.poolSize ?? 10) : openPglite(opts);
}

async function shippedMigrations(): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const journal = JSON.parse(await readFile(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

async function appliedMigrations(db: Db): Promise<number> {
  try {
    const res = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    return Number((res as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  } catch {
    return 0;
  }
}

/** A database migrated by a newer Herald than this one: starting on it could corrupt data, so nothing starts. */
export class SchemaTooNewError extends Error {
  constructor(applied: number, shipped: number) {
    super(
      `The database is at schema version ${applied}, newer than this Herald knows (${shipped}): a newer Herald made it. ` +
        'Run that version (or a later one) instead, or restore a backup made by this version (docs/backup.md).',
    );
    this.name = 'SchemaTooNewError';
  }
}

/** Migrations are forward only: a database with more applied migrations than this build ships is refused. */
async function refuseNewer(db: Db): Promise<void> {
  const [applied, shipped] = [await appliedMigrations(db), await shippedMigrations()];
  if (applied > shipped) throw new SchemaTooNewError(applied, shipped);
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  let lock: DirLock | undefined;
  let client: PGlite;
  let made: Database['pgliteDir'];
  let holds: HoldServer | undefined;
  baselineWasm();
  if (opts.memory) {
    const { PGlite } = await import('@electric-sql/pglite');
    client = new PGlite({
      postgresqlconf: PGLITE_CONF,
      ...(opts.memoryTemplate ? { loadDataDir: opts.memoryTemplate } : {}),
    });
  } else {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    // Two processes on one PGlite directory corrupt it silently: hold a lock for the process lifetime.
    lock = acquireDirLock(join(opts.dataDir, 'pglite.lock'));
    try {
      ({ client, made } = await openPgliteDir(opts.dataDir, opts.templateDir, opts.onCreate));
      // Backups while this process runs: it holds the database still for the copy, asked over a local socket.
      holds = await serveHolds(client, opts.dataDir, { limitMs: opts.backupHoldLimitMs });
    } catch (err) {
      lock.release();
      throw err;
    }
  }
  const statements = new StatementTap();
  const db = statements.wrapTransactions(
    pgliteDriver().drizzle(client, { schema, logger: statements }) as unknown as Db,
  );
  return {
    kind: 'pglite',
    db,
    statements,
    pglite: client,
    ...(made ? { pgliteDir: made } : {}),
    ...(holds ? { backupSocket: holds.path } : {}),
    async migrate() {
      await refuseNewer(db);
      await pgliteMigrator().migrate(db as unknown as Parameters<ReturnType<typeof pgliteMigrator>['migrate']>[0], {
        migrationsFolder: MIGRATIONS_DIR,
      });
    },
    async migrationStatus() {
      return { applied: await appliedMigrations(db), shipped: await shippedMigrations() };
    },
    async close() {
      await holds?.close();
      await client.close();
      lock?.release();
    },
  };
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new (nodePostgres().Pool)({ connectionString: url, max: poolSize });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const statements = new StatementTap();
  const db = statements.wrapTransactions(pgDriver().drizzle(pool, { schema, logger: statements }) as unknown as Db);
  return {
    kind: 'postgres',
    db,
    statements,
    pool,
    async migrate() {
      // Several instances may boot at once: serialise migrations on a session-level advisory lock.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        try {
          await refuseNewer(db);
          await pgMigrator().migrate(pgDriver().drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
        }
      } finally {
        client.release();
      }
    },
    async migrationStatus() {
      return { applied: await appliedMigrations(db), shipped: await shippedMigrations() };
    },
    async close() {
      await pool.end();
    },
  };
}
