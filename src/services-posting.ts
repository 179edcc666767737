import type { Database } from './db/client.ts';
import type { Locks } from './db/locks.ts';
import type { SecretBox } from './crypto.ts';
import type { Mailer } from './mail.ts';
import type { ReadinessCheck } from './app-context.ts';
import type { CreditService } from './auth/credits.ts';
import type { WorkspaceService } from './auth/workspaces.ts';
import { OutboundPolicy } from './net/outbound-policy.ts';
import type { PlatformRegistry } from './platforms/registry.ts';
import type { ConnectionStore } from './connections/store.ts';
import type { TokenKeeper } from './connections/tokens.ts';
import type { MediaService } from './media/service.ts';
import { DraftService, FollowUps, PostValidator, PublishingService } from './publishing/index.ts';
import {
  BulkService,
  QueueService,
  QueueStore,
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
import { FEED_POLL_QUEUE, FeedFetcher, FeedPoller, FeedService, FeedStore } from './feeds/index.ts';
import type { AiService } from './ai/service.ts';

/** What every area is built from. */
import type { Base } from './services.ts';

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
          queues: [COMMENT_SYNC_QUEUE, WEBHOOK_QUEUE, FEED_POLL_QUEUE],
        })
      : undefined;
  const scheduledStore = new ScheduledStore(db, clock);
  const entries = new ScheduleEntries(scheduledStore, scheduleQueue);
  const queueStore = new QueueStore(db, clock);
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
    schedule: entries,
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
    releaseSlot: (slotId) => queueStore.release(slotId),
  });
  const queues = new QueueService({
    store: queueStore,
    publishing,
    clock,
    queue: scheduleQueue,
    timeZoneOf: (workspaceId) => scheduling.timeZoneOf(workspaceId),
    networks: platforms,
  });
  const bulk = new BulkService({
    db,
    clock,
    plans,
    registry: platforms,
    validator,
    drafts,
    credits,
    media: d.media,
    schedule: entries,
    timeZoneOf: (id) => scheduling.timeZoneOf(id),
    queues: {
      refusal: (ws, name, platforms) => queues.refusal(ws, name, platforms),
      nextFree: (ws, name, count) => queues.nextFree(ws, name, count),
      takeSlots: (tx, ws, name, count, tz) => queues.takeSlots(tx, ws, name, count, tz),
      timeZoneOf: (ws) => scheduling.timeZoneOf(ws),
    },
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
  return {
    drafts,
    publishing,
    scheduleQueue,
    scheduleWorker,
    scheduling,
    bulk,
    queues,
    followUps,
    events,
    postStory,
    reconciler,
  };
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

/**
 * Feeds the workspaces follow and their background poll. Every fetch goes through the outbound address policy
 * (trusting only the hosts of HERALD_FETCH_ALLOW_HOSTS); posts go through publishing's approval step, as an assistant's.
 */
export function feedServices(
  b: Base,
  d: {
    publishing: PublishingService;
    ai: AiService;
    platforms: PlatformRegistry;
    workspaces: WorkspaceService;
    locks: Locks;
    scheduleQueue: ScheduleQueue | undefined;
    queues: QueueService;
  },
) {
  const { config, db, clock, logger } = b;
  const policy = new OutboundPolicy({
    trustedHosts: config.fetchAllowHosts,
    ...(b.overrides.platformLookup ? { lookup: b.overrides.platformLookup } : {}),
  });
  const fetcher = new FeedFetcher(policy, { timeoutMs: config.feeds.timeoutMs, maxBytes: config.feeds.maxBytes });
  const feeds = new FeedService({
    db,
    store: new FeedStore(db, clock),
    fetcher,
    slugs: () => d.platforms.slugs,
    planOf: async (id) => (await d.workspaces.byId(id))?.planId,
    post: (p, body) => d.publishing.approvals.submitFromTool({ principal: p, surface: 'feed' }, 'text', body),
    copy: async (p, idea, platforms) => {
      const out = await d.ai.copy(p, { idea, platforms });
      return Object.fromEntries(
        Object.entries(out.data).map(([k, v]) => [k, 'content' in v ? v.content : { error: v.error }]),
      );
    },
    queues: {
      refusal: (ws, name, platforms) => d.queues.refusal(ws, name, platforms),
      nextFree: async (ws, name) => (await d.queues.nextFree(ws, name, 1))[0],
      add: (p, name, body) => d.queues.add(p, name, 'text', body, {}),
      approvalRequired: (ws) => d.publishing.approvals.required(ws),
    },
    clock,
    logger: logger.child({ component: 'feeds' }),
    config: config.feeds,
  });
  const feedPoller = new FeedPoller({
    feeds,
    locks: d.locks,
    queue: d.scheduleQueue,
    clock,
    logger: logger.child({ component: 'feed-poll' }),
    intervalSeconds: config.feeds.pollSeconds,
  });
  return { feeds, feedPoller, feedFetcher: fetcher };
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
