// The only reader of process.env. Everything else receives a parsed Config.
import { join } from 'node:path';
import { z } from 'zod';
import { aiConfigErrors, aiEnvSchema, toAiConfig, type AiConfig } from './ai/config.ts';
import { agentEnvSchema, toAgentConfig, type AgentConfig } from './agent/config.ts';
import type { StorageConfig } from './media/storage/index.ts';
import { NETWORKS } from './platforms/registry.ts';
import { trustProxyEnv, type TrustProxy } from './trust-proxy.ts';
import { defaultTemplateDir } from './db/pglite-template.ts';

export type { TrustProxy };

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
  HERALD_PGLITE_TEMPLATE_DIR: optionalString,
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
  // `closed` is the older name of `invite`.
  HERALD_SIGNUP: z.enum(['open', 'invite', 'closed']).default('open').transform((v) => (v === 'closed' ? 'invite' : v)),
  HERALD_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
  HERALD_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  HERALD_AUTH_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(30),
  HERALD_LOGIN_FREE_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  HERALD_LOGIN_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  HERALD_RATE_LIMIT_REDIS_PREFIX: z.string().min(1).max(100).default('herald-rl:'),
  REDIS_URL: optionalString.pipe(z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional()),
  HERALD_API_KEY_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(3),
  HERALD_INVITATION_TTL_SECONDS: z.coerce.number().int().min(300).max(30 * 24 * 3600).default(7 * 24 * 3600),
  HERALD_PASSWORD_RESET_TTL_SECONDS: z.coerce.number().int().min(300).max(24 * 3600).default(1800),
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
  HERALD_POSTS_FRESH_SECONDS: z.coerce.number().int().min(0).max(604_800).default(900),
  HERALD_COMMENTS_FRESH_SECONDS: z.coerce.number().int().min(0).max(604_800).default(300),
  HERALD_COMMENT_SYNC_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(604_800).default(900),
  HERALD_COMMENT_SYNC_POSTS: z.coerce.number().int().min(1).max(50).default(10),
  HERALD_ENGAGEMENT_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  HERALD_PLATFORM_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(30),
  HERALD_PUBLISH_WAIT_SECONDS: z.coerce.number().min(1).max(900).default(120),
  HERALD_PUBLISH_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  HERALD_IDEMPOTENCY_LEASE_SECONDS: z.coerce.number().int().min(3).max(86_400).optional(),
  HERALD_SCHEDULE_GRACE_SECONDS: z.coerce.number().int().min(0).default(6 * 3600),
  HERALD_SCHEDULER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  HERALD_SCHEDULER_BATCH: z.coerce.number().int().min(1).max(500).default(20),
  HERALD_SCHEDULER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
  HERALD_SCHEDULER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  HERALD_SCHEDULER_STALL_SECONDS: z.coerce.number().int().min(5).default(120),
  HERALD_WORKER_IN_PROCESS: bool.default(true),
  HERALD_SCHEDULER_LEASE_SECONDS: z.coerce.number().int().min(1).optional(),
  HERALD_SCHEDULER_QUEUE: z.enum(['pgboss', 'scan']).default('pgboss'),
  HERALD_STORAGE: z.enum(['disk', 's3']).default('disk'),
  HERALD_STORAGE_URL: optionalString.pipe(z.url().optional()),
  HERALD_S3_BUCKET: optionalString,
  HERALD_S3_REGION: z.string().default('us-east-1'),
  HERALD_S3_ENDPOINT: optionalString.pipe(z.url().optional()),
  HERALD_S3_FORCE_PATH_STYLE: bool.default(false),
  HERALD_S3_ACCESS_KEY_ID: optionalString,
  HERALD_S3_SECRET_ACCESS_KEY: optionalString,
  HERALD_S3_PUBLIC_URL: optionalString.pipe(z.url().optional()),
  HERALD_MEDIA_MAX_IMAGE_BYTES: z.coerce.number().int().min(1024).default(20 * 1024 * 1024),
  HERALD_MEDIA_MAX_VIDEO_BYTES: z.coerce.number().int().min(1024).default(2 * 1024 * 1024 * 1024),
  HERALD_MEDIA_GC_PACING: bool.default(true),
  HERALD_MEDIA_FETCH_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(120),
  HERALD_FETCH_REQUEST_DEADLINE_SECONDS: z.coerce.number().min(1).max(3600).default(180),
  HERALD_UPLOAD_SESSION_TTL_SECONDS: z.coerce.number().int().min(60).default(24 * 3600),
  HERALD_FFPROBE_PATH: z.string().default('ffprobe'),
  HERALD_OAUTH_CLIENTS: optionalString,
  HERALD_OAUTH_REGISTRATION: z.enum(['open', 'closed']).default('open'),
  HERALD_OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(24 * 3600).default(3600),
  HERALD_OAUTH_REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(300).max(365 * 24 * 3600).default(30 * 24 * 3600),
  HERALD_OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(10),
  HERALD_OAUTH_PENDING_CLIENTS_MAX: z.coerce.number().int().min(1).max(1_000_000).default(1000),
})
  .extend(aiEnvSchema.shape)
  .extend(agentEnvSchema.shape);

export type Env = z.infer<typeof envSchema>;


export interface EngagementConfig {
  /** Stored posts younger than this are served without asking the network (0: every read asks). */
  postsFreshSeconds: number;
  /** Stored comments of a post younger than this are served without asking the network. */
  commentsFreshSeconds: number;
  /** The background comment sync's interval (0: off). */
  syncIntervalSeconds: number;
  /** How many recent posts per network the background sync reads comments of. */
  syncPosts: number;
  /** Calls in flight at once per network and workspace. */
  concurrency: number;
}

export interface PlatformEnvConfig {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Base URL overrides by the adapter's key, from HERALD_<PLATFORM>_<KEY>_URL (e.g. HERALD_LINKEDIN_API_BASE_URL → apiBase). */
  urls: Record<string, string>;
  /** OAuth scopes to ask for instead of the adapter's list, from HERALD_<PLATFORM>_SCOPES (space- or comma-separated). */
  scopes?: string[] | undefined;
  /** What the operator declares about the app, from the network's other HERALD_<PLATFORM>_<KEY> (e.g. HERALD_TIKTOK_AUDITED → audited). */
  settings?: Record<string, string> | undefined;
}

const PLATFORM_ENV_OWN = new Set(['CLIENT_ID', 'CLIENT_SECRET', 'SCOPES']);

/** HERALD_LINKEDIN_API_BASE_URL → apiBase; HERALD_BLUESKY_SERVICE_URL → service. One block per registered network. */
function platformEnv(source: Record<string, string | undefined>, slugs: readonly string[]): { configs: Record<string, PlatformEnvConfig>; errors: string[] } {
  const configs: Record<string, PlatformEnvConfig> = {};
  const errors: string[] = [];
  for (const p of slugs) {
    const prefix = `HERALD_${p.toUpperCase()}_`;
    const urls: Record<string, string> = {};
    for (const [name, value] of Object.entries(source)) {
      if (!name.startsWith(prefix) || !name.endsWith('_URL') || !value) continue;
      const key = name
        .slice(prefix.length, -'_URL'.length)
        .toLowerCase()
        .replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
      if (!/^https?:\/\//.test(value)) errors.push(`  ${name}: must be an http(s) URL`);
      else urls[key] = value.replace(/\/+$/, '');
    }
    const scopes = (source[`${prefix}SCOPES`] ?? '').split(/[\s,]+/).filter(Boolean);
    const settings: Record<string, string> = {};
    for (const [name, value] of Object.entries(source)) {
      if (!name.startsWith(prefix) || name.endsWith('_URL') || value === undefined || value.trim() === '') continue;
      const raw = name.slice(prefix.length);
      if (PLATFORM_ENV_OWN.has(raw)) continue;
      settings[raw.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())] = value.trim();
    }
    configs[p] = {
      clientId: source[`${prefix}CLIENT_ID`] || undefined,
      clientSecret: source[`${prefix}CLIENT_SECRET`] || undefined,
      urls,
      ...(scopes.length ? { scopes } : {}),
      ...(Object.keys(settings).length ? { settings } : {}),
    };
  }
  return { configs, errors };
}

/** An OAuth client the operator registered (GPT Actions asks for a client id and secret). */
export interface OAuthStaticClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  client_name?: string | undefined;
  /** How the client sends its secret to the token endpoint: in the POST body (GPT Actions' default) or a Basic header. */
  token_endpoint_auth_method: 'client_secret_post' | 'client_secret_basic';
}

/** The OAuth authorization server for chat connectors (docs/mcp.md, src/oauth/). */
export interface OAuthConfig {
  clients: OAuthStaticClient[];
  /** Dynamic client registration (RFC 7591) at /auth/oauth/register. */
  registration: 'open' | 'closed';
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Registrations one client address (IPv6: its /64) may make in an hour. */
  registrationsPerAddressPerHour: number;
  /** Registered clients that have not completed an authorization yet, at most, across the instance. */
  pendingClientsMax: number;
}

const oauthClientsSchema = z.array(
  z.strictObject({
    client_id: z.string().regex(/^[A-Za-z0-9._~-]{3,100}$/, 'client_id: 3–100 characters of A–Z a–z 0–9 . _ ~ -'),
    client_secret: z.string().min(32, 'client_secret must be at least 32 characters').max(200),
    redirect_uris: z.array(z.url()).min(1).max(20),
    client_name: z.string().min(1).max(100).optional(),
    token_endpoint_auth_method: z.enum(['client_secret_post', 'client_secret_basic']).default('client_secret_post'),
  }),
);

function oauthClients(raw: string | undefined): OAuthStaticClient[] {
  if (!raw) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ConfigError('Invalid configuration:\n  HERALD_OAUTH_CLIENTS: must be a JSON array of {client_id, client_secret, redirect_uris, client_name?}');
  }
  const parsed = oauthClientsSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration:\n  HERALD_OAUTH_CLIENTS: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const ids = parsed.data.map((c) => c.client_id);
  if (new Set(ids).size !== ids.length) throw new ConfigError('Invalid configuration:\n  HERALD_OAUTH_CLIENTS: client_id values must be unique');
  return parsed.data;
}

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
  /** Per valid credential; per client address for anonymous and failed requests; `authMax` per address on sign-in routes. */
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
  /** Who may use the sandbox's control routes (/sandbox/_state, _seed, _faults, _config): loopback clients, or anyone. */
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
  scheduling: { graceSeconds: number; pollMs: number; batchSize: number; concurrency: number; maxAttempts: number; stallSeconds: number; inProcessWorker: boolean; leaseSeconds: number; queue: 'pgboss' | 'scan' };
  /** Each registered network's block, by slug. */
  platforms: Readonly<Record<string, PlatformEnvConfig>>;
  media: MediaConfig;
  /** The AI routes' provider and models: see docs/ai.md. */
  ai: AiConfig;
  /** The workspace agent's limits and memory: see docs/agent.md. */
  agent: AgentConfig;
  oauth: OAuthConfig;
}

export interface MediaConfig {
  /** Where objects are stored; disk objects are served by Herald at storageUrl (GET /storage/*). */
  storage: StorageConfig;
  storageUrl: string;
  maxImageBytes: number;
  maxVideoBytes: number;
  fetchTimeoutSeconds: number;
  /** One limit for all the URL imports of one request (each URL also has fetchTimeoutSeconds). */
  fetchRequestDeadlineSeconds: number;
  uploadSessionTtlSeconds: number;
  /** ffprobe binary, or false for the built-in container parsers only. */
  ffprobePath: string | false;
  /** A minor GC every 8 MiB of streamed upload bytes (src/media/gc.ts); off only to measure without it. */
  gcPacing?: boolean;
}

function mediaConfig(e: Env, publicUrl: string): MediaConfig {
  const storageUrl = (e.HERALD_STORAGE_URL ?? `${publicUrl}/storage`).replace(/\/+$/, '');
  let storage: StorageConfig;
  if (e.HERALD_STORAGE === 's3') {
    const missing = (['HERALD_S3_BUCKET', 'HERALD_S3_ACCESS_KEY_ID', 'HERALD_S3_SECRET_ACCESS_KEY', 'HERALD_S3_PUBLIC_URL'] as const).filter((k) => !e[k]);
    if (missing.length) throw new ConfigError(`Invalid configuration:\n${missing.map((m) => `  ${m}: required with HERALD_STORAGE=s3`).join('\n')}`);
    storage = {
      driver: 's3',
      bucket: e.HERALD_S3_BUCKET!,
      region: e.HERALD_S3_REGION,
      ...(e.HERALD_S3_ENDPOINT ? { endpoint: e.HERALD_S3_ENDPOINT } : {}),
      forcePathStyle: e.HERALD_S3_FORCE_PATH_STYLE,
      accessKeyId: e.HERALD_S3_ACCESS_KEY_ID!,
      secretAccessKey: e.HERALD_S3_SECRET_ACCESS_KEY!,
      publicBaseUrl: e.HERALD_S3_PUBLIC_URL!,
    };
  } else {
    storage = { driver: 'disk', root: join(e.HERALD_DATA_DIR, 'media'), publicBaseUrl: storageUrl };
  }
  const ffprobe = e.HERALD_FFPROBE_PATH.trim();
  return {
    storage,
    storageUrl,
    maxImageBytes: e.HERALD_MEDIA_MAX_IMAGE_BYTES,
    maxVideoBytes: e.HERALD_MEDIA_MAX_VIDEO_BYTES,
    fetchTimeoutSeconds: e.HERALD_MEDIA_FETCH_TIMEOUT_SECONDS,
    fetchRequestDeadlineSeconds: e.HERALD_FETCH_REQUEST_DEADLINE_SECONDS,
    uploadSessionTtlSeconds: e.HERALD_UPLOAD_SESSION_TTL_SECONDS,
    ffprobePath: ffprobe === '' || ffprobe === 'off' ? false : ffprobe,
    gcPacing: e.HERALD_MEDIA_GC_PACING,
  };
}

export class ConfigError extends Error {}

/** `networks`: the registry's networks, each read from its HERALD_<SLUG>_* variables (default: the built-in ones). */
export function loadConfig(source: Record<string, string | undefined> = process.env, networks: readonly { slug: string }[] = NETWORKS): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const aiErrors = aiConfigErrors(e);
  if (aiErrors.length) throw new ConfigError(`Invalid configuration:\n${aiErrors.join('\n')}`);
  const platformParsed = platformEnv(source, networks.map((n) => n.slug));
  if (platformParsed.errors.length) throw new ConfigError(`Invalid configuration:\n${platformParsed.errors.join('\n')}`);
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
    pgliteTemplateDir: e.HERALD_PGLITE_TEMPLATE_DIR === 'off' ? undefined : (e.HERALD_PGLITE_TEMPLATE_DIR ?? defaultTemplateDir(source)),
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    jwtSecret: e.HERALD_JWT_SECRET,
    encryptionKey: e.HERALD_ENCRYPTION_KEY,
    jwtTtlSeconds: e.HERALD_JWT_TTL_SECONDS,
    defaultPlan: e.HERALD_DEFAULT_PLAN,
    plansFile: e.HERALD_PLANS_FILE,
    signup: e.HERALD_SIGNUP,
    rateLimit: { max: e.HERALD_RATE_LIMIT_MAX, authMax: e.HERALD_AUTH_RATE_LIMIT_MAX, windowSeconds: e.HERALD_RATE_LIMIT_WINDOW_SECONDS, redisPrefix: e.HERALD_RATE_LIMIT_REDIS_PREFIX },
    loginThrottle: { freeAttempts: e.HERALD_LOGIN_FREE_ATTEMPTS, maxBackoffSeconds: e.HERALD_LOGIN_BACKOFF_MAX_SECONDS },
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
    engagement: {
      postsFreshSeconds: e.HERALD_POSTS_FRESH_SECONDS,
      commentsFreshSeconds: e.HERALD_COMMENTS_FRESH_SECONDS,
      syncIntervalSeconds: e.HERALD_COMMENT_SYNC_INTERVAL_SECONDS,
      syncPosts: e.HERALD_COMMENT_SYNC_POSTS,
      concurrency: e.HERALD_ENGAGEMENT_CONCURRENCY,
    },
    platformTimeoutSeconds: e.HERALD_PLATFORM_TIMEOUT_SECONDS,
    publishWaitSeconds: e.HERALD_PUBLISH_WAIT_SECONDS,
    followUpSeconds: e.HERALD_FOLLOW_UP_SECONDS,
    publishPollMs: e.HERALD_PUBLISH_POLL_MS,
    // Renewed every third while the request runs, so it only bounds how long a retry waits after a crash;
    // still well above the longest request (each network's wait runs in parallel), in case renewals stall.
    idempotencyLeaseSeconds: e.HERALD_IDEMPOTENCY_LEASE_SECONDS ?? Math.max(300, Math.ceil(2 * e.HERALD_PUBLISH_WAIT_SECONDS)),
    scheduling: {
      graceSeconds: e.HERALD_SCHEDULE_GRACE_SECONDS,
      pollMs: e.HERALD_SCHEDULER_POLL_MS,
      batchSize: e.HERALD_SCHEDULER_BATCH,
      concurrency: e.HERALD_SCHEDULER_CONCURRENCY,
      maxAttempts: e.HERALD_SCHEDULER_MAX_ATTEMPTS,
      stallSeconds: e.HERALD_SCHEDULER_STALL_SECONDS,
      inProcessWorker: e.HERALD_WORKER_IN_PROCESS,
      queue: e.HERALD_SCHEDULER_QUEUE,
      // The worker renews its claims every third of the lease while it publishes; the lease only bounds
      // how long a dead worker's posts wait before another worker resumes them.
      leaseSeconds: e.HERALD_SCHEDULER_LEASE_SECONDS ?? 60,
    },
    platforms: platformParsed.configs,
    media: mediaConfig(e, publicUrl),
    ai: toAiConfig(e),
    agent: toAgentConfig(e),
    oauth: {
      clients: oauthClients(e.HERALD_OAUTH_CLIENTS),
      registration: e.HERALD_OAUTH_REGISTRATION,
      accessTokenTtlSeconds: e.HERALD_OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: e.HERALD_OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      registrationsPerAddressPerHour: e.HERALD_OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR,
      pendingClientsMax: e.HERALD_OAUTH_PENDING_CLIENTS_MAX,
    },
  };
}
