// What backup, restore and `db move` ask a database, over either driver: a raw query, the tables and their row
// counts, the schema version (migrations applied), and the version of the migrations this build ships.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../../db/client.ts';

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/** The schemas Herald's rows live in: its tables, drizzle's migration journal and the job queue (pg-boss). */
export const HERALD_SCHEMAS = ['public', 'drizzle', 'pgboss'] as const;

const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;
export const qualified = (table: string) =>
  table
    .split('.')
    .map((part) => ident(part))
    .join('.');

/** Herald's own tables (schema public), by name. */
export async function heraldTables(db: Sql): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  return rows.map((r) => r.name);
}

/** Rows per Herald table: what a backup's manifest records and what a restore or a move is checked against. */
export async function tableCounts(db: Sql): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await heraldTables(db)) {
    const { rows } = await db.query<{ n: number | string }>(`select count(*)::int as n from ${qualified(table)}`);
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

/** Migrations applied: the schema version (0 on a database Herald never migrated). */
export async function schemaVersion(db: Sql): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from pg_tables where schemaname = 'drizzle' and tablename = '__drizzle_migrations'`,
  );
  if (!Number(rows[0]?.n)) return 0;
  const applied = await db.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
  return Number(applied.rows[0]?.n ?? 0);
}

/** The schema version this build migrates to: the number of migrations it ships. */
export function shippedSchemaVersion(): number {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** Whether a database holds anything of Herald's (or anything at all in the schemas Herald uses). */
export async function isEmptyDatabase(db: Sql): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
    [[...HERALD_SCHEMAS]],
  );
  return Number(rows[0]?.n ?? 0) === 0;
}

/** The PostgreSQL server's major version. */
export async function serverMajor(db: Sql): Promise<number> {
  const { rows } = await db.query<{ v: string }>(`select current_setting('server_version_num') as v`);
  return Math.floor(Number(rows[0]?.v) / 10_000);
}

/** A database URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an invalid URL)';
  }
}
