// What the tools may use: the services they call, and nothing else of the application context. The composition root
// (context.ts) builds one object of this shape; the tools, the invoker and the agent see only it.
import type { Logger } from 'pino';
import type { AiService } from '../ai/service.ts';
import type { PlanCatalog } from '../auth/plans.ts';
import type { UsageService } from '../auth/usage.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { ConnectionService } from '../connections/service.ts';
import type { ProfileService } from '../connections/profiles.ts';
import type { ConnectionStore } from '../connections/store.ts';
import type { SecretBox } from '../crypto.ts';
import type { Database } from '../db/client.ts';
import type { EngagementService } from '../engagement/index.ts';
import type { FeedService } from '../feeds/index.ts';
import type { MediaService } from '../media/service.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import type { DraftService, PublishingService } from '../publishing/index.ts';
import type { BulkService, QueueService, SchedulingService } from '../scheduling/index.ts';
import type { WorkspaceChatHistory } from './chat-history.ts';

export interface ToolServices {
  config: Config;
  logger: Logger;
  clock: Clock;
  database: Database;
  /** Seals the secret arguments of a held action (an app password) until a member approves it. */
  box: SecretBox;
  plans: PlanCatalog;
  usage: UsageService;
  platforms: PlatformRegistry;
  connections: ConnectionService;
  connectionStore: ConnectionStore;
  profiles: ProfileService;
  drafts: DraftService;
  publishing: PublishingService;
  scheduling: SchedulingService;
  /** import_posts: bulk validation and import. */
  bulk: BulkService;
  queues: QueueService;
  /** get_queue: the feeds whose new items join a queue (queue mode). */
  feeds: FeedService;
  engagement: EngagementService;
  ai: AiService;
  /** Files attached to a GPT Action call are imported as media. */
  media: MediaService;
  /** The workspace agent's archived turns and memory (clear_workspace_chat_history). */
  agentChats: WorkspaceChatHistory;
  /** The OAuth server's grant revocation (disconnect_gpt_connector). */
  oauth: { revokeGrant(grantId: string): Promise<void> };
}
