// herald backup then herald restore on the back end the run uses (embedded PGlite in a data directory, or
// PostgreSQL through pg_dump and pg_restore when DATABASE_URL is set): everything comes back, a scheduled post made
// before the backup fires from the restored install, and a network's sealed token still opens with the restored
// secrets. Also the refusals: a non-empty target, a damaged archive, a newer schema (a busy embedded database:
// hold.test.ts).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWriteStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackup } from '../../src/cli/backup/backup.ts';
import { ArchiveWriter, readArchive } from '../../src/cli/backup/archive.ts';
import { shippedSchemaVersion } from '../../src/cli/backup/database.ts';
import { ENTRY, MANIFEST, type Manifest } from '../../src/cli/backup/manifest.ts';
import { runRestore, verifyArchive } from '../../src/cli/backup/restore.ts';
import type { AppContext } from '../../src/context.ts';
import { createTestDatabaseUrl } from '../helpers/harness.ts';
import { clock, HOUR, installConfig, linkedinTexts, openContext, populate, type Populated } from './helpers.ts';

const onPostgres = !!process.env.DATABASE_URL;
const drops: (() => Promise<void>)[] = [];
const dbUrl = async () => {
  const made = await createTestDatabaseUrl();
  if (made) drops.push(made.drop);
  return made?.url;
};

let src: Populated;
let file: string;
let manifest: Manifest;
let restored: AppContext | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  src = await populate(await dbUrl());
  dirs.push(src.config.dataDir);
  // The server stops (embedded: it holds the data directory); its sandbox keeps listening for the restored install.
  await src.ctx.close();
  file = join(tmpdir(), `herald-backup-test-${process.pid}.tar.gz`);
  ({ manifest } = await runBackup(src.config, { out: file }));
}, 300_000);

afterAll(async () => {
  await restored?.close();
  await src?.app.close();
  for (const drop of drops) await drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  rmSync(file, { force: true });
});

describe(`backup and restore (${onPostgres ? 'PostgreSQL' : 'embedded PGlite'})`, () => {
  it('writes a manifest with versions, row counts and a checksum for every entry', async () => {
    expect(manifest).toMatchObject({
      format: 'herald-backup',
      schema_version: shippedSchemaVersion(),
      database: { kind: onPostgres ? 'postgres' : 'pglite' },
      media: { storage: 'disk', mode: 'include', objects: 1 },
      secrets: 'file',
    });
    expect(manifest.tables.scheduled_posts).toBe(1);
    expect(manifest.tables.platform_connections).toBe(1);
    expect(manifest.tables.drafts).toBe(1);
    expect(manifest.entries[`${ENTRY.media}${src.mediaKey}`]?.size).toBe(src.mediaBytes.length);
    expect(Object.keys(manifest.entries)).toContain(ENTRY.secrets);
    expect(Object.keys(manifest.entries)).toContain(onPostgres ? ENTRY.postgresDump : ENTRY.pgliteDirs);
    expect(await verifyArchive(file)).toEqual(manifest);
  });

  it('restores into an empty install; the scheduled post fires and the sealed token opens', async () => {
    const config = installConfig(Number(new URL(src.config.publicUrl).port), await dbUrl());
    dirs.push(config.dataDir);
    const { tables } = await runRestore(config, file);
    expect(tables).toEqual(manifest.tables);
    expect(readFileSync(join(config.dataDir, 'secrets.json'), 'utf8')).toBe(
      readFileSync(join(src.config.dataDir, 'secrets.json'), 'utf8'),
    );
    expect(readFileSync(join(config.dataDir, 'media', src.mediaKey))).toEqual(src.mediaBytes);

    restored = await openContext(config);
    const [conn] = await restored.connectionStore.list(src.user.workspaceId);
    expect(restored.connectionStore.tokens(conn!).accessToken).toMatch(/\S/);
    expect((await restored.scheduling.store.byId(src.scheduledId))!.status).toBe('scheduled');

    clock.advance(2 * HOUR);
    await restored.scheduleWorker.tick();
    await restored.scheduleWorker.tick();
    expect((await restored.scheduling.store.byId(src.scheduledId))!.status).toBe('published');
    const texts = await linkedinTexts(src.config.publicUrl);
    expect(texts.filter((t) => t.includes(src.scheduledText))).toHaveLength(1);
    expect(texts.filter((t) => t.includes(src.publishedText))).toHaveLength(1);
  });

  it('refuses a non-empty target without --force, and replaces it with --force', async () => {
    const config = installConfig(1, await dbUrl());
    dirs.push(config.dataDir);
    await runRestore(config, file);
    await expect(runRestore(config, file)).rejects.toThrow(/the target is not empty.*--force/s);
    const { tables } = await runRestore(config, file, { force: true });
    expect(tables).toEqual(manifest.tables);
  });
});

/** A copy of the archive with its manifest changed by `edit` and, optionally, one entry's bytes replaced. */
async function tampered(edit: (m: Manifest) => void, replace?: { path: string; bytes: Buffer }): Promise<string> {
  const entries: [string, Buffer][] = [];
  await readArchive(file, async (path, _size, body) => {
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(c as Buffer);
    entries.push([path, Buffer.concat(chunks)]);
  });
  const out = join(tmpdir(), `herald-backup-tampered-${process.pid}-${entries.length}-${Date.now()}.tar.gz`);
  const writer = new ArchiveWriter(createWriteStream(out));
  for (const [path, bytes] of entries) {
    if (path === MANIFEST) continue;
    await writer.addBuffer(path, replace?.path === path ? replace.bytes : bytes);
  }
  const m = JSON.parse(entries.find(([p]) => p === MANIFEST)![1].toString()) as Manifest;
  edit(m);
  await writer.addBuffer(MANIFEST, JSON.stringify(m));
  await writer.finish();
  return out;
}

describe('restore checks before it writes', () => {
  it('refuses a damaged archive and names the entry', async () => {
    const path = `${ENTRY.media}${src.mediaKey}`;
    const bad = await tampered(() => {}, { path, bytes: Buffer.alloc(src.mediaBytes.length, 7) });
    const config = installConfig(1, await dbUrl());
    dirs.push(config.dataDir, bad);
    await expect(runRestore(config, bad)).rejects.toThrow(new RegExp(`damaged.*${path}: checksum mismatch`, 's'));
    expect(existsSync(join(config.dataDir, 'secrets.json'))).toBe(false);
  });

  it('refuses a backup from a newer schema', async () => {
    const newer = await tampered((m) => {
      m.schema_version = shippedSchemaVersion() + 1;
      m.herald_version = '99.0.0';
    });
    const config = installConfig(1, await dbUrl());
    dirs.push(config.dataDir, newer);
    await expect(runRestore(config, newer)).rejects.toThrow(/schema version .*Install Herald 99\.0\.0 or later/);
  });

  it('refuses a file that is not a backup', async () => {
    const config = installConfig(1);
    const notBackup = join(config.dataDir, 'notes.txt');
    writeFileSync(notBackup, 'not an archive\n'.repeat(100));
    dirs.push(config.dataDir);
    await expect(runRestore(config, notBackup)).rejects.toThrow(/not a readable Herald backup|no Herald backup/);
  });
});
