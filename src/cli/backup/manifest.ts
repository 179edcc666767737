// The manifest written last into every backup: what made it, what it holds and the checksum of every other entry.
import type { EntrySum } from './archive.ts';

export const MANIFEST = 'manifest.json';
export const FORMAT = 'herald-backup';
export const FORMAT_VERSION = 1;

/** Entry names inside the archive. */
export const ENTRY = {
  pgliteDir: 'database/pglite/',
  pgliteDirs: 'database/pglite-directories.json',
  postgresDump: 'database/postgres.dump',
  media: 'media/',
  mediaList: 'media-list.json',
  secrets: 'secrets/secrets.json',
} as const;

export type { MediaObject } from '../../db/facts.ts';

export interface Manifest {
  format: typeof FORMAT;
  format_version: number;
  herald_version: string;
  created_at: string;
  /** Migrations applied to the database that was backed up. */
  schema_version: number;
  database: {
    kind: 'pglite' | 'postgres';
    /** PostgreSQL major version of the server (PGlite: the one it embeds). */
    server_major: number;
    /** PGlite: the package version whose data directory this is. */
    pglite_version?: string;
    /** PostgreSQL: the major version of the pg_dump that wrote the dump. */
    pg_dump_major?: number;
  };
  /** Rows per table of schema public when the dump was taken. */
  tables: Record<string, number>;
  media: {
    storage: 'disk' | 's3';
    /** include: the objects are in the archive; list: only their keys (media-list.json). */
    mode: 'include' | 'list';
    /** Objects in the archive (include), or named by media-list.json (list). */
    objects: number;
  };
  /** Where the signing and encryption keys were: the data directory's secrets file (in the archive) or settings. */
  secrets: 'file' | 'settings';
  entries: Record<string, EntrySum>;
}

export function isManifest(value: unknown): value is Manifest {
  const m = value as Partial<Manifest> | null;
  return (
    !!m &&
    m.format === FORMAT &&
    typeof m.format_version === 'number' &&
    typeof m.schema_version === 'number' &&
    !!m.database &&
    (m.database.kind === 'pglite' || m.database.kind === 'postgres') &&
    !!m.entries &&
    typeof m.entries === 'object'
  );
}
