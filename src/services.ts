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
import type { ContextOverrides } from './app-context.ts';
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
import { chunkStoreFor } from './media/chunk-store.ts';
import { OAuthService } from './oauth/service.ts';

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
    chunks: chunkStoreFor(media.storage, config.dataDir),
    ttlSeconds: config.media.uploadSessionTtlSeconds,
    clock,
    logger,
  });
  const workspaceDeletion = new WorkspaceDeletion({
    db,
    storage: media.storage,
    chunks: uploads.chunks,
    connections: d.connectionStore,
    registry: d.platforms,
    logger,
  });
  return { media, uploads, workspaceDeletion };
}
