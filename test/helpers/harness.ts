// A Herald app per test file: in-memory PGlite by default, or a fresh database on the PostgreSQL at
// DATABASE_URL (created here, dropped at close) so suites never see each other's rows.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.ts';
import {
  createContext,
  type AppContext,
  type Clock,
  type ContextOverrides,
  type ReadinessCheck,
} from '../../src/context.ts';
import { openDatabase } from '../../src/db/client.ts';
import { buildApp } from '../../src/transports/rest/app.ts';
import { restrictedPlansFile } from './security-matrix.ts';
import { freePort } from './net.ts';

export interface Harness {
  ctx: AppContext;
  app: FastifyInstance;
  config: Config;
  /** The public origin (sandbox harnesses listen on it). */
  url: string;
  /** fastify.inject with JSON convenience. */
  req(opts: InjectOptions): Promise<LightMyRequestResponse>;
  signup(opts?: { email?: string; password?: string; workspace_name?: string }): Promise<TestUser>;
  createKey(user: TestUser, scope?: string, workspaceId?: string): Promise<string>;
  setPlan(workspaceId: string, planId: string): Promise<void>;
  close(): Promise<void>;
}

export interface TestUser {
  token: string;
  userId: string;
  email: string;
  password: string;
  workspaceId: string;
}

/** Suites of the `nodb` project (vitest.config.ts) run on one back end only, so they must not open one. */
function assertDatabaseAllowed(): void {
  if (process.env.HERALD_TEST_NO_DATABASE) {
    throw new Error(
      'This suite is in the nodb project (vitest.config.ts NO_DB) but opens a database: move it to the db project.',
    );
  }
}

export async function createTestDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  assertDatabaseAllowed();
  const base = process.env.DATABASE_URL;
  if (!base) return undefined;
  const name = `herald_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface HarnessOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Listen on a real loopback port with the sandbox mounted: adapters then talk HTTP to the simulators. */
  sandbox?: boolean;
  overrides?: Omit<ContextOverrides, 'database' | 'logger' | 'clock'>;
  /** Hooks on the app before any route (e.g. watching the sandbox's calls). */
  configureApp?: (app: FastifyInstance) => void;
  /** Readiness checks beyond the context's, as `herald serve` adds the scheduler's (made once the context exists). */
  readiness?: (ctx: AppContext) => ReadinessCheck[];
  /** The context's logger (default: silent); test/helpers/log-capture.ts captures lines. */
  logger?: ContextOverrides['logger'];
}

// The migrated database test/helpers/global-setup.ts made for this run (undefined outside vitest's run),
// read once per test process however many harnesses the file opens.
let template: Blob | undefined;
function migratedTemplate(): Blob | undefined {
  const file = process.env.HERALD_TEST_PGLITE_TEMPLATE;
  if (file) template ??= new Blob([readFileSync(file)]);
  return template;
}

export async function createHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-test-'));
  const port = opts.sandbox ? await freePort() : 0;
  const testDb = await createTestDatabaseUrl();
  const plansFile = join(dataDir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify(restrictedPlansFile));
  const config = loadConfig({
    HERALD_DATA_DIR: dataDir,
    HERALD_PUBLIC_URL: opts.sandbox ? `http://127.0.0.1:${port}` : 'http://127.0.0.1:1',
    ...(opts.sandbox ? { HERALD_SANDBOX: '1' } : {}),
    HERALD_LOG_LEVEL: 'silent',
    HERALD_API_KEY_CACHE_SECONDS: '0',
    // Suites sign up many users from one address; rate-limit tests set their own budget.
    HERALD_AUTH_RATE_LIMIT_MAX: '100000',
    HERALD_OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR: '10000',
    HERALD_PLANS_FILE: plansFile,
    ...(testDb ? { DATABASE_URL: testDb.url } : {}),
    ...opts.env,
  });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir,
    memory: !config.databaseUrl,
    memoryTemplate: config.databaseUrl ? undefined : migratedTemplate(),
    poolSize: 4,
  });
  const ctx = await createContext(config, {
    database,
    logger: opts.logger ?? pino({ level: 'silent' }),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...opts.overrides,
  });
  const app = await buildApp(ctx, { configure: opts.configureApp, readiness: opts.readiness?.(ctx) ?? [] });
  if (opts.sandbox) await app.listen({ port, host: '127.0.0.1' });
  else await app.ready();
  let n = 0;
  const h: Harness = {
    ctx,
    app,
    config,
    url: config.publicUrl,
    req: (o) => app.inject(o),
    async signup(o = {}) {
      const email = o.email ?? `user${++n}-${randomBytes(3).toString('hex')}@example.test`;
      const password = o.password ?? 'correct horse battery';
      const res = await app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email, password, workspace_name: o.workspace_name },
      });
      if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
      const body = res.json() as { access_token: string; user: { id: string } };
      const ws = await app.inject({
        method: 'GET',
        url: '/workspaces',
        headers: { authorization: `Bearer ${body.access_token}` },
      });
      const list = ws.json() as { id: string }[];
      return { token: body.access_token, userId: body.user.id, email, password, workspaceId: list[0]!.id };
    },
    async createKey(user, scope = 'full', workspaceId = user.workspaceId) {
      const res = await app.inject({
        method: 'POST',
        url: `/workspaces/${workspaceId}/api-keys`,
        headers: { authorization: `Bearer ${user.token}` },
        payload: { name: 'test', scope },
      });
      if (res.statusCode !== 201) throw new Error(`key creation failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { secret: string }).secret;
    },
    async setPlan(workspaceId, planId) {
      await ctx.workspaces.setPlan(workspaceId, planId);
    },
    async close() {
      await app.close();
      await ctx.close();
      await testDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return h;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const asUser = (u: TestUser) => ({ authorization: `Bearer ${u.token}`, 'x-workspace-id': u.workspaceId });
