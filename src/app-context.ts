// The type of the whole application context: every service the composition root (context.ts) builds. The
// transports and the process entry points use it; services and tools take only the collaborators they need.
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { Clock } from './clock.ts';
import type { EventStore } from './events/index.ts';
import type { WebhookService, WebhookWorker } from './events/webhooks/index.ts';
import type { Notifier } from './notifications.ts';
import type { PostStory, Reconciler } from './scheduling/index.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Secrets } from './secrets.ts';
import type { PlanCatalog } from './auth/plans.ts';
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
import type { SecretBox } from './crypto.ts';
import type { Locks } from './db/locks.ts';
import type { Mailer } from './mail.ts';
import type { PlatformRegistry } from './platforms/registry.ts';
import type { NetworkContract } from './platforms/contract.ts';
import type { AdapterFactory } from './platforms/types.ts';
import type { HostLookup } from './net/outbound-policy.ts';
import type { ConnectionStore } from './connections/store.ts';
import type { TokenKeeper, TokenKeeperOptions } from './connections/tokens.ts';
import type { ConnectionService } from './connections/service.ts';
import type { ProfileService } from './connections/profiles.ts';
import type { SandboxSimulator } from './sandbox/core/simulator.ts';
import type { DraftService, FollowUps, PublishingService } from './publishing/index.ts';
import type { MediaService, MediaServiceDeps } from './media/service.ts';
import type { UploadSessions } from './media/uploads.ts';
import type {
  BulkService,
  QueueService,
  ScheduleQueue,
  ScheduleWorker,
  SchedulingService,
} from './scheduling/index.ts';
import type { CommentSync, EngagementService } from './engagement/index.ts';
import type { AiService } from './ai/service.ts';
import type { AiModels } from './ai/models.ts';
import type { SpeechToText } from './ai/transcription.ts';
import type { OAuthService } from './oauth/service.ts';
import type { AgentChatHistory } from './agent/history.ts';
import type { AgentChat } from './agent/chat.ts';
import type { FeedPoller, FeedService } from './feeds/index.ts';

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
  /** Bulk import and export of posts (CSV or JSON lines). */
  bulk: BulkService;
  /** Posting queues: named weekly slots, and posts that take the next free one. */
  queues: QueueService;
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
  /** Feeds the workspaces follow (docs/workflow.md, Feeds): their settings, items and one poll. */
  feeds: FeedService;
  /** Polls the feeds due every HERALD_FEED_POLL_SECONDS; started where the scheduling worker runs. */
  feedPoller: FeedPoller;
  /** The events outbox (docs/events.md): GET /events, the webhook dispatcher, the notifications. */
  events: EventStore;
  /** A post's timeline and its retry (GET /unified/posts/{id}/timeline, POST …/retry). */
  postStory: PostStory;
  /** Finds stuck posts and resumes or fails them; started with the scheduling worker. */
  reconciler: Reconciler;
  /** Members' mail notifications: preferences, digests, unsubscribe links; started with the scheduling worker. */
  notifier: Notifier;
  /** Checks behind /readyz that every context has; `herald serve` gives the REST app the scheduler's as well. */
  readiness: readonly ReadinessCheck[];
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
