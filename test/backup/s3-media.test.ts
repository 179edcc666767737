// herald backup with the media on S3 (Swift's s3api on loopback), on the back end the run uses, while the server
// runs: --media include puts the objects in the archive and restore puts them into a new bucket; --media list keeps
// only their keys; --out - (the command itself, in a child process) writes the archive to stdout, and the file it
// is piped to restores.
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { closeSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArchive } from '../../src/cli/backup/archive.ts';
import { runBackup } from '../../src/cli/backup/backup.ts';
import { ENTRY, MANIFEST, type MediaObject } from '../../src/cli/backup/manifest.ts';
import { runRestore } from '../../src/cli/backup/restore.ts';
import type { Config } from '../../src/config.ts';
import { asUser, createTestDatabaseUrl, type Harness } from '../helpers/harness.ts';
import { startSwift, type SwiftS3, swiftAdmin } from '../helpers/swift.ts';
import { png, upload } from '../media-routes/helpers.ts';
import { installConfig, populate, type Populated } from './helpers.ts';

const BIN = fileURLToPath(new URL('../../bin/herald.js', import.meta.url));
const onPostgres = !!process.env.DATABASE_URL;
const drops: (() => Promise<void>)[] = [];
const dbUrl = async () => {
  const made = await createTestDatabaseUrl();
  if (made) drops.push(made.drop);
  return made?.url;
};

let swift: SwiftS3;
let admin: S3Client;
let src: Populated;
/** The media rows' objects: two uploads, their key, bytes and content type. */
const uploaded: { key: string; bytes: Buffer; type: string }[] = [];
const dirs: string[] = [];
const files: string[] = [];

const s3Env = (bucket: string): Record<string, string> => ({
  HERALD_STORAGE: 's3',
  HERALD_S3_BUCKET: bucket,
  HERALD_S3_REGION: swift.region,
  HERALD_S3_ENDPOINT: swift.endpoint,
  HERALD_S3_FORCE_PATH_STYLE: 'true',
  HERALD_S3_ACCESS_KEY_ID: swift.accessKeyId,
  HERALD_S3_SECRET_ACCESS_KEY: swift.secretAccessKey,
  HERALD_S3_PUBLIC_URL: 'https://cdn.herald.example/media',
});

async function bucket(name: string): Promise<string> {
  await admin.send(new CreateBucketCommand({ Bucket: name }));
  return name;
}

async function keys(name: string): Promise<string[]> {
  const res = await admin.send(new ListObjectsV2Command({ Bucket: name }));
  return (res.Contents ?? []).map((o) => o.Key!).sort();
}

async function object(name: string, key: string): Promise<{ bytes: Buffer; type: string | undefined }> {
  const res = await admin.send(new GetObjectCommand({ Bucket: name, Key: key }));
  return { bytes: Buffer.from(await res.Body!.transformToByteArray()), type: res.ContentType };
}

/** Every entry of an archive: path and bytes. */
async function entries(file: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  await readArchive(file, async (path, _size, body) => {
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(c as Buffer);
    out.set(path, Buffer.concat(chunks));
  });
  return out;
}

/** A new install (data directory, database) whose media go to a new bucket. */
async function target(name: string): Promise<Config> {
  const config = installConfig(1, await dbUrl(), s3Env(await bucket(name)));
  dirs.push(config.dataDir);
  return config;
}

const tmpFile = (name: string) => {
  const f = join(tmpdir(), `herald-backup-s3-${process.pid}-${name}.tar.gz`);
  files.push(f);
  return f;
};

beforeAll(async () => {
  swift = await startSwift({ timeoutMs: 300_000 });
  admin = swiftAdmin(swift);
  src = await populate(await dbUrl(), { env: s3Env(await bucket('herald-backup-src')) });
  dirs.push(src.config.dataDir);
  const h = { req: src.app.inject.bind(src.app), url: src.config.publicUrl } as unknown as Harness;
  for (const color of [
    { r: 200, g: 30, b: 90 },
    { r: 20, g: 130, b: 40 },
  ]) {
    const bytes = await png(64, 48, color);
    const res = await upload(h, asUser(src.user), [
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'p.png', data: bytes },
    ]);
    expect(res.statusCode, res.body).toBe(200);
  }
  const rows = (
    (await src.ctx.database.db.execute(
      'select storage_key as key, mime from media order by storage_key' as never,
    )) as unknown as {
      rows: { key: string; mime: string }[];
    }
  ).rows;
  for (const r of rows) uploaded.push({ key: r.key, ...(await object('herald-backup-src', r.key)), type: r.mime });
}, 600_000);

afterAll(async () => {
  await src?.ctx.close();
  await src?.app.close();
  for (const drop of drops) await drop();
  admin?.destroy();
  await swift?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  for (const f of files) rmSync(f, { force: true });
});

describe(`backup of S3 media (${onPostgres ? 'PostgreSQL' : 'embedded PGlite'}, server running)`, () => {
  it('--media include: the objects are in the archive and restore puts them into a new bucket', async () => {
    expect(uploaded).toHaveLength(2);
    const file = tmpFile('include');
    const { manifest } = await runBackup(src.config, { out: file, media: 'include' });
    expect(manifest.media).toEqual({ storage: 's3', mode: 'include', objects: 2 });
    const got = await entries(file);
    for (const u of uploaded) expect(got.get(`${ENTRY.media}${u.key}`)).toEqual(u.bytes);
    expect([...got.keys()].filter((p) => p.startsWith(ENTRY.media))).toHaveLength(2);

    const config = await target('herald-backup-include');
    const { tables } = await runRestore(config, file);
    expect(tables.media).toBe(2);
    expect(await keys('herald-backup-include')).toEqual(uploaded.map((u) => u.key));
    for (const u of uploaded) {
      const o = await object('herald-backup-include', u.key);
      expect(o.bytes).toEqual(u.bytes);
      expect(o.type).toBe(u.type);
    }
  }, 300_000);

  it('--media list: only the keys are in the archive; restore leaves the new bucket alone', async () => {
    const file = tmpFile('list');
    const { manifest } = await runBackup(src.config, { out: file, media: 'list' });
    expect(manifest.media).toEqual({ storage: 's3', mode: 'list', objects: 2 });
    const got = await entries(file);
    expect([...got.keys()].filter((p) => p.startsWith(ENTRY.media))).toEqual([]);
    const listed = JSON.parse(got.get(ENTRY.mediaList)!.toString()) as MediaObject[];
    expect(listed).toEqual(uploaded.map((u) => ({ key: u.key, size: u.bytes.length, content_type: u.type })));

    const config = await target('herald-backup-list');
    const { tables } = await runRestore(config, file);
    expect(tables.media).toBe(2);
    expect(await keys('herald-backup-list')).toEqual([]);
  }, 300_000);

  it('--out -: `herald backup` writes the archive to stdout, and the file it is piped to restores', async () => {
    const file = tmpFile('stdout');
    const fd = openSync(file, 'w', 0o600);
    let stderr = '';
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HERALD_DATA_DIR: src.config.dataDir,
      HERALD_PUBLIC_URL: src.config.publicUrl,
      HERALD_SANDBOX: '1',
      HERALD_LOG_LEVEL: 'silent',
      ...s3Env('herald-backup-src'),
    };
    if (src.config.databaseUrl) env.DATABASE_URL = src.config.databaseUrl;
    else delete env.DATABASE_URL;
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'backup', '--out', '-', '--media', 'include'], {
        env,
        stdio: ['ignore', fd, 'pipe'],
      });
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    closeSync(fd);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/backup written to stdout/);
    if (!onPostgres) expect(stderr).toMatch(/the running server held still \d+ ms/);
    const got = await entries(file);
    expect(got.has(MANIFEST)).toBe(true);
    for (const u of uploaded) expect(got.get(`${ENTRY.media}${u.key}`)).toEqual(u.bytes);

    const config = await target('herald-backup-stdout');
    const { manifest, tables } = await runRestore(config, file);
    expect(tables).toEqual(manifest.tables);
    expect(await keys('herald-backup-stdout')).toEqual(uploaded.map((u) => u.key));
  }, 300_000);
});
