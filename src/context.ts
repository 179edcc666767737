// The one composition root: config in, every service out. Tests pass `overrides` to swap pieces.
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { resolveSecrets, type Secrets } from './secrets.ts';
import { PlanCatalog } from './auth/plans.ts';
import { CreditService } from './auth/credits.ts';
import { JwtService } from './auth/jwt.ts';
import { ApiKeyService } from './auth/api-keys.ts';
import { AccountService } from './auth/accounts.ts';
import { WorkspaceService } from './auth/workspaces.ts';
import { Authenticator } from './auth/authenticate.ts';
import { UsageService } from './auth/usage.ts';

export type Clock = () => Date;

/** Paths redacted from every log line: credentials must never be written out. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.query.apikey',
  'req.query.api_key',
  '*.password',
  '*.app_password',
  '*.secret',
  '*.access_token',
  '*.refresh_token',
];

export interface AppContext {
  config: Config;
  logger: Logger;
  clock: Clock;
  database: Database;
  secrets: Secrets;
  plans: PlanCatalog;
  credits: CreditService;
  jwt: JwtService;
  apiKeys: ApiKeyService;
  accounts: AccountService;
  workspaces: WorkspaceService;
  auth: Authenticator;
  usage: UsageService;
  /** Checks behind /readyz; later modules (the job worker) add theirs. */
  readiness: ReadinessCheck[];
  close(): Promise<void>;
}

export type ReadinessCheck = () => Promise<{ name: string; ok: boolean; detail?: string }>;

export interface ContextOverrides {
  logger?: Logger;
  clock?: Clock;
  database?: Database;
  /** In-memory PGlite instead of the data directory (tests). */
  memoryDb?: boolean;
  plans?: PlanCatalog;
}

const SECRET_QUERY = /([?&](?:api[-_]?key|access_token|token|code|state|app_password)=)[^&#]*/gi;

/** Request URLs are logged without the values of credential-bearing query parameters. */
export const scrubUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; hostname?: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: scrubUrl(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
      }),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? (() => new Date());
  const secrets = resolveSecrets(config);
  const database =
    overrides.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, memory: overrides.memoryDb ?? false }));
  await database.migrate();
  const plans = overrides.plans ?? PlanCatalog.load(config.plansFile);
  if (!plans.has(config.defaultPlan)) {
    throw new Error(`HERALD_DEFAULT_PLAN '${config.defaultPlan}' is not a known plan (${plans.list().map((p) => p.plan_id).join(', ')})`);
  }
  const db = database.db;
  const credits = new CreditService(db, plans, clock);
  const jwt = new JwtService(secrets.jwtSecret, config.jwtTtlSeconds, clock);
  const apiKeys = new ApiKeyService(db, config.apiKeyCacheSeconds, clock);
  const workspaces = new WorkspaceService(db, plans, config.defaultPlan);
  const accounts = new AccountService(db, workspaces, config.signup);
  const auth = new Authenticator(apiKeys, jwt, accounts, workspaces, plans, { seconds: config.apiKeyCacheSeconds, now: clock });
  const usage = new UsageService(plans, credits, workspaces, clock);
  workspaces.planChanged.push(() => apiKeys.invalidate(), () => auth.invalidate());
  return {
    config,
    logger,
    clock,
    database,
    secrets,
    plans,
    credits,
    jwt,
    apiKeys,
    accounts,
    workspaces,
    auth,
    usage,
    readiness: [
      async () => {
        try {
          const { applied, shipped } = await database.migrationStatus();
          return applied >= shipped
            ? { name: 'database', ok: true }
            : { name: 'database', ok: false, detail: `${shipped - applied} migration(s) not applied` };
        } catch (err) {
          return { name: 'database', ok: false, detail: (err as Error).message };
        }
      },
    ],
    async close() {
      await database.close();
    },
  };
}
