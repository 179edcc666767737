// `herald restore <file>`: reads the archive once to check every entry against the manifest and the versions
// against this build, refuses a target that holds anything (unless --force), then reads it again to put the
// database, the media and the secrets in place, and checks the row counts against the manifest (docs/backup.md).
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from '../../config.ts';
import { PGLITE_CONF } from '../../db/client.ts';
import { acquireDirLock, DataDirLockedError, type DirLock } from '../../db/lock.ts';
import { baselineWasm } from '../../db/pglite-wasm.ts';
import { createMediaStorage } from '../../media/storage/index.ts';
import { UsageError } from '../errors.ts';
import { readArchive, Summing, sumOf, type EntrySum } from './archive.ts';
import { isEmptyDatabase, shippedSchemaVersion, type Sql, tableCounts } from './database.ts';
import { ENTRY, FORMAT_VERSION, isManifest, MANIFEST, type Manifest, type MediaObject } from './manifest.ts';
import { checkTool, runTool } from './pg-tools.ts';

export interface RestoreOptions {
  /** Replace what the target holds. */
  force?: boolean | undefined;
}

export interface RestoreResult {
  manifest: Manifest;
  /** Rows per table in the restored database (equal to the manifest's). */
  tables: Record<string, number>;
}

const MAX_SMALL_ENTRY = 64 * 1024 * 1024;

async function text(body: Readable, limit = MAX_SMALL_ENTRY): Promise<{ text: string; sum: EntrySum }> {
  const summing = new Summing();
  body.pipe(summing);
  const chunks: Buffer[] = [];
  for await (const chunk of summing as AsyncIterable<Buffer>) {
    if (summing.size > limit) throw new UsageError('an entry of the archive is too large to be its manifest');
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), sum: summing.sum() };
}

/** Reads the whole archive, checks every entry against the manifest; the manifest. Writes nothing. */
export async function verifyArchive(file: string): Promise<Manifest> {
  return (await verified(file)).manifest;
}

async function verified(file: string): Promise<{ manifest: Manifest; listed: Map<string, MediaObject> }> {
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const seen: Record<string, EntrySum> = {};
  let manifest: unknown;
  let listed = new Map<string, MediaObject>();
  try {
    await readArchive(file, async (path, _size, body) => {
      if (path === MANIFEST) manifest = JSON.parse((await text(body)).text);
      else if (path === ENTRY.mediaList) {
        const t = await text(body);
        seen[path] = t.sum;
        listed = new Map((JSON.parse(t.text) as MediaObject[]).map((x) => [x.key, x]));
      } else seen[path] = await sumOf(body);
    });
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${file} is not a readable Herald backup: ${(err as Error).message}`);
  }
  if (!isManifest(manifest)) throw new UsageError(`${file} has no Herald backup manifest`);
  const m = manifest;
  if (m.format_version > FORMAT_VERSION) {
    throw new UsageError(`${file} is a backup of format ${m.format_version}, newer than this Herald reads: upgrade it`);
  }
  const problems: string[] = [];
  for (const [path, want] of Object.entries(m.entries)) {
    const got = seen[path];
    if (!got) problems.push(`${path}: missing`);
    else if (got.sha256 !== want.sha256 || got.size !== want.size) problems.push(`${path}: checksum mismatch`);
  }
  for (const path of Object.keys(seen)) if (!m.entries[path]) problems.push(`${path}: not in the manifest`);
  if (problems.length) {
    throw new UsageError(
      `${file} is damaged; nothing was restored:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  …and ${problems.length - 20} more` : ''}`,
    );
  }
  return { manifest: m, listed };
}

/** Refuses what this build cannot restore: a newer schema, or a database kind the configuration does not use. */
export function checkVersions(m: Manifest, config: Config): void {
  const shipped = shippedSchemaVersion();
  if (m.schema_version > shipped) {
    throw new UsageError(
      `this backup was made by Herald ${m.herald_version} at schema version ${m.schema_version}; this Herald knows ` +
        `schema version ${shipped}. Install Herald ${m.herald_version} or later to restore it.`,
    );
  }
  if (m.database.kind === 'pglite' && config.databaseUrl) {
    throw new UsageError(
      'this backup is of an embedded (PGlite) database, and DATABASE_URL is set: restore it without DATABASE_URL ' +
        '(into an empty data directory), then move it with `herald db move --to <url>` (docs/backup.md).',
    );
  }
  if (m.database.kind === 'postgres' && !config.databaseUrl) {
    throw new UsageError(
      'this backup is of a PostgreSQL database: set DATABASE_URL to an empty database to restore it.',
    );
  }
}

const nonEmptyDir = (dir: string) => existsSync(dir) && readdirSync(dir).length > 0;

/** What the data directory already holds that a restore would replace. */
function occupied(config: Config, m: Manifest): string[] {
  const found: string[] = [];
  if (m.database.kind === 'pglite' && existsSync(join(config.dataDir, 'pglite', 'PG_VERSION'))) {
    found.push(`an embedded database (${join(config.dataDir, 'pglite')})`);
  }
  const storage = config.media.storage;
  if (storage.driver === 'disk' && m.media.objects > 0 && nonEmptyDir(storage.root))
    found.push(`media (${storage.root})`);
  if (m.secrets === 'file' && existsSync(join(config.dataDir, 'secrets.json'))) {
    found.push(`secrets (${join(config.dataDir, 'secrets.json')})`);
  }
  return found;
}

async function withSql<T>(config: Config, fn: (db: Sql) => Promise<T>): Promise<T> {
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl, application_name: 'herald-restore' });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end().catch(() => {});
    }
  }
  baselineWasm();
  const client = new PGlite(join(config.dataDir, 'pglite'), { postgresqlconf: PGLITE_CONF });
  await client.waitReady;
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

async function clearTarget(config: Config, m: Manifest): Promise<void> {
  if (config.databaseUrl) {
    await withSql(config, async (db) => {
      await db.query('drop schema if exists pgboss cascade');
      await db.query('drop schema if exists drizzle cascade');
      await db.query('drop schema if exists public cascade');
      await db.query('create schema public');
    });
  } else {
    rmSync(join(config.dataDir, 'pglite'), { recursive: true, force: true });
  }
  const storage = config.media.storage;
  if (storage.driver === 'disk' && m.media.objects > 0) rmSync(storage.root, { recursive: true, force: true });
}

/** Writes `body` to `path`, checking it against the manifest's sum on the way. */
async function store(path: string, body: Readable, want: EntrySum | undefined, name: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const summing = new Summing();
  await pipeline(body, summing, createWriteStream(path, { mode: 0o600 }));
  const got = summing.sum();
  if (!want || got.sha256 !== want.sha256) throw new UsageError(`${name} changed while it was restored`);
}

export async function runRestore(config: Config, file: string, o: RestoreOptions = {}): Promise<RestoreResult> {
  const { manifest: m, listed } = await verified(file);
  checkVersions(m, config);
  let lock: DirLock | undefined;
  if (!config.databaseUrl) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    try {
      lock = acquireDirLock(join(config.dataDir, 'pglite.lock'));
    } catch (err) {
      if (err instanceof DataDirLockedError) {
        throw new UsageError(`${err.message}\nA restore replaces the database that process holds: stop it first.`);
      }
      throw err;
    }
  }
  const tmp = mkdtempSync(join(tmpdir(), 'herald-restore-'));
  const marker = join(config.dataDir, 'pglite.incomplete');
  try {
    const found = occupied(config, m);
    if (config.databaseUrl && !(await withSql(config, isEmptyDatabase))) found.unshift('a database with tables');
    if (found.length && !o.force) {
      throw new UsageError(
        `the target is not empty: ${found.join(', ')}. Restore into an empty one, or pass --force to replace it.`,
      );
    }
    if (found.length) await clearTarget(config, m);
    if (!config.databaseUrl) {
      // A restore that dies half-way leaves the marker: the next start makes a fresh directory rather than use it.
      writeFileSync(marker, 'a restore is writing this embedded database\n', { mode: 0o600 });
    }
    const storage = config.media.storage;
    const s3 = storage.driver === 's3' ? await createMediaStorage(storage) : undefined;
    const pgliteDir = join(config.dataDir, 'pglite');
    const dump = join(tmp, 'postgres.dump');
    await readArchive(file, async (path, size, body) => {
      const want = m.entries[path];
      if (path === MANIFEST) return void body.resume();
      if (path === ENTRY.mediaList) return void body.resume();
      if (path === ENTRY.pgliteDirs) {
        const t = await text(body);
        if (t.sum.sha256 !== want?.sha256) throw new UsageError(`${path} changed while it was restored`);
        for (const d of JSON.parse(t.text) as string[]) mkdirSync(join(pgliteDir, d), { recursive: true, mode: 0o700 });
        return;
      }
      if (path.startsWith(ENTRY.pgliteDir))
        return store(join(pgliteDir, path.slice(ENTRY.pgliteDir.length)), body, want, path);
      if (path === ENTRY.postgresDump) return store(dump, body, want, path);
      if (path === ENTRY.secrets) return store(join(config.dataDir, 'secrets.json'), body, want, path);
      if (path.startsWith(ENTRY.media)) {
        const rel = path.slice(ENTRY.media.length);
        if (storage.driver === 'disk') return store(join(storage.root, rel), body, want, path);
        // S3: objects only (a disk store's sidecars are not objects); the content type from the list.
        if (rel.startsWith('.meta/')) return void body.resume();
        const summing = new Summing();
        body.pipe(summing);
        await s3!.put(rel, summing, {
          contentType: listed.get(rel)?.content_type ?? 'application/octet-stream',
          contentLength: size,
        });
        if (summing.sum().sha256 !== want?.sha256) throw new UsageError(`${path} changed while it was restored`);
        return;
      }
      body.resume();
    });
    if (config.databaseUrl) {
      await checkTool('pg_restore', m.database.pg_dump_major ?? m.database.server_major);
      await runTool('pg_restore', config.databaseUrl, [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        dump,
      ]);
    }
    const tables = await withSql(config, tableCounts).catch((err: unknown) => {
      throw new UsageError(`the restored database does not open with this Herald's PGlite: ${(err as Error).message}`);
    });
    const wrong = Object.entries(m.tables).filter(([t, n]) => tables[t] !== n);
    if (wrong.length) {
      throw new UsageError(
        `the restored rows differ from the backup's: ${wrong.map(([t, n]) => `${t} ${tables[t] ?? 0}/${n}`).join(', ')}`,
      );
    }
    rmSync(marker, { force: true });
    return { manifest: m, tables };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    lock?.release();
  }
}
