// What the container image runs, run on this machine (no image can be built here): the files the Dockerfile's
// runtime stage copies are copied into a temporary directory, `deploy/image.sh install` installs the production
// dependencies from the lockfile there (npm's warm cache, --prefer-offline), and `deploy/image.sh start` runs Herald
// from it until `deploy/image.sh health` (the image's HEALTHCHECK) passes. On PostgreSQL runs it starts against a
// fresh database, through the start script's wait for it; otherwise on the embedded one. The install is an npm
// install of ~260 MB: on a loaded two-core machine it takes minutes.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabaseUrl } from '../helpers/harness.ts';
import { freePort } from '../helpers/net.ts';
import { until } from '../helpers/poll.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');

/** What the runtime stage copies into /app before it installs (`COPY <src…> <dest>`; not from another stage). */
function runtimeCopies(): string[] {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.split(/^FROM /m).at(-1)!;
  const beforeInstall = runtime.slice(0, runtime.indexOf('RUN deploy/image.sh install'));
  return [...beforeInstall.matchAll(/^COPY (?!--)(.+)$/gm)]
    .map((m) => m[1]!.trim().split(/\s+/))
    .filter((words) => !words.at(-1)!.startsWith('/')) // into the application directory, not a scratch file
    .flatMap((words) => words.slice(0, -1));
}

let app: string;
let data: string;
let server: ChildProcess | undefined;
let db: Awaited<ReturnType<typeof createTestDatabaseUrl>>;
let stderr = '';

beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), 'herald-image-'));
  data = mkdtempSync(join(tmpdir(), 'herald-image-data-'));
  const copies = runtimeCopies();
  expect(copies).toEqual(['package.json', 'package-lock.json', '.npmrc', 'bin', 'src', 'deploy']);
  for (const path of copies) cpSync(join(ROOT, path), join(app, path), { recursive: true });
  await run(join(app, 'deploy/image.sh'), ['install'], {
    cwd: app,
    env: { ...process.env, HERALD_NPM_FLAGS: '--prefer-offline' },
    maxBuffer: 64 << 20,
  });
  db = await createTestDatabaseUrl();
}, 1_200_000);

afterAll(async () => {
  // Still running (a process a signal ended has a signalCode and no exitCode, and will not emit 'exit' again).
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGKILL');
    await exited;
  }
  await db?.drop();
  // ~260 MB of node_modules: slow to remove on a busy disk.
  await rm(app, { recursive: true, force: true });
  await rm(data, { recursive: true, force: true });
}, 600_000);

describe('the image, installed and started as its Dockerfile does', () => {
  it('installs the production dependencies only, from the lockfile unchanged', () => {
    for (const dep of ['fastify', '@electric-sql/pglite', 'sharp', 'pg', 'pg-boss']) {
      expect(existsSync(join(app, 'node_modules', dep)), dep).toBe(true);
    }
    for (const dev of ['vitest', 'vite', 'typescript', '@biomejs/biome', '@playwright/test', 'drizzle-kit']) {
      expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);
    }
    // Optional peers of drizzle-orm that only a development dependency needs (the sandbox's PDS): .npmrc's
    // legacy-peer-deps keeps npm from installing them with the server.
    for (const peer of ['better-sqlite3', 'kysely', 'prebuild-install']) {
      expect(existsSync(join(app, 'node_modules', peer)), peer).toBe(false);
    }
    expect(readFileSync(join(app, 'package-lock.json'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'package-lock.json'), 'utf8'),
    );
  });

  it('leaves out the CJK card fonts, and adds them on request at the versions the lockfile pins', async () => {
    const fonts = ['@fontsource/noto-sans-sc', '@fontsource/noto-sans-kr'];
    for (const pkg of fonts) expect(existsSync(join(app, 'node_modules', pkg)), pkg).toBe(false);
    await run(join(app, 'deploy/image.sh'), ['cjk-fonts'], { cwd: app, maxBuffer: 16 << 20 });
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    for (const pkg of fonts) {
      const installed = JSON.parse(readFileSync(join(app, 'node_modules', pkg, 'package.json'), 'utf8'));
      expect(installed.version, pkg).toBe(lock.packages[`node_modules/${pkg}`]!.version);
    }
    // The card renderer finds a subset sheet where it looks for one (src/ai/builtin/fonts.ts resolves the package's files).
    const resolved = await run(
      process.execPath,
      ['-e', 'console.log(require.resolve("@fontsource/noto-sans-sc/chinese-simplified-400.css"))'],
      { cwd: app },
    );
    expect(resolved.stdout.trim()).toBe(join(app, 'node_modules/@fontsource/noto-sans-sc/chinese-simplified-400.css'));
  }, 300_000);

  it("leaves out the AI SDK and the S3 SDK, and adds a feature's packages on request at the pinned versions", async () => {
    const s3 = ['@aws-sdk/client-s3', '@aws-sdk/lib-storage'];
    for (const pkg of ['ai', '@ai-sdk/openai', ...s3])
      expect(existsSync(join(app, 'node_modules', pkg)), pkg).toBe(false);
    const before = readFileSync(join(app, 'package.json'), 'utf8');
    await run(join(app, 'deploy/image.sh'), ['optional', 's3'], {
      cwd: app,
      env: { ...process.env, HERALD_NPM_FLAGS: '--prefer-offline' },
      maxBuffer: 16 << 20,
    });
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    for (const pkg of s3) {
      const installed = JSON.parse(readFileSync(join(app, 'node_modules', pkg, 'package.json'), 'utf8'));
      expect(installed.version, pkg).toBe(lock.packages[`node_modules/${pkg}`]!.version);
    }
    expect(existsSync(join(app, 'node_modules/ai')), 'ai').toBe(false);
    // Neither package.json nor the lockfile changes: the next `npm ci` is the plain server install again.
    expect(readFileSync(join(app, 'package.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(app, 'package-lock.json'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'package-lock.json'), 'utf8'),
    );
  }, 300_000);

  it('starts, passes the health check, is ready, and stops cleanly on SIGTERM', { timeout: 300_000 }, async () => {
    const port = await freePort();
    // Only what the image sets, plus what a PostgreSQL run needs: nothing of this test process's environment.
    const env: Record<string, string> = {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'production',
      HERALD_DATA_DIR: join(data, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      HERALD_LOG_FORMAT: 'json',
      HERALD_LOG_LEVEL: 'warn',
      ...(db
        ? {
            DATABASE_URL: db.url,
            HERALD_JWT_SECRET: 'j'.repeat(48),
            HERALD_ENCRYPTION_KEY: 'e'.repeat(64),
          }
        : {}),
    };
    server = spawn(join(app, 'deploy/image.sh'), ['start'], { cwd: app, env, stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const healthy = () =>
      run(join(app, 'deploy/image.sh'), ['health'], { env }).then(
        () => true,
        () => false,
      );
    await until(async () => server!.exitCode === null && (await healthy()), {
      timeoutMs: 240_000,
      intervalMs: 500,
      why: () => `exit ${server!.exitCode}; stderr: ${stderr.slice(-2000)}`,
    });
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status, await ready.clone().text()).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
    // The embedded database lives in the data directory; with PostgreSQL nothing of it is there.
    expect(existsSync(join(data, 'data', 'pglite'))).toBe(!db);

    const exited = new Promise<number | null>((r) => server!.once('exit', (code) => r(code)));
    server.kill('SIGTERM');
    expect(await exited, stderr.slice(-2000)).toBe(0);
  });
});
