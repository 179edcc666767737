// Raw statements (data-modifying CTEs that Drizzle's builder cannot express) read and written with a table's own
// column mapping: rows come back typed as Drizzle would return them, SET lists are built from camelCase patches.
import type { PgTable } from 'drizzle-orm/pg-core';
import { orm, type SQL, sql } from './orm.ts';

/** The rows of a raw statement's result (both drivers put them under `rows`). */
export const rowsOf = (res: unknown): Record<string, unknown>[] => (res as { rows: Record<string, unknown>[] }).rows;

/** A table's row mapper and SET-list builder for raw statements. */
export function rawTable<T extends PgTable>(table: T) {
  const columns = Object.entries(orm.getTableColumns(table));
  return {
    /** A row as a raw statement returns it (snake_case, driver values), typed as Drizzle would. */
    row(raw: Record<string, unknown>): T['$inferSelect'] {
      const out: Record<string, unknown> = {};
      for (const [key, col] of columns) {
        const v = raw[col.name];
        out[key] = v === null || v === undefined ? null : col.mapFromDriverValue(v);
      }
      return out as T['$inferSelect'];
    },
    /** `col = value, …` for the keys of `values` (camelCase, as Drizzle names them). */
    set(values: Record<string, unknown>): SQL {
      return sql.join(
        columns
          .filter(([key]) => key in values)
          .map(([key, col]) => {
            const v = values[key];
            return sql`${sql.identifier(col.name)} = ${v === null || v === undefined ? null : col.mapToDriverValue(v)}`;
          }),
        sql`, `,
      );
    },
  };
}

/** A value made on first use (a prepared statement, built once the database is open). */
export function lazy<T>(make: () => T): () => T {
  let made: { v: T } | undefined;
  return () => {
    made ??= { v: make() };
    return made.v;
  };
}
