// The only reader of process.env. Everything else receives a parsed Config. Each concern's settings (their names,
// defaults and shape) live in src/config/; this file composes them into one environment schema and one Config.
import { z } from 'zod';
import { aiConfigErrors, aiEnvSchema, toAiConfig, type AiConfig } from './ai/config.ts';
import { agentEnvSchema, toAgentConfig, type AgentConfig } from './agent/config.ts';
import { engagementEnvSchema, toEngagementConfig, type EngagementConfig } from './config/engagement.ts';
import { bool, ConfigError, csv, optionalString } from './config/env.ts';
import { mediaConfig, mediaEnvSchema, type MediaConfig } from './config/media.ts';
import { oauthEnvSchema, toOAuthConfig, type OAuthConfig } from './config/oauth.ts';
import { platformEnv, type PlatformEnvConfig } from './config/platforms.ts';
import { schedulingEnvSchema, toSchedulingConfig, type SchedulingConfig } from './config/scheduling.ts';
import { NETWORKS } from './platforms/registry.ts';
import { toWebhooksConfig, webhooksEnvSchema, type WebhooksConfig } from './config/webhooks.ts';
import { feedsEnvSchema, toFeedsConfig, type FeedsConfig } from './config/feeds.ts';
import { trustProxyEnv, type TrustProxy } from './trust-proxy.ts';
import { toWebConfig, webEnvSchema, type WebConfig } from './config/web.ts';
import { defaultTemplateDir } from './db/pglite-template.ts';

export type { TrustProxy };
export { ConfigError };
export type {
  EngagementConfig,
  MediaConfig,
  OAuthConfig,
  PlatformEnvConfig,
  SchedulingConfig,
  WebConfig,
  WebhooksConfig,
};
export type { OAuthStaticClient } from './config/oauth.ts';

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    HERALD_DATA_DIR: z.string().default('./data'),
    HERALD_PGLITE_TEMPLATE_DIR: optionalString,
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    HERALD_PUBLIC_URL: optionalString.pipe(z.url().optional()),
    HERALD_JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    HERALD_ENCRYPTION_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9+/_-]{43}=?$|^[0-9a-fA-F]{64}$/, 'must be 32 bytes as base64 or 64 hex characters')
        .optional(),
    ),
    HERALD_JWT_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(7 * 24 * 3600),
    HERALD_DEFAULT_PLAN: z.string().min(1).default('pro'),
    HERALD_PLANS_FILE: optionalString,
    // `closed` is the older name of `invite`.
    HERALD_SIGNUP: z
      .enum(['open', 'invite', 'closed'])
      .default('open')
      .transform((v) => (v === 'closed' ? 'invite' : v)),
    HERALD_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
    HERALD_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
    HERALD_AUTH_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(30),
    HERALD_LOGIN_FREE_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
    HERALD_LOGIN_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
    HERALD_RATE_LIMIT_REDIS_PREFIX: z.string().min(1).max(100).default('herald-rl:'),
    REDIS_URL: optionalString.pipe(
      z
        .string()
        .regex(/^rediss?:\/\//, 'must be a redis:// URL')
        .optional(),
    ),
    // Values above 1 are accepted (older configurations) and capped at 1 s (src/auth/auth-cache.ts).
    HERALD_API_KEY_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(1),
    HERALD_INVITATION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(300)
      .max(30 * 24 * 3600)
      .default(7 * 24 * 3600),
    HERALD_PASSWORD_RESET_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(300)
      .max(24 * 3600)
      .default(1800),
    HERALD_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    HERALD_LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
    HERALD_LOG_REQUESTS: z.enum(['all', 'errors', 'off']).default('all'),
    HERALD_TRUST_PROXY: trustProxyEnv.default(false),
    HERALD_METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    HERALD_METRICS_PORT: optionalString.pipe(z.coerce.number<string | undefined>().int().min(0).max(65535).optional()),
    HERALD_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    HERALD_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).default(20),
    HERALD_SANDBOX: bool.default(false),
    HERALD_SANDBOX_STRICT: z.string().default(''),
    HERALD_SANDBOX_FORCE: bool.default(false),
    HERALD_SANDBOX_CONTROL: z.enum(['loopback', 'any']).default('loopback'),
    HERALD_SMTP_URL: optionalString,
    HERALD_MAIL_FROM: z.string().default('Herald <herald@localhost>'),
    HERALD_FETCH_ALLOW_HOSTS: csv,
    HERALD_SEARXNG_URL: optionalString.pipe(z.url().optional()),
    HERALD_OAUTH_RESULT_URL: optionalString.pipe(z.url().optional()),
    HERALD_OAUTH_STATE_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(600),
    HERALD_PROFILE_CACHE_SECONDS: z.coerce.number().int().min(0).default(900),
    HERALD_FOLLOW_UP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
    ...engagementEnvSchema.shape,
    HERALD_PLATFORM_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(30),
    HERALD_PUBLISH_WAIT_SECONDS: z.coerce.number().min(1).max(900).default(120),
    HERALD_PUBLISH_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
    HERALD_IDEMPOTENCY_LEASE_SECONDS: z.coerce.number().int().min(3).max(86_400).optional(),
    ...schedulingEnvSchema.shape,
    ...mediaEnvSchema.shape,
    ...oauthEnvSchema.shape,
    ...webEnvSchema.shape,
    ...webhooksEnvSchema.shape,
    ...feedsEnvSchema.shape,
  })
  .extend(aiEnvSchema.shape)
  .extend(agentEnvSchema.shape);

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  /** Cache of the embedded database's fresh data directory (src/db/pglite-template.ts); undefined: off. */
  pgliteTemplateDir: string | undefined;
  databaseUrl: string | undefined;
  publicUrl: string;
  jwtSecret: string | undefined;
  encryptionKey: string | undefined;
  jwtTtlSeconds: number;
  defaultPlan: string;
  plansFile: string | undefined;
  /** `invite`: POST /auth/signup needs an invitation token (the first user of an install is always admitted). */
  signup: 'open' | 'invite';
  /**
   * Per valid credential; per client address for anonymous and failed requests; `authMax` per address on sign-in
   * routes.
   */
  rateLimit: { max: number; authMax: number; windowSeconds: number; redisPrefix: string };
  /** Per-account sign-in throttle: failures allowed before exponential backoff, and its ceiling. */
  loginThrottle: { freeAttempts: number; maxBackoffSeconds: number };
  redisUrl: string | undefined;
  apiKeyCacheSeconds: number;
  /** How long a workspace invitation can be accepted. */
  invitationTtlSeconds: number;
  /** How long a password reset token can be used. */
  passwordResetTtlSeconds: number;
  logLevel: Env['HERALD_LOG_LEVEL'];
  /** JSON lines, or pino-pretty's readable lines; `auto`: readable when stdout is a terminal. */
  logFormat: Env['HERALD_LOG_FORMAT'];
  /** One line per request: for every request, for 4xx/5xx answers only, or none. */
  logRequests: Env['HERALD_LOG_REQUESTS'];
  trustProxy: TrustProxy;
  /** /metrics: a bearer token it requires, and/or a listener of its own (then it is not on the main port). */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  shutdownTimeoutSeconds: number;
  sandbox: boolean;
  /** Strict simulator modes (`all` or a comma-separated list), read by the sandbox; see docs/sandbox.md. */
  sandboxStrict: string;
  /**
   * Who may use the sandbox's control routes (/sandbox/_state, _seed, _faults, _config): loopback clients, or anyone.
   */
  sandboxControl: Env['HERALD_SANDBOX_CONTROL'];
  smtpUrl: string | undefined;
  mailFrom: string;
  fetchAllowHosts: string[];
  /** A self-hosted SearXNG instance (its JSON API) behind the web_search_searxng tool; unset: no web search. */
  searxngUrl: string | undefined;
  /** Where the OAuth callback sends the browser afterwards (?platform=&status=&message=); unset → Herald's own page. */
  oauthResultUrl: string | undefined;
  oauthStateTtlSeconds: number;
  profileCacheSeconds: number;
  /** The posts read model, comments inbox and their background sync: see docs/engagement.md. */
  engagement: EngagementConfig;
  platformTimeoutSeconds: number;
  /** How often posts published under a provisional id are asked about again (0: never). */
  followUpSeconds: number;
  /** How long a publish request waits for each network, asynchronous processing included. */
  publishWaitSeconds: number;
  /** Pause between status checks of a post the network is still processing. */
  publishPollMs: number;
  /** How long an Idempotency-Key's claim outlives its request's last heartbeat (renewed every third of it). */
  idempotencyLeaseSeconds: number;
  /** Scheduled posts: see docs/scheduling.md. */
  scheduling: SchedulingConfig;
  /** Each registered network's block, by slug. */
  platforms: Readonly<Record<string, PlatformEnvConfig>>;
  media: MediaConfig;
  /** The AI routes' provider and models: see docs/ai.md. */
  ai: AiConfig;
  /** The workspace agent's limits and memory: see docs/agent.md. */
  agent: AgentConfig;
  oauth: OAuthConfig;
  /** The web app Herald serves at `/`: see docs/web.md. */
  web: WebConfig;
  /**
   * Webhook deliveries: timeout, retry schedule, when a failing endpoint is disabled, the worker (docs/webhooks.md).
   */
  webhooks: WebhooksConfig;
  /** Feeds followed by workspaces: how often they are polled, the fetch's limits (docs/workflow.md). */
  feeds: FeedsConfig;
}

/** `networks`: the registry's networks, each read from its HERALD_<SLUG>_* variables (default: the built-in ones). */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  networks: readonly { slug: string }[] = NETWORKS,
): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const aiErrors = aiConfigErrors(e);
  if (aiErrors.length) throw new ConfigError(`Invalid configuration:\n${aiErrors.join('\n')}`);
  const platformParsed = platformEnv(
    source,
    networks.map((n) => n.slug),
  );
  if (platformParsed.errors.length)
    throw new ConfigError(`Invalid configuration:\n${platformParsed.errors.join('\n')}`);
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
    pgliteTemplateDir:
      e.HERALD_PGLITE_TEMPLATE_DIR === 'off' ? undefined : (e.HERALD_PGLITE_TEMPLATE_DIR ?? defaultTemplateDir(source)),
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    jwtSecret: e.HERALD_JWT_SECRET,
    encryptionKey: e.HERALD_ENCRYPTION_KEY,
    jwtTtlSeconds: e.HERALD_JWT_TTL_SECONDS,
    defaultPlan: e.HERALD_DEFAULT_PLAN,
    plansFile: e.HERALD_PLANS_FILE,
    signup: e.HERALD_SIGNUP,
    rateLimit: {
      max: e.HERALD_RATE_LIMIT_MAX,
      authMax: e.HERALD_AUTH_RATE_LIMIT_MAX,
      windowSeconds: e.HERALD_RATE_LIMIT_WINDOW_SECONDS,
      redisPrefix: e.HERALD_RATE_LIMIT_REDIS_PREFIX,
    },
    loginThrottle: {
      freeAttempts: e.HERALD_LOGIN_FREE_ATTEMPTS,
      maxBackoffSeconds: e.HERALD_LOGIN_BACKOFF_MAX_SECONDS,
    },
    redisUrl: e.REDIS_URL,
    apiKeyCacheSeconds: e.HERALD_API_KEY_CACHE_SECONDS,
    invitationTtlSeconds: e.HERALD_INVITATION_TTL_SECONDS,
    passwordResetTtlSeconds: e.HERALD_PASSWORD_RESET_TTL_SECONDS,
    logLevel: e.HERALD_LOG_LEVEL,
    logFormat: e.HERALD_LOG_FORMAT,
    logRequests: e.HERALD_LOG_REQUESTS,
    trustProxy: e.HERALD_TRUST_PROXY,
    metrics: { token: e.HERALD_METRICS_TOKEN, port: e.HERALD_METRICS_PORT, host: e.HERALD_METRICS_HOST },
    shutdownTimeoutSeconds: e.HERALD_SHUTDOWN_TIMEOUT_SECONDS,
    sandbox: e.HERALD_SANDBOX,
    sandboxStrict: e.HERALD_SANDBOX_STRICT,
    sandboxControl: e.HERALD_SANDBOX_CONTROL,
    smtpUrl: e.HERALD_SMTP_URL,
    mailFrom: e.HERALD_MAIL_FROM,
    fetchAllowHosts: e.HERALD_FETCH_ALLOW_HOSTS,
    searxngUrl: e.HERALD_SEARXNG_URL,
    oauthResultUrl: e.HERALD_OAUTH_RESULT_URL,
    oauthStateTtlSeconds: e.HERALD_OAUTH_STATE_TTL_SECONDS,
    profileCacheSeconds: e.HERALD_PROFILE_CACHE_SECONDS,
    engagement: toEngagementConfig(e),
    platformTimeoutSeconds: e.HERALD_PLATFORM_TIMEOUT_SECONDS,
    publishWaitSeconds: e.HERALD_PUBLISH_WAIT_SECONDS,
    followUpSeconds: e.HERALD_FOLLOW_UP_SECONDS,
    publishPollMs: e.HERALD_PUBLISH_POLL_MS,
    // Renewed every third while the request runs, so it only bounds how long a retry waits after a crash;
    // still well above the longest request (each network's wait runs in parallel), in case renewals stall.
    idempotencyLeaseSeconds:
      e.HERALD_IDEMPOTENCY_LEASE_SECONDS ?? Math.max(300, Math.ceil(2 * e.HERALD_PUBLISH_WAIT_SECONDS)),
    scheduling: toSchedulingConfig(e),
    platforms: platformParsed.configs,
    media: mediaConfig(e, publicUrl),
    ai: toAiConfig(e),
    agent: toAgentConfig(e),
    oauth: toOAuthConfig(e),
    web: toWebConfig(e),
    webhooks: toWebhooksConfig(e),
    feeds: toFeedsConfig(e),
  };
}
