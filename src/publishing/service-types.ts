// What the publishing service is built from, and the shapes of the requests scheduling hands it.
import type { Logger } from 'pino';
import type { CreditService } from '../auth/credits.ts';
import type { PlanCatalog } from '../auth/plans.ts';
import type { ConnectionRow, ConnectionStore } from '../connections/store.ts';
import type { TokenKeeper } from '../connections/tokens.ts';
import type { Db } from '../db/client.ts';
import type { MediaService } from '../media/service.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { DraftService } from './drafts.ts';
import type { Ledger } from './ledger.ts';
import type { PlannedTarget } from './plan.ts';
import type { PublishReply } from './results.ts';
import type { TargetRunner } from './runner.ts';
import type { PostBody } from './schemas.ts';
import type { QueueSlotClaim, ScheduledEntryRef, ScheduleWriter } from './submit.ts';
import type { PostValidator } from './validate.ts';

export interface PublishingDeps {
  db: Db;
  registry: PlatformRegistry;
  connections: ConnectionStore;
  tokens: TokenKeeper;
  credits: CreditService;
  plans: PlanCatalog;
  media: MediaService;
  drafts: DraftService;
  validator: PostValidator;
  /** Where scheduled targets go (scheduling's store). */
  schedule: ScheduleWriter;
  clock: () => Date;
  logger: Logger;
  /** Longest a request waits for one network, processing included, before answering "still processing". */
  targetTimeoutMs: number;
  /** Pause between status checks of a post the network is still processing (HERALD_PUBLISH_POLL_MS). */
  pollIntervalMs?: number;
  /** How long an Idempotency-Key claim outlives its request's last renewal (HERALD_IDEMPOTENCY_LEASE_SECONDS). */
  idempotencyLeaseMs?: number;
}

/** Scheduling's routes: every network goes to the queue; the route's own request hash, answer and writes. */
export interface ScheduleRequest {
  idempotencyKey?: string | undefined;
  /** The route's own request hash and what the key's record shows. */
  claim: { requestHash: string; request: unknown };
  /** The caller already looked the key up (it needed the earlier request for its own checks). */
  replayChecked?: boolean;
  /** The draft being scheduled: it leaves the drafts in the same transaction. */
  fromDraft?: string | undefined;
  /** The answer once everything is scheduled. */
  respond: (entries: ScheduledEntryRef[]) => PublishReply<object>;
  /** A posting queue's slot, taken inside the transaction: every entry gets its time and reference. */
  slot?: ((tx: Db) => Promise<QueueSlotClaim>) | undefined;
}

/** A claimed queue entry about to run: what its ledger post records, and its checked targets. */
export interface ScheduledRunRecord {
  entryId: string;
  workspaceId: string;
  planId: string;
  postType: PostType;
  /** The entry's stored body (the ledger's request). */
  request: PostBody;
  /** Who runs it (the worker's id). */
  actor: string;
  planned: PlannedTarget[];
  /** The workspace's connections when the caller already read them. */
  connections?: ConnectionRow[] | undefined;
}

/** The service's dependencies with the ledger and runner it built: what its parts outside the class work with. */
export type Internals = PublishingDeps & { ledger: Ledger; runner: TargetRunner };
