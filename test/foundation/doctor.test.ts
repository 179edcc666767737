// `herald doctor` as an operator runs it: real processes against a good and several broken configurations. The good
// one's database is made by `herald migrate`: embedded, or on the PostgreSQL run of the suite a new database on that
// server (then the clock check runs too), so the database rows are checked on both back ends.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.ts';

const exec = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/herald.js');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Check {
  check: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  fix?: string;
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'herald-doctor-'));
  dirs.push(d);
  return d;
}

let goodDatabaseUrl: string | undefined;

function baseEnv(dataDir: string, extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HERALD_DATA_DIR: dataDir, HERALD_LOG_LEVEL: 'warn' };
  if (goodDatabaseUrl) env.DATABASE_URL = goodDatabaseUrl;
  else delete env.DATABASE_URL;
  for (const k of Object.keys(env)) if (/^HERALD_(LINKEDIN|SMTP|STORAGE|S3|PUBLIC|TRUST)/.test(k)) delete env[k];
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

async function doctor(env: NodeJS.ProcessEnv): Promise<{ code: number; ok: boolean; checks: Check[]; text: string }> {
  let code = 0;
  let stdout: string;
  try {
    ({ stdout } = await exec(process.execPath, [BIN, 'doctor', '--json'], { env, timeout: 120_000 }));
  } catch (e) {
    const err = e as { code: number; stdout: string };
    code = err.code;
    stdout = err.stdout;
  }
  const parsed = JSON.parse(stdout) as { ok: boolean; checks: Check[] };
  return { code, ...parsed, text: stdout };
}

const find = (checks: Check[], name: string) => checks.find((c) => c.check === name);

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

afterAll(async () => {
  if (!goodDatabaseUrl || !process.env.DATABASE_URL) return;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${new URL(goodDatabaseUrl).pathname.slice(1)} with (force)`);
  await admin.end();
});

describe('herald doctor', () => {
  let dataDir: string;
  const serverUrl = process.env.DATABASE_URL;
  const dbName = `herald_doctor_${process.pid}`;
  beforeAll(async () => {
    dataDir = tempDir();
    if (serverUrl) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName}`);
      await admin.query(`create database ${dbName}`);
      await admin.end();
      const url = new URL(serverUrl);
      url.pathname = `/${dbName}`;
      goodDatabaseUrl = url.toString();
    }
    await exec(process.execPath, [BIN, 'migrate'], { env: baseEnv(dataDir, {}), timeout: 180_000 });
  }, 240_000);

  it('passes a good configuration, with the callback to register for each configured network', async () => {
    const r = await doctor(
      baseEnv(dataDir, {
        HERALD_PUBLIC_URL: 'https://herald.example.com',
        HERALD_TRUST_PROXY: 'true',
        HERALD_LINKEDIN_CLIENT_ID: 'li-id',
        HERALD_LINKEDIN_CLIENT_SECRET: 'li-secret',
        HERALD_TIKTOK_CLIENT_ID: 'tt-id',
        HERALD_TIKTOK_CLIENT_SECRET: 'tt-secret',
        HERALD_TIKTOK_AUDITED: 'true',
      }),
    );
    expect(r.code).toBe(0);
    expect(r.ok).toBe(true);
    expect(r.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(find(r.checks, 'public URL')).toMatchObject({ status: 'ok' });
    expect(find(r.checks, 'database')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/schema up to date/),
    });
    expect(find(r.checks, 'storage')).toMatchObject({ status: 'ok' });
    if (goodDatabaseUrl) expect(find(r.checks, 'clock')).toMatchObject({ status: 'ok' });
    else expect(find(r.checks, 'clock')).toBeUndefined();
    expect(find(r.checks, 'network linkedin')?.detail).toContain(
      'register the callback https://herald.example.com/linkedin/oauth/callback',
    );
    const tiktok = find(r.checks, 'network tiktok')!.detail;
    expect(tiktok).toContain('HERALD_TIKTOK_AUDITED=true');
    expect(tiktok).toMatch(/HERALD_TIKTOK_MEDIA_DOMAIN_VERIFIED unset: .*refused/);
    expect(find(r.checks, 'network pinterest')).toMatchObject({ status: 'skip' });
    expect(find(r.checks, 'MCP')).toMatchObject({ status: 'ok', detail: 'https://herald.example.com/mcp' });
    // ffmpeg is installed wherever the suite runs (CI installs it): found and its version read.
    expect(find(r.checks, 'ffprobe')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^ffprobe version/),
    });
    expect(r.text).not.toMatch(/li-secret|tt-secret/);
  });

  it('fails a broken configuration and says how to fix each problem', async () => {
    const smtpPort = await closedPort();
    const notADir = join(tempDir(), 'file');
    writeFileSync(notADir, 'not a directory');
    const r = await doctor(
      baseEnv(dataDir, {
        HERALD_PUBLIC_URL: 'http://herald.example.com',
        HERALD_LINKEDIN_CLIENT_ID: 'li-id',
        HERALD_SMTP_URL: `smtp://mailer:hunter2@127.0.0.1:${smtpPort}`,
        HERALD_FFPROBE_PATH: '/nonexistent/ffprobe',
        HERALD_STORAGE: 's3',
        HERALD_S3_BUCKET: 'media',
        HERALD_S3_ENDPOINT: `http://127.0.0.1:${smtpPort}`,
        HERALD_S3_FORCE_PATH_STYLE: 'true',
        HERALD_S3_ACCESS_KEY_ID: 'AKIA',
        HERALD_S3_SECRET_ACCESS_KEY: 's3-secret-value',
        HERALD_S3_PUBLIC_URL: 'https://media.example.com',
      }),
    );
    expect(r.code).toBe(1);
    expect(r.ok).toBe(false);
    expect(find(r.checks, 'public URL')).toMatchObject({ status: 'fail', fix: expect.stringMatching(/https/) });
    expect(find(r.checks, 'network linkedin')).toMatchObject({
      status: 'fail',
      detail: 'HERALD_LINKEDIN_CLIENT_SECRET is missing',
    });
    expect(find(r.checks, 'mail')).toMatchObject({ status: 'fail', fix: 'check HERALD_SMTP_URL' });
    expect(find(r.checks, 'storage')).toMatchObject({ status: 'fail', fix: expect.stringMatching(/HERALD_S3_/) });
    expect(find(r.checks, 'ffprobe')).toMatchObject({
      status: 'warn',
      fix: expect.stringMatching(/apt install ffmpeg/),
    });
    expect(find(r.checks, 'GPT Actions')).toMatchObject({ status: 'warn' });
    // Secrets never appear in what the doctor prints.
    expect(r.text).not.toMatch(/hunter2|s3-secret-value/);
  });

  it('fails a database it cannot reach and a database migrated by a newer Herald', async () => {
    const port = await closedPort();
    const unreachable = await doctor(
      baseEnv(tempDir(), { DATABASE_URL: `postgres://herald:pg-password@127.0.0.1:${port}/none` }),
    );
    expect(unreachable.code).toBe(1);
    expect(find(unreachable.checks, 'database')).toMatchObject({
      status: 'fail',
      fix: expect.stringMatching(/DATABASE_URL/),
    });
    expect(unreachable.text).not.toContain('pg-password');

    const newer = tempDir();
    await exec(process.execPath, [BIN, 'migrate'], {
      env: baseEnv(newer, { DATABASE_URL: undefined }),
      timeout: 180_000,
    });
    const db = await openDatabase({ dataDir: newer });
    await db.pglite!.query(
      `insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-herald', 9999999999999)`,
    );
    await db.close();
    const r = await doctor(baseEnv(newer, { DATABASE_URL: undefined }));
    expect(r.code).toBe(1);
    expect(find(r.checks, 'database')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/newer Herald/) });
  });

  it('reports a configuration that does not parse as one failed check', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'x'));
    const r = await doctor(baseEnv(dir, { PORT: 'not-a-port' }));
    expect(r.code).toBe(1);
    expect(r.checks).toEqual([expect.objectContaining({ check: 'configuration', status: 'fail' })]);
    expect(r.checks[0]!.detail).toMatch(/PORT/);
  });
});
