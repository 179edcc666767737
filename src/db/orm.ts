// Drizzle, loaded through require(). Node's ESM loader deserialises a package's "exports" map once per
// imported file; drizzle-orm's is 179 KB and it has hundreds of files, so `import` left ~230 MB of
// heap behind at start-up (measured on Node 24), against ~20 MB through require(). Types are unchanged.
import { createRequire } from 'node:module';

// drizzle-kit loads the schema as CommonJS, where import.meta is empty.
const load = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);

export const orm = load('drizzle-orm') as typeof import('drizzle-orm');
export const pgCore = load('drizzle-orm/pg-core') as typeof import('drizzle-orm/pg-core');
export const { and, count, desc, eq, gt, gte, inArray, notInArray, isNull, isNotNull, lt, lte, ne, or, sql, asc, not } =
  orm;

/** A SQL fragment built with `sql` (what Drizzle's `sql` tag returns). */
export type SQL = ReturnType<typeof sql>;
