// The packages a server installs only for the feature that needs them (the AI SDK, the S3 SDK; src/optional-packages.ts):
// here, in the development install, they are all present; in child processes that cannot resolve them (as after
// `npm ci --omit=dev`) the feature stops with a message naming them, `herald doctor` fails with the command that adds
// them, and a command's failure is one line, not a stack.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOptionalPackages } from '../../src/cli/doctor-checks.ts';
import { failureText } from '../../src/cli/errors.ts';
import { loadConfig } from '../../src/config.ts';
import {
  installCommand,
  MissingPackageError,
  missingPackages,
  OPTIONAL_FEATURES,
} from '../../src/optional-packages.ts';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/herald.js');
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version: string; dev?: boolean; devOptional?: boolean }>;
};
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A `--import` that makes the named packages unresolvable, as in a server install without them. */
function hiding(prefixes: string[]): string {
  const hook = `import { registerHooks } from 'node:module';
registerHooks({ resolve(spec, ctx, next) {
  if (${JSON.stringify(prefixes)}.some((p) => spec === p || spec.startsWith(p + '/')))
    throw Object.assign(new Error('not installed: ' + spec), { code: 'MODULE_NOT_FOUND' });
  return next(spec, ctx);
} });`;
  return `data:text/javascript,${encodeURIComponent(hook)}`;
}

const s3Env = {
  HERALD_STORAGE: 's3',
  HERALD_S3_BUCKET: 'media',
  HERALD_S3_ACCESS_KEY_ID: 'id',
  HERALD_S3_SECRET_ACCESS_KEY: 'secret',
  HERALD_S3_PUBLIC_URL: 'http://127.0.0.1:9/media',
  HERALD_S3_ENDPOINT: 'http://127.0.0.1:9',
};

describe('optional packages', () => {
  it('are development dependencies and optional peers, in no feature-free install', () => {
    const all = [...new Set(Object.values(OPTIONAL_FEATURES).flatMap((f) => f.packages))];
    for (const name of all) {
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.devDependencies[name], name).toBeDefined();
      expect(pkg.peerDependencies[name], name).toBe(pkg.devDependencies[name]);
      expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
      // `dev` in the lock file: `npm ci --omit=dev` leaves it out (`devOptional` would keep it).
      expect(lock.packages[`node_modules/${name}`]?.dev, name).toBe(true);
    }
    // drizzle-orm's optional peers that only the sandbox's PDS needs (.npmrc legacy-peer-deps).
    for (const name of ['better-sqlite3', 'kysely', 'prebuild-install']) {
      expect(lock.packages[`node_modules/${name}`]?.dev, name).toBe(true);
      expect(lock.packages[`node_modules/${name}`]?.devOptional, name).toBeUndefined();
    }
  });

  it('are installed here, and the command to add them pins the lock file versions without saving', () => {
    for (const feature of Object.keys(OPTIONAL_FEATURES) as (keyof typeof OPTIONAL_FEATURES)[]) {
      expect(missingPackages(feature), feature).toEqual([]);
    }
    const v = (name: string) => lock.packages[`node_modules/${name}`]!.version;
    expect(installCommand(['@aws-sdk/client-s3', '@aws-sdk/lib-storage'])).toBe(
      `npm install --omit=dev --no-save --save-prod @aws-sdk/client-s3@${v('@aws-sdk/client-s3')} @aws-sdk/lib-storage@${v('@aws-sdk/lib-storage')}`,
    );
  });

  it('S3 storage and an AI provider stop with the packages to add when they are not installed', async () => {
    const disk = mkdtempSync(join(tmpdir(), 'herald-optional-'));
    dirs.push(disk);
    const script = `import { createMediaStorage } from './src/media/storage/index.ts';
import { createModels } from './src/ai/models.ts';
const out = {};
try { await createMediaStorage({ driver: 's3', bucket: 'b', region: 'r', accessKeyId: 'a', secretAccessKey: 's', publicBaseUrl: 'http://x' }); out.s3 = 'made'; }
catch (e) { out.s3 = { name: e.name, message: e.message }; }
try { await createModels({ provider: 'anthropic', model: 'm', apiKey: 'k' }); out.ai = 'made'; }
catch (e) { out.ai = { name: e.name, message: e.message }; }
out.builtin = await createModels({ provider: 'builtin' });
out.disk = (await createMediaStorage({ driver: 'disk', root: ${JSON.stringify(disk)}, publicBaseUrl: 'http://x' })).constructor.name;
console.log(JSON.stringify(out));`;
    const { stdout } = await exec(
      process.execPath,
      ['--import', hiding(['@aws-sdk', 'ai', '@ai-sdk']), '--input-type=module', '-e', script],
      { cwd: ROOT, timeout: 120_000 },
    );
    const out = JSON.parse(stdout) as Record<string, { name: string; message: string } | string | null>;
    const v = (name: string) => lock.packages[`node_modules/${name}`]!.version;
    expect(out.s3).toEqual({
      name: 'MissingPackageError',
      message:
        'HERALD_STORAGE=s3 needs the packages @aws-sdk/client-s3, @aws-sdk/lib-storage, which the server install ' +
        '(npm ci --omit=dev) leaves out: add them with `npm install --omit=dev --no-save --save-prod ' +
        `@aws-sdk/client-s3@${v('@aws-sdk/client-s3')} @aws-sdk/lib-storage@${v('@aws-sdk/lib-storage')}\` ` +
        '(docs/deployment.md, Optional packages)',
    });
    expect(out.ai).toMatchObject({ name: 'MissingPackageError' });
    expect((out.ai as { message: string }).message).toContain(
      'HERALD_AI_PROVIDER=anthropic needs the packages ai, @ai-sdk/anthropic',
    );
    // What needs none of them still works.
    expect(out.builtin).toBeNull();
    expect(out.disk).toBe('DiskStorage');
  });

  it('a command that fails on a missing package says so in one line', () => {
    const text = failureText(new MissingPackageError('s3', ['@aws-sdk/client-s3']));
    expect(text).toMatch(/^herald: HERALD_STORAGE=s3 needs the package @aws-sdk\/client-s3, .*npm install/);
    expect(text).not.toContain('\n');
  });

  it('herald doctor: a skip when nothing optional is configured, ok when installed, a fail with the command when not', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'herald-optional-'));
    dirs.push(dataDir);
    const plain = loadConfig({ HERALD_DATA_DIR: dataDir } as NodeJS.ProcessEnv);
    expect(checkOptionalPackages(plain)).toEqual([
      { check: 'optional packages', status: 'skip', detail: 'none needed (built-in AI provider, media on disk)' },
    ]);
    const both = loadConfig({
      HERALD_DATA_DIR: dataDir,
      ...s3Env,
      HERALD_AI_PROVIDER: 'openai',
      HERALD_AI_MODEL: 'gpt',
      HERALD_AI_API_KEY: 'k',
    } as NodeJS.ProcessEnv);
    expect(checkOptionalPackages(both).map((r) => [r.check, r.status])).toEqual([
      ['packages for HERALD_AI_PROVIDER=openai', 'ok'],
      ['packages for HERALD_STORAGE=s3', 'ok'],
    ]);
    const lacking = checkOptionalPackages(both, (f) => (f === 's3' ? ['@aws-sdk/lib-storage'] : []));
    expect(lacking[1]).toEqual({
      check: 'packages for HERALD_STORAGE=s3',
      status: 'fail',
      detail: 'not installed: @aws-sdk/lib-storage',
      fix: installCommand(['@aws-sdk/lib-storage']),
    });

    // The real command, in a process that cannot resolve the S3 SDK.
    const env: NodeJS.ProcessEnv = { ...process.env, HERALD_DATA_DIR: dataDir, HERALD_LOG_LEVEL: 'warn', ...s3Env };
    delete env.DATABASE_URL;
    let stdout = '';
    try {
      ({ stdout } = await exec(process.execPath, ['--import', hiding(['@aws-sdk']), BIN, 'doctor', '--json'], {
        env,
        cwd: ROOT,
        timeout: 120_000,
      }));
    } catch (e) {
      stdout = (e as { stdout: string }).stdout;
    }
    const checks = (JSON.parse(stdout) as { checks: { check: string; status: string; detail: string; fix?: string }[] })
      .checks;
    const row = checks.find((c) => c.check === 'packages for HERALD_STORAGE=s3');
    expect(row).toMatchObject({
      status: 'fail',
      detail: 'not installed: @aws-sdk/client-s3, @aws-sdk/lib-storage',
    });
    expect(row?.fix).toContain('npm install --omit=dev --no-save --save-prod @aws-sdk/client-s3@');
    const storage = checks.find((c) => c.check === 'storage');
    expect(storage?.status).toBe('fail');
    expect(storage?.fix).toBe(row?.fix);
  }, 180_000);
});
