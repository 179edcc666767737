// Publishing's front door: publish() and schedule() validate everything, write the ledger, queue entries,
// drafts and credits in one transaction, then fan out to the networks in parallel. A scheduled entry's run
// records its ledger post through recordScheduledRun() (the same writer) and reuses the runner.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import type { CreditService } from '../auth/credits.ts';
import type { PlanCatalog } from '../auth/plans.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { ConnectionRow, ConnectionStore } from '../connections/store.ts';
import type { TokenKeeper } from '../connections/tokens.ts';
import type { Db } from '../db/client.ts';
import type { MediaService } from '../media/service.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { DraftService } from './drafts.ts';
import {
  isUniqueViolation,
  keepLease,
  leaseExpired,
  replay,
  requestHash,
  type IdempotencyClaim,
  type ReplyParts,
} from './idempotency.ts';
import { Ledger, type PostRow, type TargetRow } from './ledger.ts';
import { writeLedgerPost } from './ledger-post.ts';
import { publishReply, type PublishReply, type TargetOutcome } from './results.ts';
import { writeSubmission, type ScheduledEntryRef, type ScheduleWriter, type Written } from './submit.ts';
import { withImportedMedia } from './media-refs.ts';
import type { PlannedTarget } from './plan.ts';
import type { Owner, Prepared, PrepareOptions, PostValidator } from './validate.ts';
import { TargetRunner } from './runner.ts';
import { Approvals } from './approval.ts';
import { connectionFor } from './targets.ts';
import type { PostBody } from './schemas.ts';

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

const DEFAULT_LEASE_MS = 300_000;

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

/** Thrown inside the ledger transaction when the caller's claim was lost: rolls it back. */
class ClaimLost extends Error {}

export class PublishingService {
  readonly #d: PublishingDeps;
  readonly ledger: Ledger;
  readonly runner: TargetRunner;
  /**
   * Posts made by tools (MCP, GPT Actions, the agent): `approvals.submitFromTool(caller, postType, body)` publishes
   * them, or holds them as drafts pending approval when the workspace asks for it; `approvals.approve(member, id)`.
   */
  readonly approvals: Approvals;

  constructor(deps: PublishingDeps) {
    this.#d = deps;
    this.ledger = new Ledger(deps.db, deps.clock);
    this.runner = new TargetRunner({ ...deps, ledger: this.ledger });
    this.approvals = new Approvals({
      db: deps.db,
      drafts: deps.drafts,
      validator: deps.validator,
      schedule: deps.schedule,
      networks: deps.registry.networks,
      clock: deps.clock,
      publish: (p, postType, body, key) => this.publish(p, postType, body, key),
    });
  }

  /** Everything the request asks for, checked before a single network call; returns targets with media rows. */
  prepare(p: Principal, postType: PostType, body: PostBody, o: PrepareOptions = {}): Promise<Prepared> {
    return this.#d.validator.prepare(p, postType, body, o);
  }

  /** The checks for a stored body of a workspace and plan (the scheduling worker, at publish time). */
  validate(owner: Owner, postType: PostType, body: PostBody): Promise<Prepared> {
    return this.#d.validator.validate(owner, postType, body);
  }

  /**
   * A post request (the post routes, a draft published now, a tool's post, an approved one): publishes now,
   * schedules or saves drafts as the body says, and answers as the post routes do.
   */
  publish(p: Principal, postType: PostType, body: PostBody, idempotencyKey?: string): Promise<PublishReply<object>> {
    return this.#submit(p, postType, body, { idempotencyKey });
  }

  /** Scheduling's routes (a scheduled post, a draft scheduled): every network becomes a queue entry. */
  schedule(p: Principal, postType: PostType, body: PostBody, r: ScheduleRequest): Promise<PublishReply<object>> {
    return this.#submit(p, postType, body, r);
  }

  /**
   * The ledger post and targets of a claimed queue entry, written by the same writer as publishing now, in ONE
   * transaction with `claim` (scheduling links the entry there while its claim holds; false rolls everything back).
   * Undefined when the claim was lost. The targets are left pending for the caller's run.
   */
  async recordScheduledRun(
    r: ScheduledRunRecord,
    claim: (tx: Db, postId: string) => Promise<boolean>,
  ): Promise<{ postId: string; rows: TargetRow[]; conns: (ConnectionRow | undefined)[] } | undefined> {
    const conns = r.connections ?? (await this.#d.connections.list(r.workspaceId));
    const placed = r.planned.map((t) => ({ planned: t, conn: connectionFor(conns, t) }));
    try {
      return await this.#d.db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const { post, rows } = await writeLedgerPost(
          tx,
          { ledger: this.ledger, credits: this.#d.credits },
          {
            workspaceId: r.workspaceId,
            planId: r.planId,
            postType: r.postType,
            request: r.request,
            idempotencyKey: null,
            requestHash: `scheduled:${r.entryId}`,
            actor: r.actor,
            placed,
            startNow: false,
            credit: { reason: 'scheduled_publish', reference: r.entryId },
            displayName: (pl) => this.#d.registry.get(pl).displayName,
          },
          async (postId) => {
            if (!(await claim(tx, postId))) throw new ClaimLost();
          },
        );
        return { postId: post.id, rows, conns: placed.map((c) => c.conn) };
      });
    } catch (err) {
      if (err instanceof ClaimLost) return undefined;
      throw err;
    }
  }

  /** A target's result as the post routes show it. */
  resultOf(row: TargetRow): TargetOutcome {
    return TargetRunner.resultOf(row, this.#d.registry);
  }

  /**
   * POST /unified/posts/{id}/retry for a post published now: its failed targets run again (a new attempt each, a post
   * credit each, charged in the claim's transaction), the others are left alone — a published target is never sent
   * twice, and a retry while another runs finds nothing failed. A target that failed for want of an account takes
   * the workspace's connected account of its network, if there is one now. The post's outcome event follows.
   */
  async retry(p: Principal, post: PostRow): Promise<TargetOutcome[]> {
    const targets = await this.ledger.targetsOf(post.id);
    const failed = targets.filter((t) => t.state === 'failed');
    if (!failed.length) return [];
    const conns = failed.some((t) => !t.connectionId) ? await this.#d.connections.list(p.workspaceId) : [];
    const accounts = new Map<string, string>();
    for (const t of failed) {
      const conn = t.connectionId
        ? undefined
        : conns.find((c) => c.platform === t.platform && c.status === 'connected');
      if (conn) accounts.set(t.id, conn.id);
    }
    const claimed = await this.#d.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const rows = await this.ledger.claimFailed(tx, post.id, accounts);
      if (rows.length)
        await this.#d.credits.spend(
          {
            workspaceId: p.workspaceId,
            planId: p.planId,
            type: 'posts',
            amount: rows.length,
            reason: 'retry',
            reference: post.id,
          },
          tx,
        );
      return rows;
    });
    if (!claimed.length) return [];
    for (const row of claimed)
      this.#d.logger.info(
        { network: row.platform, post: post.id, target: row.id, attempt: row.attempts },
        'target retried',
      );
    const outcomes = await Promise.all(
      claimed.map((row) => this.runner.run(row, { attemptRecorded: true, source: 'retry' })),
    );
    await this.ledger.closeRetry(post.id);
    return outcomes;
  }

  /**
   * The one path of a request: checks it, splits it into targets to run now, queue entries and drafts, writes them
   * all in one transaction, then runs the "now" targets and records the answer for the Idempotency-Key.
   */
  async #submit(
    p: Principal,
    postType: PostType,
    body: PostBody,
    o: Partial<ScheduleRequest>,
  ): Promise<PublishReply<object>> {
    const hash = o.claim?.requestHash ?? requestHash({ postType, body });
    const idempotency: IdempotencyClaim | undefined = o.idempotencyKey
      ? { key: o.idempotencyKey, requestHash: hash, request: o.claim?.request ?? body }
      : undefined;
    if (idempotency && !o.replayChecked) {
      const prior = await this.ledger.findByKey(p.workspaceId, idempotency.key);
      if (prior) return this.#answerPrior(prior, hash);
    }
    // A network's unmet requirement fails it alone, unless the caller answers for scheduled entries only.
    const { targets, imported, media } = await this.#d.validator.prepare(p, postType, body, {
      perNetworkFailures: !o.respond,
    });
    const now = this.#d.clock();
    const when = new Map<Platform, Date>();
    for (const t of targets) {
      if (!t.scheduledTime || t.draft || t.failure || when.has(t.platform)) continue;
      const own = (body[t.platform as keyof PostBody] as { scheduled_time?: string } | undefined)?.scheduled_time;
      when.set(
        t.platform,
        this.#d.schedule.parseTime(t.scheduledTime, now, own ? `${t.platform}.scheduled_time` : 'scheduled_time'),
      );
    }
    const conns = await this.#d.connections.list(p.workspaceId);
    const placed = targets
      .filter((t) => t.failure || !when.has(t.platform))
      .map((t) => ({ planned: t, conn: t.draft ? undefined : connectionFor(conns, t) }));
    const scheduled = new Map(
      [...when].map(([pl, at]) => [
        pl,
        { at, platformUserId: conns.find((c) => c.platform === pl && c.status === 'connected')?.accountId ?? null },
      ]),
    );
    const draftPlatforms = [...new Set(placed.filter((t) => t.planned.draft).map((t) => t.planned.platform))];
    const requested = new Set(placed.map((t) => t.planned.platform)).size;
    const live = (w: { rows: TargetRow[] }) => w.rows.filter((r) => r.state !== 'draft');
    const scheduledRefs = (entries: ScheduledEntryRef[]) =>
      entries.map((e) => ({
        platform: e.platform,
        scheduled_post_id: e.id,
        scheduled_time: e.scheduledTime.toISOString(),
      }));
    const lease = idempotency
      ? { owner: randomUUID(), until: new Date(this.#d.clock().getTime() + this.#leaseMs) }
      : undefined;
    const fromDraft = o.fromDraft;
    let written: Written;
    try {
      written = await this.#d.db.transaction((tx) =>
        writeSubmission(
          tx as unknown as Db,
          {
            ledger: this.ledger,
            credits: this.#d.credits,
            drafts: this.#d.drafts,
            schedule: this.#d.schedule,
            overrideKeys: this.#d.registry.overrideKeys,
          },
          {
            p,
            postType,
            request: body,
            stored: withImportedMedia(this.#d.registry.networks, body, imported),
            placed,
            draftPlatforms,
            scheduled,
            idempotency,
            lease,
            requestHash: hash,
            displayName: (pl) => this.#d.registry.get(pl).displayName,
          },
          {
            inTx: fromDraft ? (tx) => this.#d.drafts.remove(p.workspaceId, fromDraft, tx) : undefined,
            replyParts: (w) => ({
              requested,
              targets: live(w).map((r) => r.id),
              drafts: w.drafts,
              scheduled: scheduledRefs(w.entries),
            }),
            // Without a target to run, the answer is known before the commit.
            respond: (w) =>
              live(w).some((r) => r.state !== 'failed')
                ? undefined
                : (o.respond?.(w.entries) ??
                  publishReply(
                    requested,
                    live(w).map((r) => TargetRunner.resultOf(r, this.#d.registry)),
                    w.drafts,
                    scheduledRefs(w.entries),
                  )),
          },
        ),
      );
    } catch (err) {
      if (idempotency && isUniqueViolation(err)) {
        const prior = await this.ledger.findByKey(p.workspaceId, idempotency.key);
        if (prior) return this.#answerPrior(prior, hash);
      }
      throw err;
    }
    await this.#d.schedule.wake(written.entries);
    if (written.reply) return written.reply;
    const byRow = new Map(written.rows.map((r, i) => [r, placed[i]!]));
    const run = () =>
      Promise.all(
        live(written).map((row) =>
          row.state === 'failed'
            ? TargetRunner.resultOf(row, this.#d.registry)
            : this.runner.run(row, {
                attemptRecorded: true,
                known: { postType, connection: byRow.get(row)?.conn, media },
              }),
        ),
      );
    const parts = { requested, drafts: written.drafts, scheduled: scheduledRefs(written.entries) };
    return this.#runHolding(written.postId, lease?.owner, parts, run);
  }

  get #leaseMs(): number {
    return this.#d.idempotencyLeaseMs ?? DEFAULT_LEASE_MS;
  }

  /** An earlier request under the same key: its answer, 422, 409 while it runs, or — its lease passed — resumed here. */
  async #answerPrior(prior: PostRow, hash: string): Promise<PublishReply<object>> {
    if (prior.requestHash !== hash || !leaseExpired(prior, this.#d.clock())) return replay(prior, hash);
    const owner = randomUUID();
    const held = await this.ledger.takeOver(prior.id, owner, new Date(this.#d.clock().getTime() + this.#leaseMs));
    // Another retry took it over first (409), or it finished meanwhile (its answer).
    if (!held) return replay(await this.ledger.postOf(prior.id), hash);
    this.#d.logger.warn(
      { post: prior.id },
      'resuming a request whose Idempotency-Key lease passed (its process stopped)',
    );
    const rows = await this.ledger.targetsOf(prior.id);
    const parts = (held.replyParts as ReplyParts | null) ?? legacyParts(rows);
    const byId = new Map(rows.map((r) => [r.id, r]));
    // Only targets the dead run left unfinished go to the network again, through their journal; none is created or charged anew.
    const run = () =>
      Promise.all(
        parts.targets.map((id) => {
          const row = byId.get(id)!;
          return row.state === 'pending' || row.state === 'processing'
            ? this.runner.run(row)
            : TargetRunner.resultOf(row, this.#d.registry);
        }),
      );
    return this.#runHolding(prior.id, owner, parts, run);
  }

  /** Runs the targets while renewing the claim's lease (requests with a key), then records the answer to replay. */
  async #runHolding(
    postId: string | undefined,
    owner: string | undefined,
    parts: Omit<ReplyParts, 'targets'>,
    run: () => Promise<TargetOutcome[]>,
  ): Promise<PublishReply<object>> {
    const heartbeat =
      postId && owner
        ? keepLease({
            leaseMs: this.#leaseMs,
            logger: this.#d.logger,
            post: postId,
            renew: () => this.ledger.renewLease(postId, owner, new Date(this.#d.clock().getTime() + this.#leaseMs)),
          })
        : undefined;
    let outcomes: TargetOutcome[];
    try {
      outcomes = await run();
    } finally {
      heartbeat?.stop();
    }
    const reply = publishReply(parts.requested, outcomes, parts.drafts, parts.scheduled);
    if (postId) await this.ledger.finishPost(postId, reply.body, reply.status);
    return reply;
  }
}

/** A request claimed before reply parts were stored: every network it named, its live targets in the order written. */
function legacyParts(rows: TargetRow[]): ReplyParts {
  return {
    requested: new Set(rows.map((r) => r.platform)).size,
    targets: rows.filter((r) => r.state !== 'draft').map((r) => r.id),
    drafts: [],
    scheduled: [],
  };
}

export type { Platform };
export type { PublishReply, Prepared, PrepareOptions };
