// `herald backup`: one .tar.gz holding a consistent database dump, the media, the generated secrets and a manifest
// (docs/backup.md). Every entry is streamed into the archive; nothing holds the whole archive or a whole file.
//
// Consistency. PGlite admits one process, and a running server holds its data directory (src/db/lock.ts). While a
// server runs, the backup asks it over its local socket to hold the database still (src/db/snapshot-hold.ts): the
// server checkpoints and reads the row counts, the backup copies the database's files beside them, lets the server
// go, and archives the copy. With no server running, the backup takes the directory's lock itself, opens the
// database once so a crashed process's WAL is replayed, counts the rows, closes it cleanly and archives the
// directory's files while still holding the lock. PostgreSQL is backed up online: the row counts are read in a
// repeatable-read transaction whose snapshot pg_dump then dumps (--snapshot), so the counts in the manifest are
// those of the dump.
import { randomBytes } from 'node:crypto';
import { constants, createWriteStream, existsSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { cp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from '../../config.ts';
import { PGLITE_CONF } from '../../db/client.ts';
import { databaseFacts, type DatabaseFacts, type MediaObject, serverMajor } from '../../db/facts.ts';
import { acquireDirLock, DataDirLockedError } from '../../db/lock.ts';
import { pgliteVersion } from '../../db/pglite-template.ts';
import { baselineWasm } from '../../db/pglite-wasm.ts';
import { holdSocketPath } from '../../db/snapshot-hold.ts';
import { createMediaStorage } from '../../media/storage/index.ts';
import { UsageError } from '../errors.ts';
import { heraldVersion } from '../version.ts';
import { ArchiveWriter } from './archive.ts';
import { askToHold, type Held } from './hold.ts';
import { ENTRY, FORMAT, FORMAT_VERSION, MANIFEST, type Manifest } from './manifest.ts';
import { checkTool, runTool } from './pg-tools.ts';

export interface BackupOptions {
  /** A file name, `-` for stdout; default herald-backup-<UTC timestamp>.tar.gz in the current directory. */
  out?: string | undefined;
  /** S3 media: include the objects (default) or only list them. Disk media are always included. */
  media?: 'include' | 'list' | undefined;
  now?: Date;
}

export interface BackupResult {
  /** The archive written, or '-' for stdout. */
  file: string;
  manifest: Manifest;
  /** Embedded database backed up while its server ran: how long the server held still for the copy. */
  heldMs?: number;
}

export function defaultBackupName(now: Date): string {
  return `herald-backup-${now
    .toISOString()
    .replace(/[:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`;
}

/** Every file under `root` (relative paths with `/`) and every directory, files in a stable order. */
export async function walk(
  root: string,
  skip?: (rel: string) => boolean,
): Promise<{ files: string[]; dirs: string[] }> {
  const files: string[] = [];
  const dirs: string[] = [];
  if (!existsSync(root)) return { files, dirs };
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const rel = relative(root, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (skip?.(rel)) continue;
    if (entry.isDirectory()) dirs.push(rel);
    else if (entry.isFile()) files.push(rel);
  }
  return { files: files.sort(), dirs: dirs.sort() };
}

interface Dumped extends DatabaseFacts {
  kind: Manifest['database']['kind'];
  pgDumpMajor?: number;
  heldMs?: number;
  /** Writes the database's entries into the archive. */
  write(archive: ArchiveWriter): Promise<void>;
  release(): void;
}

export const lockedMessage = (err: DataDirLockedError) =>
  `${err.message}\nThat process does not answer backups (a Herald older than this one, a \`herald restore\` or ` +
  '`herald db move` at work, or a data directory whose path is too long for a unix socket: docs/backup.md). Stop ' +
  'it, run `herald backup`, start it again (systemctl stop herald && herald backup && systemctl start herald).';

/** The database's files and its empty directories, from `root` (the data directory's or a copy of it). */
async function pgliteEntries(root: string): Promise<(archive: ArchiveWriter) => Promise<void>> {
  const { files, dirs } = await walk(root);
  return async (archive) => {
    await archive.addBuffer(ENTRY.pgliteDirs, JSON.stringify(dirs));
    for (const rel of files) {
      const st = statSync(join(root, rel));
      await archive.addFile(`${ENTRY.pgliteDir}${rel}`, join(root, rel), st.size, st.mtime);
    }
  };
}

/**
 * The server holds the database still: its files are copied into a private directory of the data directory (same
 * file system: a clone where it can, a plain copy elsewhere), the server is let go, and the archive is written from
 * the copy, so a slow destination (stdout into a pipe) never keeps the server waiting.
 */
async function copyHeld(config: Config, dir: string, held: Held): Promise<Dumped> {
  const staging = mkdtempSync(join(config.dataDir, 'backup-copy-'));
  const copy = join(staging, 'pglite');
  let heldMs: number;
  try {
    try {
      await cp(dir, copy, {
        recursive: true,
        mode: constants.COPYFILE_FICLONE,
        // The running server's pid file describes it, not the copy.
        filter: (src) => src !== join(dir, 'postmaster.pid'),
      });
    } catch (err) {
      held.abandon();
      throw err;
    }
    heldMs = await held.release();
    return {
      kind: 'pglite',
      ...held.facts,
      heldMs,
      write: await pgliteEntries(copy),
      release: () => rmSync(staging, { recursive: true, force: true }),
    };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

async function dumpPglite(config: Config): Promise<Dumped> {
  const dir = join(config.dataDir, 'pglite');
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new UsageError(`there is no embedded database in ${config.dataDir}`);
  if (existsSync(join(config.dataDir, 'pglite.incomplete'))) {
    throw new UsageError(`the embedded database in ${config.dataDir} was never completely made: nothing to back up`);
  }
  // A running server answers on its socket; with none, the backup takes the data directory itself.
  const held = await askToHold(holdSocketPath(config.dataDir));
  if (held) return copyHeld(config, dir, held);
  let lock: ReturnType<typeof acquireDirLock>;
  try {
    lock = acquireDirLock(join(config.dataDir, 'pglite.lock'));
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new UsageError(lockedMessage(err));
    throw err;
  }
  try {
    baselineWasm();
    const client = new PGlite(dir, { postgresqlconf: PGLITE_CONF });
    await client.waitReady;
    let facts: DatabaseFacts;
    try {
      facts = await databaseFacts(client);
    } finally {
      await client.close();
    }
    return { kind: 'pglite', ...facts, write: await pgliteEntries(dir), release: () => lock.release() };
  } catch (err) {
    lock.release();
    throw err;
  }
}

async function dumpPostgres(url: string): Promise<Dumped> {
  const client = new pg.Client({ connectionString: url, application_name: 'herald-backup' });
  await client.connect();
  const tmp = mkdtempSync(join(tmpdir(), 'herald-backup-'));
  const file = join(tmp, 'postgres.dump');
  try {
    const pgDumpMajor = await checkTool('pg_dump', await serverMajor(client));
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
    const facts = await databaseFacts(client);
    await runTool('pg_dump', url, [
      '--format=custom',
      `--snapshot=${snapshot}`,
      '--no-owner',
      '--no-privileges',
      `--file=${file}`,
    ]);
    await client.query('commit');
    return {
      kind: 'postgres',
      ...facts,
      pgDumpMajor,
      async write(archive) {
        await archive.addFile(ENTRY.postgresDump, file, statSync(file).size);
      },
      release: () => rmSync(tmp, { recursive: true, force: true }),
    };
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}

async function writeMedia(
  config: Config,
  archive: ArchiveWriter,
  objects: MediaObject[],
  mode: 'include' | 'list',
): Promise<number> {
  const storage = config.media.storage;
  if (storage.driver === 'disk') {
    // The store's files as they are (objects and their .meta sidecars); uploads in progress (.tmp) are left out.
    const { files } = await walk(storage.root, (rel) => rel === '.tmp' || rel.startsWith('.tmp/'));
    for (const rel of files) {
      const path = join(storage.root, rel);
      const st = statSync(path, { throwIfNoEntry: false });
      // An object deleted since the walk is simply not in the backup.
      if (st) await archive.addFile(`${ENTRY.media}${rel}`, path, st.size, st.mtime);
    }
    await archive.addBuffer(ENTRY.mediaList, JSON.stringify(objects));
    return files.filter((f) => !f.startsWith('.meta/')).length;
  }
  await archive.addBuffer(ENTRY.mediaList, JSON.stringify(objects));
  // Listed: the manifest counts the objects the list names (they stay in the bucket).
  if (mode === 'list') return objects.length;
  const s3 = await createMediaStorage(storage);
  let n = 0;
  for (const o of objects) {
    const got = await s3.get(o.key).catch(() => undefined);
    if (!got) continue; // a row whose object is gone: listed, not included
    await archive.add(`${ENTRY.media}${o.key}`, got.size, got.body);
    n++;
  }
  return n;
}

export async function runBackup(config: Config, o: BackupOptions = {}): Promise<BackupResult> {
  const now = o.now ?? new Date();
  const mode = config.media.storage.driver === 'disk' ? 'include' : (o.media ?? 'include');
  const target = o.out ?? defaultBackupName(now);
  const partial = target === '-' ? undefined : `${target}.${randomBytes(4).toString('hex')}.partial`;
  const dumped = config.databaseUrl ? await dumpPostgres(config.databaseUrl) : await dumpPglite(config);
  try {
    const out: Writable = partial ? createWriteStream(partial, { mode: 0o600 }) : process.stdout;
    const archive = new ArchiveWriter(out);
    await dumped.write(archive);
    const objects = await writeMedia(config, archive, dumped.objects, mode);
    const secretsFile = join(config.dataDir, 'secrets.json');
    const fromFile = !(config.jwtSecret && config.encryptionKey) && existsSync(secretsFile);
    if (fromFile) await archive.addFile(ENTRY.secrets, secretsFile, statSync(secretsFile).size);
    const manifest: Manifest = {
      format: FORMAT,
      format_version: FORMAT_VERSION,
      herald_version: heraldVersion(),
      created_at: now.toISOString(),
      schema_version: dumped.schemaVersion,
      database: {
        kind: dumped.kind,
        server_major: dumped.serverMajor,
        ...(dumped.kind === 'pglite' ? { pglite_version: pgliteVersion() } : {}),
        ...(dumped.pgDumpMajor ? { pg_dump_major: dumped.pgDumpMajor } : {}),
      },
      tables: dumped.tables,
      media: { storage: config.media.storage.driver, mode, objects },
      secrets: fromFile ? 'file' : 'settings',
      entries: { ...archive.sums },
    };
    await archive.addBuffer(MANIFEST, JSON.stringify(manifest, null, 2));
    await archive.finish();
    if (partial) renameSync(partial, target);
    return { file: target, manifest, ...(dumped.heldMs !== undefined ? { heldMs: dumped.heldMs } : {}) };
  } catch (err) {
    if (partial) rmSync(partial, { force: true });
    throw err;
  } finally {
    dumped.release();
  }
}
