// The composition root's areas, each a list of services in dependency order. createContext (context.ts) builds
// them in turn; every collaborator is given at construction, nothing is wired afterwards.
import type { Platform } from './platforms/slugs.ts';
import { appPageUrl } from './config/web.ts';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import type { Database, Db } from './db/client.ts';
import type { Locks } from './db/locks.ts';
import type { Secrets } from './secrets.ts';
import type { SecretBox } from './crypto.ts';
import type { Mailer } from './mail.ts';
import type { ContextOverrides, ReadinessCheck } from './app-context.ts';
import type { PlanCatalog } from './auth/plans.ts';
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
import { LoginThrottle } from './auth/login-throttle.ts';
import { UsageService } from './auth/usage.ts';
import { StorageQuota } from './media/quota.ts';
import { PlatformHttp } from './platforms/http.ts';
import { OutboundPolicy, type HostLookup } from './net/outbound-policy.ts';
import { PlatformRegistry, type NetworkConfig } from './platforms/registry.ts';
import type { NetworkContract } from './platforms/contract.ts';
import type { ConnectionStore } from './connections/store.ts';
import { TokenKeeper } from './connections/tokens.ts';
import { ConnectionService } from './connections/service.ts';
import { ProfileService } from './connections/profiles.ts';
import type { SandboxSimulator } from './sandbox/core/simulator.ts';
import { createMediaStorage } from './media/storage/index.ts';
import { MediaService } from './media/service.ts';
import { UploadSessions } from './media/uploads.ts';
import { DraftService, FollowUps, PostValidator, PublishingService } from './publishing/index.ts';
import {
  ScheduledStore,
  ScheduleEntries,
  ScheduleQueue,
  ScheduleWorker,
  SchedulingService,
  PostStory,
  Reconciler,
} from './scheduling/index.ts';
import { EventStore } from './events/index.ts';
import { COMMENT_SYNC_QUEUE, CommentSync, EngagementService, EngagementStore } from './engagement/index.ts';
import type { BuiltinProvider } from './ai/builtin/index.ts';
import { createModels, type AiModels } from './ai/models.ts';
import { toolBox } from './tools/index.ts';
import type { ToolServices } from './tools/services.ts';
import { AiService } from './ai/service.ts';
import { SpeechToText } from './ai/transcription.ts';
import { OAuthService } from './oauth/service.ts';
import { AgentChatHistory } from './agent/history.ts';
import { AgentChat } from './agent/chat.ts';
import { EVENT_TYPES, recordEvent, toWire } from './events/index.ts';
import {
  DeliveryStore,
  type EventFeed,
  WEBHOOK_QUEUE,
  WebhookEndpoints,
  WebhookSender,
  WebhookService,
  WebhookWorker,
} from './events/webhooks/index.ts';

/** What every area is built from. */
export interface Base {
  config: Config;
  overrides: ContextOverrides;
  logger: Logger;
  clock: Clock;
  database: Database;
  db: Db;
  plans: PlanCatalog;
}

/** Accounts, workspaces, credentials and credits. */
export function authServices(
  b: Base,
  d: {
    secrets: Secrets;
    slugs: Platform[];
    connectionStore: ConnectionStore;
    mailer: Mailer;
    redis: Redis | undefined;
  },
) {
  const { config, db, plans, clock, logger } = b;
  // Cached usage reports drop a workspace's copy when its balance or its plan changes.
  const credits = new CreditService(db, plans, clock, (ws) => usage.forget(ws));
  const jwt = new JwtService(d.secrets.jwtSecret, config.jwtTtlSeconds, clock);
  const apiKeys = new ApiKeyService(db, config.apiKeyCacheSeconds, clock, d.slugs);
  const workspaces = new WorkspaceService(
    db,
    plans,
    config.defaultPlan,
    (ids) => d.connectionStore.connectedByWorkspace(ids),
    d.slugs,
    {
      planChanging: (tx, id) => credits.resync(id, tx),
      planChanged: (id) => {
        usage.forget(id);
        apiKeys.invalidate();
        auth.invalidate();
      },
      // What a removed member had through the workspace ends with it: chat connectors' grants.
      memberRemoved: (workspaceId, userId) => oauth.revokeMemberGrants(workspaceId, userId),
    },
  );
  const sessions = new SessionService(db, jwt, { cacheMs: config.apiKeyCacheSeconds * 1000, now: clock });
  const invitations = new InvitationService({
    db,
    workspaces,
    mailer: d.mailer,
    clock,
    logger,
    publicUrl: config.publicUrl,
    pageUrl: (page, token) => appPageUrl(config, page, token),
    ttlSeconds: config.invitationTtlSeconds,
  });
  const accounts = new AccountService({ db, workspaces, invitations, sessions, signup: config.signup });
  const passwordReset = new PasswordResetService({
    db,
    accounts,
    sessions,
    mailer: d.mailer,
    clock,
    logger,
    publicUrl: config.publicUrl,
    pageUrl: (page, token) => appPageUrl(config, page, token),
    ttlSeconds: config.passwordResetTtlSeconds,
  });
  const oauth = new OAuthService({
    db,
    config,
    jwtSecret: d.secrets.jwtSecret,
    clock,
    logger: logger.child({ component: 'oauth' }),
  });
  const auth = new Authenticator(
    apiKeys,
    sessions,
    workspaces,
    plans,
    { seconds: config.apiKeyCacheSeconds, now: clock },
    d.slugs,
    { verifier: oauth, user: (id) => accounts.byId(id) },
  );
  const quota = new StorageQuota(db, plans, clock);
  const usage = new UsageService(plans, credits, workspaces, quota, clock);
  const loginThrottle = new LoginThrottle({
    ...config.loginThrottle,
    now: clock,
    redis: d.redis,
    redisPrefix: `${config.rateLimit.redisPrefix}throttle:`,
  });
  return {
    credits,
    jwt,
    apiKeys,
    workspaces,
    sessions,
    invitations,
    accounts,
    passwordReset,
    oauth,
    auth,
    quota,
    usage,
    loginThrottle,
  };
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
      return [
        s.slug,
        {
          clientId: s.app?.clientId,
          clientSecret: s.app?.clientSecret,
          urls: s.baseUrls(`${root}/${s.slug}`),
          ...(scopes ? { scopes } : {}),
          ...(Object.keys(settings).length ? { settings } : {}),
        },
      ];
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
  return new OutboundPolicy({
    trustedOrigins: origins,
    trustedHosts: config.fetchAllowHosts,
    ...(lookup ? { lookup } : {}),
  });
}

/** The networks: their HTTP client, the registry, tokens, connections and profiles. */
export function networkServices(
  b: Base,
  d: {
    networks: readonly NetworkContract[];
    simulators: readonly SandboxSimulator[];
    connectionStore: ConnectionStore;
    box: SecretBox;
    locks: Locks;
    mailer: Mailer;
  },
) {
  const { config, overrides, db, plans, clock, logger } = b;
  const configs = platformConfigs(config, d.simulators);
  const http = new PlatformHttp({
    logger: logger.child({ component: 'platform-http' }),
    timeoutMs: config.platformTimeoutSeconds * 1000,
    policy: platformPolicy(configs, config, overrides.platformLookup),
  });
  const platforms = new PlatformRegistry({
    http,
    configs,
    clock,
    logger,
    networks: d.networks,
    ...(overrides.adapters ? { factories: overrides.adapters } : {}),
  });
  const tokens = new TokenKeeper(d.connectionStore, platforms, d.locks, clock, logger, overrides.tokenKeeper);
  const connections = new ConnectionService({
    db,
    box: d.box,
    store: d.connectionStore,
    tokens,
    registry: platforms,
    plans,
    mailer: d.mailer,
    clock,
    logger,
    publicUrl: config.publicUrl,
    stateTtlSeconds: config.oauthStateTtlSeconds,
  });
  const profiles = new ProfileService(d.connectionStore, tokens, platforms, clock, config.profileCacheSeconds, logger);
  return { http, platforms, tokens, connections, profiles };
}

/** The media library, chunked uploads, and the files of deleted workspaces (their sweeps start in sweeps.ts). */
export async function mediaServices(
  b: Base,
  d: { connectionStore: ConnectionStore; quota: StorageQuota; platforms: PlatformRegistry },
) {
  const { config, overrides, db, clock, logger } = b;
  const media = new MediaService({
    db,
    config: config.media,
    dataDir: config.dataDir,
    fetchAllowHosts: config.fetchAllowHosts,
    connections: d.connectionStore,
    logger: logger.child({ component: 'media' }),
    quota: d.quota,
    networks: d.platforms,
    ...overrides.media,
    storage: overrides.media?.storage ?? (await createMediaStorage(config.media.storage)),
  });
  const uploads = new UploadSessions({
    db,
    media,
    dataDir: config.dataDir,
    ttlSeconds: config.media.uploadSessionTtlSeconds,
    clock,
    logger,
  });
  const workspaceDeletion = new WorkspaceDeletion({
    db,
    storage: media.storage,
    uploadsDir: uploads.dir,
    connections: d.connectionStore,
    registry: d.platforms,
    logger,
  });
  return { media, uploads, workspaceDeletion };
}

/** Drafts, publishing, the scheduling queue and its worker, follow-ups of provisional posts. */
export function publishingServices(
  b: Base,
  d: {
    platforms: PlatformRegistry;
    connectionStore: ConnectionStore;
    tokens: TokenKeeper;
    credits: CreditService;
    workspaces: WorkspaceService;
    media: MediaService;
    locks: Locks;
  },
) {
  const { config, database, db, plans, clock, logger } = b;
  const { platforms, credits, workspaces } = d;
  const validator = new PostValidator({ registry: platforms, plans, media: d.media });
  const drafts = new DraftService(db, clock, validator, platforms);
  const sc = config.scheduling;
  const scheduleQueue =
    sc.queue === 'pgboss'
      ? new ScheduleQueue(database, config.databaseUrl, logger.child({ component: 'queue' }), {
          batchSize: sc.batchSize,
          pollingIntervalSeconds: Math.max(sc.pollMs / 1000, 0.5),
          expireInSeconds: sc.leaseSeconds,
          queues: [COMMENT_SYNC_QUEUE, WEBHOOK_QUEUE],
        })
      : undefined;
  const scheduledStore = new ScheduledStore(db, clock);
  const publishing = new PublishingService({
    db,
    registry: platforms,
    connections: d.connectionStore,
    tokens: d.tokens,
    credits,
    plans,
    media: d.media,
    drafts,
    validator,
    schedule: new ScheduleEntries(scheduledStore, scheduleQueue),
    clock,
    logger: logger.child({ component: 'publishing' }),
    targetTimeoutMs: config.publishWaitSeconds * 1000,
    pollIntervalMs: config.publishPollMs,
    idempotencyLeaseMs: config.idempotencyLeaseSeconds * 1000,
  });
  const scheduleWorker = new ScheduleWorker(
    {
      store: scheduledStore,
      publishing,
      ledger: publishing.ledger,
      runner: publishing.runner,
      validate: (owner, postType, body) => publishing.validate(owner, postType, body),
      planOf: async (id) => (await workspaces.byId(id))?.planId,
      plansOf: (ids) => workspaces.plansOf(ids),
      connections: d.connectionStore,
      credits,
      clock,
      logger: logger.child({ component: 'scheduler' }),
      queue: scheduleQueue,
    },
    {
      pollMs: sc.pollMs,
      batchSize: sc.batchSize,
      concurrency: sc.concurrency,
      leaseMs: sc.leaseSeconds * 1000,
      graceSeconds: sc.graceSeconds,
      maxAttempts: sc.maxAttempts,
    },
  );
  const scheduling = new SchedulingService({
    db,
    store: scheduledStore,
    registry: platforms,
    publishing,
    drafts,
    credits,
    workspaces,
    clock,
    queue: scheduleQueue,
    publishNow: (row) => scheduleWorker.execute(row),
  });
  const followUps = new FollowUps({
    ledger: publishing.ledger,
    runner: publishing.runner,
    locks: d.locks,
    clock,
    logger: logger.child({ component: 'follow-ups' }),
    intervalSeconds: config.followUpSeconds,
  });
  const events = new EventStore(db);
  const postStory = new PostStory({
    publishing,
    store: scheduledStore,
    events,
    clock,
    publishNow: (workspaceId, id) => scheduling.publishNow(workspaceId, id),
  });
  const reconciler = new Reconciler(
    {
      db,
      ledger: publishing.ledger,
      runner: publishing.runner,
      credits,
      worker: scheduleWorker,
      clock,
      logger: logger.child({ component: 'reconciler' }),
    },
    {
      everyMs: sc.reconcileSeconds * 1000,
      stuckAfterMs: sc.stuckAfterSeconds * 1000,
      publishWaitMs: config.publishWaitSeconds * 1000,
      graceSeconds: sc.graceSeconds,
      maxAttempts: sc.maxAttempts,
    },
  );
  return { drafts, publishing, scheduleQueue, scheduleWorker, scheduling, followUps, events, postStory, reconciler };
}

/** The posts read model, comments inbox and analytics, and the background comment sync. */
export function engagementServices(
  b: Base,
  d: {
    platforms: PlatformRegistry;
    connectionStore: ConnectionStore;
    tokens: TokenKeeper;
    locks: Locks;
    scheduleQueue: ScheduleQueue | undefined;
    media: MediaService;
  },
) {
  const { config, db, plans, clock, logger } = b;
  const engagement = new EngagementService({
    store: new EngagementStore(db),
    registry: d.platforms,
    connections: d.connectionStore,
    tokens: d.tokens,
    clock,
    logger: logger.child({ component: 'engagement' }),
    config: config.engagement,
    mediaUrl: (key) => d.media.storage.publicUrl(key),
  });
  const commentSync = new CommentSync({
    db,
    engagement: engagement.sync,
    plans,
    locks: d.locks,
    queue: d.scheduleQueue,
    clock,
    logger: logger.child({ component: 'comment-sync' }),
    intervalSeconds: config.engagement.syncIntervalSeconds,
  });
  return { engagement, commentSync };
}

/** The AI generators, speech to text and the workspace agent's chat store. */
export async function aiServices(
  b: Base,
  d: { media: MediaService; credits: CreditService; platforms: PlatformRegistry },
) {
  const { config, overrides, db, clock, logger } = b;
  const { media, credits, platforms } = d;
  let builtinMade: Promise<BuiltinProvider> | undefined;
  const builtin = () =>
    (builtinMade ??= import('./ai/builtin/index.ts').then(
      (m) =>
        new m.BuiltinProvider({
          networks: platforms.networks,
          ocr: { binary: config.ai.tesseractPath },
          ffprobePath: config.media.ffprobePath,
          ffmpegPath: config.ai.ffmpegPath,
        }),
    ));
  const aiModels = overrides.aiModels !== undefined ? overrides.aiModels : await createModels(config.ai);
  const ai = new AiService({
    networks: platforms.networks,
    builtin,
    models: aiModels,
    credits,
    media: {
      addGenerated: (p, bytes, name, kind, loc) => media.addGenerated(p, bytes, name, kind, loc),
      readUrl: (p, url, kind, loc) => media.readUrl(p, url, kind, loc),
      release: (path) => media.release(path),
      publicUrl: (key) => media.storage.publicUrl(key),
    },
    config: config.ai,
    logger: logger.child({ component: 'ai' }),
  });
  const speech = new SpeechToText({
    model: aiModels?.transcription ?? null,
    config: config.ai,
    logger: logger.child({ component: 'speech' }),
  });
  const agentChats = new AgentChatHistory(db, clock);
  return { ai, speech, agentChats, aiModels };
}

/** The workspace agent: a model (or the built-in direct commands) working through the tool layer. */
export function agentService(
  b: Base,
  d: {
    tools: ToolServices;
    aiModels: AiModels | null;
    agentChats: AgentChatHistory;
    credits: CreditService;
    media: MediaService;
    platforms: PlatformRegistry;
  },
) {
  const { config, clock, logger } = b;
  const agent = new AgentChat({
    tools: toolBox(d.tools),
    networks: d.platforms.networks,
    models: d.aiModels,
    history: d.agentChats,
    credits: d.credits,
    media: d.media,
    config: config.agent,
    modelTimeoutMs: config.ai.timeoutMs,
    clock,
    logger: logger.child({ component: 'agent' }),
  });
  return { agent };
}

/** The events outbox as the webhook worker reads it: claims of events not yet fanned out, and webhook.disabled. */
export const outboxFeed: EventFeed = {
  async claim(tx, limit, now) {
    const rows = await EventStore.claimForDispatch(tx, limit, now);
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      workspaceId: r.workspaceId,
      network: r.platform,
      occurredAt: r.occurredAt,
      wire: { ...toWire(r) },
    }));
  },
  disabled: (tx, workspaceId, data, at) => recordEvent(tx, workspaceId, 'webhook.disabled', data, { at }),
};

/**
 * Webhooks: endpoints, deliveries and their worker. Every delivery goes through the outbound address policy (trusting
 * only the hosts of HERALD_FETCH_ALLOW_HOSTS), resolved when its connection opens.
 */
export function webhookServices(
  b: Base,
  d: { box: SecretBox; mailer: Mailer; scheduleQueue: ScheduleQueue | undefined; feed?: EventFeed },
) {
  const { config, db, clock, logger } = b;
  const policy = new OutboundPolicy({
    trustedHosts: config.fetchAllowHosts,
    ...(b.overrides.platformLookup ? { lookup: b.overrides.platformLookup } : {}),
  });
  const endpoints = new WebhookEndpoints({ db, box: d.box, clock, policy, eventTypes: EVENT_TYPES });
  const store = new DeliveryStore(db, clock);
  const webhookWorker = new WebhookWorker({
    db,
    feed: d.feed ?? outboxFeed,
    endpoints,
    store,
    sender: new WebhookSender({ policy, timeoutMs: config.webhooks.timeoutMs, clock }),
    queue: d.scheduleQueue,
    mailer: d.mailer,
    clock,
    logger: logger.child({ component: 'webhooks' }),
    config: config.webhooks,
    publicUrl: config.publicUrl,
  });
  const webhooks = new WebhookService({ db, endpoints, store, worker: webhookWorker, clock });
  return { webhooks, webhookWorker };
}

/** Checks behind /readyz that every context has (`herald serve` adds the scheduler's). */
export function readinessChecks(database: Database, tokens: TokenKeeper): ReadinessCheck[] {
  return [
    // A network's app credentials refused on refresh (invalid_client) is the operator's to fix. Herald still serves
    // every other network, so the check stays ok and says which network needs its configuration looked at.
    async () => {
      const problems = tokens.configProblems();
      if (!problems.length) return { name: 'network-apps', ok: true };
      return {
        name: 'network-apps',
        ok: true,
        detail: problems
          .map((p) => `${p.platform}: app credentials refused at ${p.at.toISOString()} (${p.message})`)
          .join('; '),
      };
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
  ];
}
