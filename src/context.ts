// The one composition root: config in, every service out. Tests pass `overrides` to swap pieces.
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { createLogger } from './logger.ts';
import { resolveSecrets, type Secrets } from './secrets.ts';
import { PlanCatalog } from './auth/plans.ts';
import { CreditService } from './auth/credits.ts';
import { JwtService } from './auth/jwt.ts';
import { ApiKeyService } from './auth/api-keys.ts';
import { AccountService } from './auth/accounts.ts';
import { WorkspaceService } from './auth/workspaces.ts';
import { Authenticator } from './auth/authenticate.ts';
import { SessionService } from './auth/sessions.ts';
import { InvitationService } from './auth/invitations.ts';
import { PasswordResetService } from './auth/password-reset.ts';
import { WorkspaceDeletion } from './auth/workspace-deletion.ts';
import { StorageQuota } from './media/quota.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { UsageService } from './auth/usage.ts';
import { SecretBox } from './crypto.ts';
import { createLocks, type Locks } from './db/locks.ts';
import { Mailer } from './mail.ts';
import { PlatformHttp } from './platforms/http.ts';
import { OutboundPolicy, type HostLookup } from './net/outbound-policy.ts';
import { NETWORKS, PlatformRegistry, type NetworkConfig } from './platforms/registry.ts';
import type { NetworkContract } from './platforms/contract.ts';
import type { AdapterFactory } from './platforms/types.ts';
import { ConnectionStore } from './connections/store.ts';
import { TokenKeeper, type TokenKeeperOptions } from './connections/tokens.ts';
import { ConnectionService } from './connections/service.ts';
import { ProfileService } from './connections/profiles.ts';
import type { SandboxSimulator } from './sandbox/core/simulator.ts';
import { createMediaStorage } from './media/storage/index.ts';
import { DraftService } from './publishing/drafts.ts';
import { PublishingService } from './publishing/service.ts';
import { PostValidator } from './publishing/validate.ts';
import { MediaService, type MediaServiceDeps } from './media/service.ts';
import { UploadSessions } from './media/uploads.ts';
import { SchedulingService } from './scheduling/service.ts';
import { ScheduleWorker } from './scheduling/worker.ts';
import { ScheduleQueue } from './scheduling/queue.ts';
import { COMMENT_SYNC_QUEUE, CommentSync, EngagementService, EngagementStore } from './engagement/index.ts';
import { FollowUps } from './publishing/follow-ups.ts';
import { ScheduleEntries } from './scheduling/entries.ts';
import { ScheduledStore } from './scheduling/store.ts';
import type { BuiltinProvider } from './ai/builtin/index.ts';
import { createModels, type AiModels } from './ai/models.ts';
import { AiService } from './ai/service.ts';
import { SpeechToText } from './ai/transcription.ts';
import { OAuthService } from './oauth/service.ts';
import { AgentChatHistory } from './agent/history.ts';
import { AgentChat } from './agent/chat.ts';

import type { Clock } from './clock.ts';
export type { Clock } from './clock.ts';
// The logger has its own module; these re-exports keep older imports working.
export { createLogger, REDACT_PATHS, scrubUrl } from './logger.ts';

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
  sessions: SessionService;
  invitations: InvitationService;
  passwordReset: PasswordResetService;
  workspaceDeletion: WorkspaceDeletion;
  /** Per-account throttle of password guessing (sign-in, password reset, OAuth sign-in). */
  loginThrottle: LoginThrottle;
  /** Shared counters (rate limits, sign-in throttle) when REDIS_URL is set. */
  redis: Redis | undefined;
  usage: UsageService;
  box: SecretBox;
  locks: Locks;
  mailer: Mailer;
  platforms: PlatformRegistry;
  /** The simulators mounted in sandbox mode (none otherwise). */
  simulators: readonly SandboxSimulator[];
  connectionStore: ConnectionStore;
  tokens: TokenKeeper;
  connections: ConnectionService;
  profiles: ProfileService;
  drafts: DraftService;
  publishing: PublishingService;
  media: MediaService;
  uploads: UploadSessions;
  scheduling: SchedulingService;
  /** The AI generators (docs/ai.md): the configured model, or the built-in provider. */
  ai: AiService;
  /** Speech to text for the agent's voice messages (docs/agent.md#transcription); 503 without a transcription model. */
  speech: SpeechToText;
  /** The workspace agent's archived chat turns and memory (docs/agent.md); clear_workspace_chat_history clears it. */
  agentChats: AgentChatHistory;
  /** The workspace agent's chat turns (docs/agent.md). */
  agent: AgentChat;
  /** The OAuth authorization server for chat connectors (docs/mcp.md): access-token checks and grant revocation. */
  oauth: OAuthService;
  /** The scheduling worker; started by `herald serve` (unless HERALD_WORKER_IN_PROCESS=0) and `herald worker`. */
  scheduleWorker: ScheduleWorker;
  /** The posts read model, comments inbox and analytics (docs/engagement.md). */
  engagement: EngagementService;
  /** The background comment sync; started where the scheduling worker runs. */
  commentSync: CommentSync;
  /** Posts published under a provisional id, asked about again until their final id comes; started with the worker. */
  followUps: FollowUps;
  /** pg-boss wake-ups for scheduled posts; started by `herald serve` / `herald worker` (never by tests' contexts). */
  scheduleQueue: ScheduleQueue | undefined;
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
  /** Start-up steps as they happen (`herald serve` logs them: main.ts). */
  progress?: (step: string) => void;
  plans?: PlanCatalog;
  /** Swap an adapter (tests of failure paths). */
  adapters?: Partial<Record<string, AdapterFactory>>;
  /** The networks (default: the built-in ones), e.g. with one a test defines. */
  networks?: readonly NetworkContract[];
  /** The simulators mounted in sandbox mode (default: the built-in ones). */
  simulators?: readonly SandboxSimulator[];
  tokenKeeper?: TokenKeeperOptions;
  /** Media storage backend, or a resolver/CA for URL imports (tests). */
  media?: Partial<Pick<MediaServiceDeps, 'storage' | 'fetch'>>;
  /** A resolver for the networks' HTTP client (tests of the address policy). */
  platformLookup?: HostLookup;
  /** The AI models (tests: the AI SDK's mock models); null for the built-in provider. Default: from HERALD_AI_*. */
  aiModels?: AiModels | null;
}

/** In sandbox mode every network points at its simulator, with the app credentials it accepts. */
function platformConfigs(config: Config, simulators: readonly SandboxSimulator[]): Record<string, NetworkConfig> {
  if (!config.sandbox) return config.platforms;
  const root = `${config.publicUrl.replace(/\/+$/, '')}/sandbox`;
  return Object.fromEntries(
    simulators.map((s) => {
      const scopes = config.platforms[s.slug]?.scopes;
      // The sandbox app's declarations (an audited TikTok app), unless the operator declares otherwise.
      const settings = { ...s.app?.settings, ...config.platforms[s.slug]?.settings };
      return [s.slug, { clientId: s.app?.clientId, clientSecret: s.app?.clientSecret, urls: s.baseUrls(`${root}/${s.slug}`), ...(scopes ? { scopes } : {}), ...(Object.keys(settings).length ? { settings } : {}) }];
    }),
  );
}

/**
 * The networks' client trusts exactly what the operator configured: each network's base URLs (the simulators' in
 * sandbox mode, e.g. a local PDS and PLC for Bluesky) by origin, and HERALD_FETCH_ALLOW_HOSTS by name. Everything
 * else (a PDS named by a DID document, a did:web host, where a redirect points) must be a public https address.
 */
function platformPolicy(configs: Record<string, NetworkConfig>, config: Config, lookup?: HostLookup): OutboundPolicy {
  const origins = Object.values(configs).flatMap((c) => Object.values(c.urls));
  return new OutboundPolicy({ trustedOrigins: origins, trustedHosts: config.fetchAllowHosts, ...(lookup ? { lookup } : {}) });
}

/** Applies the migrations a database lacks, saying how many when asked to. */
async function migrate(database: Database, say: ((step: string) => void) | undefined): Promise<void> {
  const before = say ? (await database.migrationStatus()).applied : 0;
  await database.migrate();
  if (!say) return;
  const { applied } = await database.migrationStatus();
  say(applied > before ? `database migrations applied: ${applied - before} (schema version ${applied})` : `database schema up to date (version ${applied})`);
}

export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? (() => new Date());
  const secrets = resolveSecrets(config);
  const say = overrides.progress;
  const onCreate = say && (() => say(`creating the embedded database in ${config.dataDir} (first start only)…`));
  const database =
    overrides.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, templateDir: config.pgliteTemplateDir, memory: overrides.memoryDb ?? false, ...(onCreate ? { onCreate } : {}) }));
  await migrate(database, say);
  const plans = overrides.plans ?? PlanCatalog.load(config.plansFile);
  if (!plans.has(config.defaultPlan)) {
    throw new Error(`HERALD_DEFAULT_PLAN '${config.defaultPlan}' is not a known plan (${plans.list().map((p) => p.plan_id).join(', ')})`);
  }
  const db = database.db;
  const credits = new CreditService(db, plans, clock);
  const jwt = new JwtService(secrets.jwtSecret, config.jwtTtlSeconds, clock);
  const networks = overrides.networks ?? NETWORKS;
  const slugs = networks.map((n) => n.slug);
  // The simulators load only in sandbox mode.
  const simulators = config.sandbox ? (overrides.simulators ?? (await import('./sandbox/simulators.ts')).SIMULATORS) : [];
  const apiKeys = new ApiKeyService(db, config.apiKeyCacheSeconds, clock, slugs);
  const box = new SecretBox(secrets.encryptionKey);
  const connectionStore = new ConnectionStore(db, box, clock);
  const workspaces = new WorkspaceService(db, plans, config.defaultPlan, (ids) => connectionStore.connectedByWorkspace(ids));
  const mailer = new Mailer({ db, logger, from: config.mailFrom, smtpUrl: config.smtpUrl, now: clock });
  const sessions = new SessionService(db, jwt, { cacheMs: config.apiKeyCacheSeconds * 1000, now: clock });
  const invitations = new InvitationService({ db, workspaces, mailer, clock, logger, publicUrl: config.publicUrl, ttlSeconds: config.invitationTtlSeconds });
  const accounts = new AccountService({ db, workspaces, invitations, sessions, signup: config.signup });
  const passwordReset = new PasswordResetService({ db, accounts, sessions, mailer, clock, logger, publicUrl: config.publicUrl, ttlSeconds: config.passwordResetTtlSeconds });
  const auth = new Authenticator(apiKeys, sessions, workspaces, plans, { seconds: config.apiKeyCacheSeconds, now: clock }, slugs);
  const oauth = new OAuthService({ db, config, jwtSecret: secrets.jwtSecret, clock, logger: logger.child({ component: 'oauth' }) });
  auth.useOAuth(oauth, (id) => accounts.byId(id));
  const quota = new StorageQuota(db, plans, clock);
  workspaces.planChanging.push((tx, id) => credits.resync(id, tx));
  const usage = new UsageService(plans, credits, workspaces, quota, clock);
  // ioredis is loaded only when configured; it connects on first use (CLI commands never touch it).
  const redis = config.redisUrl ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true }) : undefined;
  const loginThrottle = new LoginThrottle({
    ...config.loginThrottle,
    now: clock,
    redis,
    redisPrefix: `${config.rateLimit.redisPrefix}throttle:`,
  });
  const locks = createLocks(database);
  const configs = platformConfigs(config, simulators);
  const http = new PlatformHttp({
    logger: logger.child({ component: 'platform-http' }),
    timeoutMs: config.platformTimeoutSeconds * 1000,
    policy: platformPolicy(configs, config, overrides.platformLookup),
  });
  const platforms = new PlatformRegistry({ http, configs, clock, logger, networks, ...(overrides.adapters ? { factories: overrides.adapters } : {}) });
  const tokens = new TokenKeeper(connectionStore, platforms, locks, clock, logger, overrides.tokenKeeper);
  const connections = new ConnectionService({
    db,
    box,
    store: connectionStore,
    tokens,
    registry: platforms,
    plans,
    mailer,
    clock,
    logger,
    publicUrl: config.publicUrl,
    stateTtlSeconds: config.oauthStateTtlSeconds,
  });
  const profiles = new ProfileService(connectionStore, tokens, platforms, clock, config.profileCacheSeconds, logger);
  const media = new MediaService({
    db,
    config: config.media,
    dataDir: config.dataDir,
    fetchAllowHosts: config.fetchAllowHosts,
    connections: connectionStore,
    logger: logger.child({ component: 'media' }),
    quota,
    ...overrides.media,
    storage: overrides.media?.storage ?? (await createMediaStorage(config.media.storage)),
  });
  const uploads = new UploadSessions({ db, media, dataDir: config.dataDir, ttlSeconds: config.media.uploadSessionTtlSeconds, clock, logger });
  const workspaceDeletion = new WorkspaceDeletion({ db, storage: media.storage, uploadsDir: uploads.dir, connections: connectionStore, registry: platforms, logger });
  // Leftovers of a previous run: temp files of uploads cut off by a crash (a day old is past any
  // upload still running) and the chunks of sessions that expired meanwhile.
  media.temp.sweep(24 * 3600 * 1000).catch(() => {});
  uploads.sweep().catch((err: unknown) => logger.warn({ err }, 'upload session sweep failed'));
  workspaceDeletion.sweep().catch((err: unknown) => logger.warn({ err }, 'sweep of deleted workspaces\' files failed'));
  const validator = new PostValidator({ registry: platforms, plans, media });
  const drafts = new DraftService(db, clock, validator, platforms);
  const sc = config.scheduling;
  const scheduleQueue =
    sc.queue === 'pgboss'
      ? new ScheduleQueue(database, config.databaseUrl, logger.child({ component: 'queue' }), { batchSize: sc.batchSize, pollingIntervalSeconds: Math.max(sc.pollMs / 1000, 0.5), expireInSeconds: sc.leaseSeconds, queues: [COMMENT_SYNC_QUEUE] })
      : undefined;
  const scheduledStore = new ScheduledStore(db, clock);
  const publishing = new PublishingService({
    db,
    registry: platforms,
    connections: connectionStore,
    tokens,
    credits,
    plans,
    media,
    drafts,
    validator,
    schedule: new ScheduleEntries(scheduledStore, scheduleQueue),
    clock,
    logger: logger.child({ component: 'publishing' }),
    targetTimeoutMs: config.publishWaitSeconds * 1000,
    pollIntervalMs: config.publishPollMs,
    idempotencyLeaseMs: config.idempotencyLeaseSeconds * 1000,
  });
  workspaces.planChanged.push(() => apiKeys.invalidate(), () => auth.invalidate());
  workspaces.memberRemoved.push((workspaceId, userId) => oauth.revokeMemberGrants(workspaceId, userId));
  const scheduleWorker = new ScheduleWorker(
    {
      db,
      store: scheduledStore,
      ledger: publishing.ledger,
      runner: publishing.runner,
      validate: (owner, postType, body) => publishing.validate(owner, postType, body),
      planOf: async (id) => (await workspaces.byId(id))?.planId,
      plansOf: (ids) => workspaces.plansOf(ids),
      connections: connectionStore,
      credits,
      displayName: (p) => platforms.get(p).displayName,
      clock,
      logger: logger.child({ component: 'scheduler' }),
      queue: scheduleQueue,
    },
    { pollMs: sc.pollMs, batchSize: sc.batchSize, concurrency: sc.concurrency, leaseMs: sc.leaseSeconds * 1000, graceSeconds: sc.graceSeconds, maxAttempts: sc.maxAttempts },
  );
  const scheduling = new SchedulingService({ db, store: scheduledStore, registry: platforms, publishing, drafts, credits, workspaces, clock, queue: scheduleQueue, publishNow: (row) => scheduleWorker.execute(row) });
  const engagement = new EngagementService({
    store: new EngagementStore(db),
    registry: platforms,
    connections: connectionStore,
    tokens,
    clock,
    logger: logger.child({ component: 'engagement' }),
    config: config.engagement,
  });
  const commentSync = new CommentSync({ db, engagement: engagement.sync, plans, locks, queue: scheduleQueue, clock, logger: logger.child({ component: 'comment-sync' }), intervalSeconds: config.engagement.syncIntervalSeconds });
  const followUps = new FollowUps({ ledger: publishing.ledger, runner: publishing.runner, locks, clock, logger: logger.child({ component: 'follow-ups' }), intervalSeconds: config.followUpSeconds });
  let builtinMade: Promise<BuiltinProvider> | undefined;
  const builtin = () =>
    (builtinMade ??= import('./ai/builtin/index.ts').then((m) => new m.BuiltinProvider({ networks: platforms.networks, ocr: { binary: config.ai.tesseractPath }, ffprobePath: config.media.ffprobePath, ffmpegPath: config.ai.ffmpegPath })));
  const aiModels = overrides.aiModels !== undefined ? overrides.aiModels : await createModels(config.ai);
  const ai = new AiService({
    networks: platforms.networks,
    builtin,
    models: aiModels,
    credits,
    media: { addGenerated: (p, bytes, name, kind, loc) => media.addGenerated(p, bytes, name, kind, loc), readUrl: (p, url, kind, loc) => media.readUrl(p, url, kind, loc), release: (path) => media.release(path), publicUrl: (key) => media.storage.publicUrl(key) },
    config: config.ai,
    logger: logger.child({ component: 'ai' }),
  });
  const speech = new SpeechToText({ model: aiModels?.transcription ?? null, config: config.ai, logger: logger.child({ component: 'speech' }) });
  const agentChats = new AgentChatHistory(db, clock);
  // The agent runs tools over the whole context: it gets the context once it exists.
  const agent = new AgentChat({
    app: () => app,
    models: aiModels,
    history: agentChats,
    credits,
    media,
    config: config.agent,
    modelTimeoutMs: config.ai.timeoutMs,
    clock,
    logger: logger.child({ component: 'agent' }),
  });
  const app: AppContext = {
    config,
    logger,
    clock,
    agentChats,
    agent,
    database,
    secrets,
    plans,
    credits,
    jwt,
    apiKeys,
    accounts,
    workspaces,
    auth,
    sessions,
    invitations,
    passwordReset,
    workspaceDeletion,
    loginThrottle,
    redis,
    usage,
    box,
    locks,
    mailer,
    platforms,
    simulators,
    connectionStore,
    tokens,
    connections,
    profiles,
    drafts,
    publishing,
    media,
    uploads,
    scheduling,
    ai,
    speech,
    oauth,
    scheduleWorker,
    scheduleQueue,
    engagement,
    commentSync,
    followUps,
    readiness: [
      // A network's app credentials refused on refresh (invalid_client) is the operator's to fix. Herald still serves
      // every other network, so the check stays ok and says which network needs its configuration looked at.
      async () => {
        const problems = tokens.configProblems();
        if (!problems.length) return { name: 'network-apps', ok: true };
        return { name: 'network-apps', ok: true, detail: problems.map((p) => `${p.platform}: app credentials refused at ${p.at.toISOString()} (${p.message})`).join('; ') };
      },
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
      await commentSync.stop();
      await followUps.stop();
      await scheduleWorker.stop();
      await passwordReset.settled();
      await database.close();
      await http.close();
      // A client that never connected has nothing to flush: quit() would connect just to say goodbye.
      if (redis?.status === 'wait') redis.disconnect();
      else await redis?.quit().catch(() => {});
    },
  };
  return app;
}
