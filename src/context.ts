// The one composition root: config in, every service out. Tests pass `overrides` to swap pieces.
import type { EventStore } from './events/index.ts';
import type { PostStory, Reconciler } from './scheduling/index.ts';
import { Notifier } from './notifications.ts';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { createLogger } from './logger.ts';
import { resolveSecrets, type Secrets } from './secrets.ts';
import { PlanCatalog } from './auth/plans.ts';
import type { CreditService } from './auth/credits.ts';
import type { JwtService } from './auth/jwt.ts';
import type { ApiKeyService } from './auth/api-keys.ts';
import type { AccountService } from './auth/accounts.ts';
import type { WorkspaceService } from './auth/workspaces.ts';
import type { Authenticator } from './auth/authenticate.ts';
import type { SessionService } from './auth/sessions.ts';
import type { InvitationService } from './auth/invitations.ts';
import type { PasswordResetService } from './auth/password-reset.ts';
import type { WorkspaceDeletion } from './auth/workspace-deletion.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import type { UsageService } from './auth/usage.ts';
import { SecretBox } from './crypto.ts';
import { createLocks, type Locks } from './db/locks.ts';
import { Mailer } from './mail.ts';
import type { HostLookup } from './net/outbound-policy.ts';
import { NETWORKS, type PlatformRegistry } from './platforms/registry.ts';
import type { NetworkContract } from './platforms/contract.ts';
import type { AdapterFactory } from './platforms/types.ts';
import { ConnectionStore } from './connections/store.ts';
import type { TokenKeeper, TokenKeeperOptions } from './connections/tokens.ts';
import type { ConnectionService } from './connections/service.ts';
import type { ProfileService } from './connections/profiles.ts';
import type { SandboxSimulator } from './sandbox/core/simulator.ts';
import type { DraftService, FollowUps, PublishingService } from './publishing/index.ts';
import type { MediaService, MediaServiceDeps } from './media/service.ts';
import type { UploadSessions } from './media/uploads.ts';
import type { ScheduleQueue, ScheduleWorker, SchedulingService } from './scheduling/index.ts';
import type { CommentSync, EngagementService } from './engagement/index.ts';
import type { AiModels } from './ai/models.ts';
import type { AiService } from './ai/service.ts';
import type { SpeechToText } from './ai/transcription.ts';
import type { OAuthService } from './oauth/service.ts';
import type { AgentChatHistory } from './agent/history.ts';
import type { AgentChat } from './agent/chat.ts';
import type { WebhookService, WebhookWorker } from './events/webhooks/index.ts';
import {
  aiServices,
  authServices,
  engagementServices,
  mediaServices,
  networkServices,
  publishingServices,
  readinessChecks,
  webhookServices,
} from './services.ts';

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
  /** Webhook endpoints, their deliveries and the delivery log (docs/webhooks.md). */
  webhooks: WebhookService;
  /** Sends webhook deliveries from the events outbox; started where the scheduling worker runs. */
  webhookWorker: WebhookWorker;
  /** Checks behind /readyz; later modules (the job worker) add theirs. */
  readiness: ReadinessCheck[];
  /** The events outbox (docs/events.md): GET /events, the webhook dispatcher, the notifications. */
  events: EventStore;
  /** A post's timeline and its retry (GET /unified/posts/{id}/timeline, POST …/retry). */
  postStory: PostStory;
  /** Finds stuck posts and resumes or fails them; started with the scheduling worker. */
  reconciler: Reconciler;
  /** Members' mail notifications: preferences, digests, unsubscribe links; started with the scheduling worker. */
  notifier: Notifier;
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
  /** A resolver for the networks' HTTP client and webhook deliveries (tests of the address policy). */
  platformLookup?: HostLookup;
  /** The AI models (tests: the AI SDK's mock models); null for the built-in provider. Default: from HERALD_AI_*. */
  aiModels?: AiModels | null;
}

/** Applies the migrations a database lacks, saying how many when asked to. */
async function migrate(database: Database, say: ((step: string) => void) | undefined): Promise<void> {
  const before = say ? (await database.migrationStatus()).applied : 0;
  await database.migrate();
  if (!say) return;
  const { applied } = await database.migrationStatus();
  say(
    applied > before
      ? `database migrations applied: ${applied - before} (schema version ${applied})`
      : `database schema up to date (version ${applied})`,
  );
}

export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? (() => new Date());
  const secrets = resolveSecrets(config);
  const say = overrides.progress;
  const onCreate = say && (() => say(`creating the embedded database in ${config.dataDir} (first start only)…`));
  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      templateDir: config.pgliteTemplateDir,
      memory: overrides.memoryDb ?? false,
      ...(onCreate ? { onCreate } : {}),
    }));
  await migrate(database, say);
  const plans = overrides.plans ?? PlanCatalog.load(config.plansFile);
  if (!plans.has(config.defaultPlan)) {
    throw new Error(
      `HERALD_DEFAULT_PLAN '${config.defaultPlan}' is not a known plan (${plans
        .list()
        .map((p) => p.plan_id)
        .join(', ')})`,
    );
  }
  const networks = overrides.networks ?? NETWORKS;
  // The simulators load only in sandbox mode.
  const simulators = config.sandbox
    ? (overrides.simulators ?? (await import('./sandbox/simulators.ts')).SIMULATORS)
    : [];
  const base = { config, overrides, logger, clock, database, db: database.db, plans };
  // ioredis is loaded only when configured; it connects on first use (CLI commands never touch it).
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true })
    : undefined;
  const box = new SecretBox(secrets.encryptionKey);
  const connectionStore = new ConnectionStore(base.db, box, clock);
  const mailer = new Mailer({ db: base.db, logger, from: config.mailFrom, smtpUrl: config.smtpUrl, now: clock });
  const locks = createLocks(database);
  const auth = authServices(base, { secrets, slugs: networks.map((n) => n.slug), connectionStore, mailer, redis });
  const net = networkServices(base, { networks, simulators, connectionStore, box, locks, mailer });
  const files = await mediaServices(base, { connectionStore, quota: auth.quota, platforms: net.platforms });
  const posting = publishingServices(base, { ...net, ...auth, ...files, connectionStore, locks });
  const engagement = engagementServices(base, {
    ...net,
    connectionStore,
    locks,
    scheduleQueue: posting.scheduleQueue,
    media: files.media,
  });
  const hooks = webhookServices(base, { box, mailer, scheduleQueue: posting.scheduleQueue });
  const assistants = await aiServices(base, {
    ...files,
    credits: auth.credits,
    platforms: net.platforms,
    app: () => app,
  });
  const app: AppContext = {
    config,
    logger,
    clock,
    database,
    secrets,
    plans,
    redis,
    box,
    locks,
    mailer,
    simulators,
    connectionStore,
    ...auth,
    ...net,
    ...files,
    ...posting,
    ...engagement,
    ...assistants,
    ...hooks,
    readiness: readinessChecks(database, net.tokens),
    notifier: new Notifier({
      db: database.db,
      mailer,
      clock,
      logger: logger.child({ component: 'notifications' }),
      publicUrl: config.publicUrl,
      signingKey: secrets.encryptionKey,
      digestMinutes: config.scheduling.digestMinutes,
    }),
    async close() {
      await hooks.webhookWorker.stop();
      await engagement.commentSync.stop();
      await posting.followUps.stop();
      app.notifier.stop();
      await posting.reconciler.stop();
      await posting.scheduleWorker.stop();
      await auth.passwordReset.settled();
      await database.close();
      await net.http.close();
      // A client that never connected has nothing to flush: quit() would connect just to say goodbye.
      if (redis?.status === 'wait') redis.disconnect();
      else await redis?.quit().catch(() => {});
    },
  };
  return app;
}
