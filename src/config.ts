// The only reader of process.env. Everything else receives a parsed Config.
import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const csv = z
  .string()
  .optional()
  .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  HERALD_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(
    z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional(),
  ),
  HERALD_PUBLIC_URL: optionalString.pipe(z.url().optional()),
  HERALD_JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  HERALD_ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9+/_-]{43}=?$|^[0-9a-fA-F]{64}$/, 'must be 32 bytes as base64 or 64 hex characters')
      .optional(),
  ),
  HERALD_JWT_TTL_SECONDS: z.coerce.number().int().min(60).default(7 * 24 * 3600),
  HERALD_DEFAULT_PLAN: z.string().min(1).default('pro'),
  HERALD_PLANS_FILE: optionalString,
  HERALD_SIGNUP: z.enum(['open', 'closed']).default('open'),
  HERALD_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
  HERALD_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  REDIS_URL: optionalString.pipe(z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional()),
  HERALD_API_KEY_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(3),
  HERALD_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HERALD_TRUST_PROXY: bool.default(false),
  HERALD_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).default(20),
  HERALD_SANDBOX: bool.default(false),
  HERALD_SANDBOX_FORCE: bool.default(false),
  HERALD_SMTP_URL: optionalString,
  HERALD_MAIL_FROM: z.string().default('Herald <herald@localhost>'),
  HERALD_FETCH_ALLOW_HOSTS: csv,
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  jwtSecret: string | undefined;
  encryptionKey: string | undefined;
  jwtTtlSeconds: number;
  defaultPlan: string;
  plansFile: string | undefined;
  signup: 'open' | 'closed';
  rateLimit: { max: number; windowSeconds: number };
  redisUrl: string | undefined;
  apiKeyCacheSeconds: number;
  logLevel: Env['HERALD_LOG_LEVEL'];
  trustProxy: boolean;
  shutdownTimeoutSeconds: number;
  sandbox: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  fetchAllowHosts: string[];
}

export class ConfigError extends Error {}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const port = e.PORT;
  const publicUrl = (e.HERALD_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (e.NODE_ENV === 'production' && e.DATABASE_URL) {
    const missing = [
      !e.HERALD_JWT_SECRET && 'HERALD_JWT_SECRET',
      !e.HERALD_ENCRYPTION_KEY && 'HERALD_ENCRYPTION_KEY',
    ].filter(Boolean);
    if (missing.length) {
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((m) => `  ${m}: required with NODE_ENV=production and DATABASE_URL (secrets are never generated in production)`).join('\n')}`,
      );
    }
  }
  if (e.HERALD_SANDBOX && e.NODE_ENV === 'production' && !e.HERALD_SANDBOX_FORCE) {
    throw new ConfigError(
      'Invalid configuration:\n  HERALD_SANDBOX: refused with NODE_ENV=production (its inspection endpoints reveal every token); set HERALD_SANDBOX_FORCE=1 to override',
    );
  }
  return {
    env: e.NODE_ENV,
    port,
    host: e.HOST,
    dataDir: e.HERALD_DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    jwtSecret: e.HERALD_JWT_SECRET,
    encryptionKey: e.HERALD_ENCRYPTION_KEY,
    jwtTtlSeconds: e.HERALD_JWT_TTL_SECONDS,
    defaultPlan: e.HERALD_DEFAULT_PLAN,
    plansFile: e.HERALD_PLANS_FILE,
    signup: e.HERALD_SIGNUP,
    rateLimit: { max: e.HERALD_RATE_LIMIT_MAX, windowSeconds: e.HERALD_RATE_LIMIT_WINDOW_SECONDS },
    redisUrl: e.REDIS_URL,
    apiKeyCacheSeconds: e.HERALD_API_KEY_CACHE_SECONDS,
    logLevel: e.HERALD_LOG_LEVEL,
    trustProxy: e.HERALD_TRUST_PROXY,
    shutdownTimeoutSeconds: e.HERALD_SHUTDOWN_TIMEOUT_SECONDS,
    sandbox: e.HERALD_SANDBOX,
    smtpUrl: e.HERALD_SMTP_URL,
    mailFrom: e.HERALD_MAIL_FROM,
    fetchAllowHosts: e.HERALD_FETCH_ALLOW_HOSTS,
  };
}
