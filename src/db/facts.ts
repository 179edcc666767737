// What a backup records about a database, over either driver: its tables and their row counts, the schema version
// (migrations applied), the server's major version and the media rows' objects. The backup (src/cli/backup/) asks
// them of the database itself, or of the running server that holds an embedded one (snapshot-hold.ts).

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/** A media row's object in the store. */
export interface MediaObject {
  key: string;
  size: number;
  content_type: string;
}

/** What the manifest of a backup records about the database it dumps. */
export interface DatabaseFacts {
  serverMajor: number;
  schemaVersion: number;
  tables: Record<string, number>;
  objects: MediaObject[];
}

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

/** The PostgreSQL server's major version. */
export async function serverMajor(db: Sql): Promise<number> {
  const { rows } = await db.query<{ v: string }>(`select current_setting('server_version_num') as v`);
  return Math.floor(Number(rows[0]?.v) / 10_000);
}

/** Every media row's storage key, size and content type (none on a database without the media table yet). */
export async function mediaObjects(db: Sql): Promise<MediaObject[]> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from pg_tables where schemaname = 'public' and tablename = 'media'`,
  );
  if (!Number(rows[0]?.n)) return [];
  return (
    await db.query<{ key: string; size: string | number; content_type: string }>(
      'select storage_key as key, file_size as size, mime as content_type from media order by storage_key',
    )
  ).rows.map((r) => ({ key: r.key, size: Number(r.size), content_type: r.content_type }));
}

/** Everything a backup's manifest records about the database, read through `db` (one snapshot when it is one). */
export async function databaseFacts(db: Sql): Promise<DatabaseFacts> {
  return {
    serverMajor: await serverMajor(db),
    schemaVersion: await schemaVersion(db),
    tables: await tableCounts(db),
    objects: await mediaObjects(db),
  };
}
