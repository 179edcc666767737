import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { createLogger } from './logger.ts';
import { resolveSecrets } from './secrets.ts';
import { PlanCatalog } from './auth/plans.ts';
import { SecretBox } from './crypto.ts';
import { createLocks } from './db/locks.ts';
import { Mailer } from './mail.ts';
import { NETWORKS } from './platforms/registry.ts';
import { ConnectionStore } from './connections/store.ts';
import { authServices, mediaServices, networkServices } from './services.ts';
import { agentService, aiServices } from './services-ai.ts';
import {
  engagementServices,
  feedServices,
  publishingServices,
  readinessChecks,
  webhookServices,
} from './services-posting.ts';

import type { AppContext, ContextOverrides } from './app-context.ts';
import { Notifier } from './notifications.ts';
import type { ToolServices } from './tools/services.ts';
export type { AppContext, ContextOverrides, ReadinessCheck } from './app-context.ts';
export type { Clock } from './clock.ts';
// The logger has its own module; these re-exports keep older imports working.
export { createLogger, REDACT_PATHS, scrubUrl } from './logger.ts';

/** Applies the migrations a database lacks, saying how many when asked to. */
async function migrate(database: Database, say: ((step: string) => void) | undefined): Promise<void> {
  const status = say ? await database.migrationStatus() : undefined;
  const before = status?.applied ?? 0;
  // A first start (or an upgrade) says what it is about to do before the wait, not only after it.
  if (status && status.shipped > status.applied)
    say?.(`applying database migrations: ${status.shipped - status.applied} (schema version ${status.shipped})…`);
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
  const notifier = new Notifier({
    db: database.db,
    mailer,
    clock,
    logger: logger.child({ component: 'notifications' }),
    publicUrl: config.publicUrl,
    signingKey: secrets.encryptionKey,
    digestMinutes: config.scheduling.digestMinutes,
  });
  const { aiModels, ...assistants } = await aiServices(base, {
    ...files,
    credits: auth.credits,
    platforms: net.platforms,
  });
  const { feedFetcher, ...feeds } = feedServices(base, {
    publishing: posting.publishing,
    ai: assistants.ai,
    platforms: net.platforms,
    workspaces: auth.workspaces,
    locks,
    scheduleQueue: posting.scheduleQueue,
    queues: posting.queues,
  });
  // What the tools may use (tools/services.ts), for the agent and, as part of the context, every other surface.
  const tools: ToolServices = {
    config,
    logger,
    clock,
    database,
    box,
    plans,
    usage: auth.usage,
    oauth: auth.oauth,
    platforms: net.platforms,
    connections: net.connections,
    connectionStore,
    profiles: net.profiles,
    drafts: posting.drafts,
    publishing: posting.publishing,
    scheduling: posting.scheduling,
    bulk: posting.bulk,
    queues: posting.queues,
    media: files.media,
    engagement: engagement.engagement,
    ai: assistants.ai,
    agentChats: assistants.agentChats,
    feeds: feeds.feeds,
  };
  const { agent } = agentService(base, { tools, aiModels, ...assistants, ...files, credits: auth.credits, ...net });
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
    ...feeds,
    agent,
    notifier,
    readiness: readinessChecks(database, net.tokens),
    async close() {
      await hooks.webhookWorker.stop();
      await feeds.feedPoller.stop();
      await engagement.commentSync.stop();
      await posting.followUps.stop();
      notifier.stop();
      await posting.reconciler.stop();
      await posting.scheduleWorker.stop();
      await auth.passwordReset.settled();
      await database.close();
      await net.http.close();
      await feedFetcher.close();
      // A client that never connected has nothing to flush: quit() would connect just to say goodbye.
      if (redis?.status === 'wait') redis.disconnect();
      else await redis?.quit().catch(() => {});
    },
  };
  return app;
}
