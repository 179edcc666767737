// What backup, restore and `db move` ask a database, over either driver: a raw query, the tables and their row
// counts, the schema version (migrations applied; src/db/facts.ts), and the version of the migrations this build
// ships.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../../db/client.ts';
import type { Sql } from '../../db/facts.ts';

export { heraldTables, qualified, type Sql, schemaVersion, serverMajor, tableCounts } from '../../db/facts.ts';

/** The schemas Herald's rows live in: its tables, drizzle's migration journal and the job queue (pg-boss). */
export const HERALD_SCHEMAS = ['public', 'drizzle', 'pgboss'] as const;

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
