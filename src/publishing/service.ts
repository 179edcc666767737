// Publishing's front door: publish() and schedule() validate everything, write the ledger, queue entries,
// drafts and credits in one transaction, then fan out to the networks in parallel. A scheduled entry's run
// records its ledger post through recordScheduledRun() (the same writer) and reuses the runner.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/authenticate.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { ConnectionRow } from '../connections/store.ts';
import type { Db } from '../db/client.ts';
import type { PostType } from '../platforms/publishing.ts';
import { isUniqueViolation, requestHash, type IdempotencyClaim } from './idempotency.ts';
import { Ledger, type PostRow, type TargetRow } from './ledger.ts';
import { publishReply, type PublishReply, type TargetOutcome } from './results.ts';
import {
  writeAtOnce,
  writeSubmission,
  writesAtOnce,
  type PartsOf,
  type ScheduledEntryRef,
  type Written,
} from './submit.ts';
import { withImportedMedia } from './media-refs.ts';
import type { Prepared, PrepareOptions, Owner } from './validate.ts';
import { TargetRunner } from './runner.ts';
import { Approvals } from './approval.ts';
import { connectionFor } from './targets.ts';
import type { PostBody } from './schemas.ts';
import { answerPrior, leaseMs, runHolding } from './resume.ts';
import { retryFailed } from './retry.ts';
import { recordScheduledRun } from './scheduled-run.ts';
import type { Internals, PublishingDeps, ScheduledRunRecord, ScheduleRequest } from './service-types.ts';

export type { PublishingDeps, ScheduledRunRecord, ScheduleRequest } from './service-types.ts';

export class PublishingService {
  readonly #i: Internals;
  readonly ledger: Ledger;
  readonly runner: TargetRunner;
  /**
   * Posts made by tools (MCP, GPT Actions, the agent): `approvals.submitFromTool(caller, postType, body)` publishes
   * them, or holds them as drafts pending approval when the workspace asks for it; `approvals.approve(member, id)`.
   */
  readonly approvals: Approvals;

  constructor(deps: PublishingDeps) {
    this.ledger = new Ledger(deps.db, deps.clock);
    this.runner = new TargetRunner({ ...deps, ledger: this.ledger });
    this.#i = { ...deps, ledger: this.ledger, runner: this.runner };
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
    return this.#i.validator.prepare(p, postType, body, o);
  }

  /** The checks for a stored body of a workspace and plan (the scheduling worker, at publish time). */
  validate(owner: Owner, postType: PostType, body: PostBody): Promise<Prepared> {
    return this.#i.validator.validate(owner, postType, body);
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
   * The ledger post and targets of a claimed queue entry (scheduled-run.ts); undefined when the claim was lost. The
   * targets are left pending for the caller's run.
   */
  recordScheduledRun(
    r: ScheduledRunRecord,
    claim: (tx: Db, postId: string) => Promise<boolean>,
  ): Promise<{ postId: string; rows: TargetRow[]; conns: (ConnectionRow | undefined)[] } | undefined> {
    return recordScheduledRun(this.#i, r, claim);
  }

  /** A target's result as the post routes show it. */
  resultOf(row: TargetRow): TargetOutcome {
    return TargetRunner.resultOf(row, this.#i.registry);
  }

  /** POST /unified/posts/{id}/retry for a post published now: its failed targets run again (retry.ts). */
  retry(p: Principal, post: PostRow): Promise<TargetOutcome[]> {
    return retryFailed(this.#i, p, post);
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
      if (prior) return answerPrior(this.#i, prior, hash);
    }
    // A network's unmet requirement fails it alone, unless the caller answers for scheduled entries only.
    const { targets, imported, media } = await this.#i.validator.prepare(p, postType, body, {
      perNetworkFailures: !o.respond,
    });
    const now = this.#i.clock();
    const when = new Map<Platform, Date>();
    for (const t of targets) {
      if (!t.scheduledTime || t.draft || t.failure || when.has(t.platform)) continue;
      const own = (body[t.platform as keyof PostBody] as { scheduled_time?: string } | undefined)?.scheduled_time;
      when.set(
        t.platform,
        this.#i.schedule.parseTime(t.scheduledTime, now, own ? `${t.platform}.scheduled_time` : 'scheduled_time'),
      );
    }
    const conns = await this.#i.connections.list(p.workspaceId);
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
    const live = <R extends Pick<TargetRow, 'state'>>(w: { rows: R[] }) => w.rows.filter((r) => r.state !== 'draft');
    const scheduledRefs = (entries: ScheduledEntryRef[]) =>
      entries.map((e) => ({
        platform: e.platform,
        scheduled_post_id: e.id,
        scheduled_time: e.scheduledTime.toISOString(),
      }));
    const lease = idempotency
      ? { owner: randomUUID(), until: new Date(this.#i.clock().getTime() + leaseMs(this.#i)) }
      : undefined;
    const fromDraft = o.fromDraft;
    const writes = {
      ledger: this.ledger,
      credits: this.#i.credits,
      drafts: this.#i.drafts,
      schedule: this.#i.schedule,
      overrideKeys: this.#i.registry.overrideKeys,
    };
    const submission = {
      p,
      postType,
      request: body,
      stored: withImportedMedia(this.#i.registry.networks, body, imported),
      placed,
      draftPlatforms,
      scheduled,
      slot: o.slot,
      idempotency,
      lease,
      requestHash: hash,
      displayName: (pl: Platform) => this.#i.registry.get(pl).displayName,
    };
    const replyParts = (w: PartsOf) => ({
      requested,
      targets: live(w).map((r) => r.id),
      drafts: w.drafts,
      scheduled: scheduledRefs(w.entries),
    });
    const inTx = fromDraft ? (tx: Db) => this.#i.drafts.remove(p.workspaceId, fromDraft, tx) : undefined;
    let written: Written;
    try {
      // Only targets to run now (the usual publish): one statement, no transaction around it.
      written = writesAtOnce(submission, inTx)
        ? await writeAtOnce(this.#i.db, writes, submission, { replyParts })
        : await this.#i.db.transaction((tx) =>
            writeSubmission(tx as unknown as Db, writes, submission, {
              inTx,
              replyParts,
              // Without a target to run, the answer is known before the commit.
              respond: (w) =>
                live(w).some((r) => r.state !== 'failed')
                  ? undefined
                  : (o.respond?.(w.entries) ??
                    publishReply(
                      requested,
                      live(w).map((r) => TargetRunner.resultOf(r, this.#i.registry)),
                      w.drafts,
                      scheduledRefs(w.entries),
                    )),
            }),
          );
    } catch (err) {
      if (idempotency && isUniqueViolation(err)) {
        const prior = await this.ledger.findByKey(p.workspaceId, idempotency.key);
        if (prior) return answerPrior(this.#i, prior, hash);
      }
      throw err;
    }
    await this.#i.schedule.wake(written.entries);
    if (written.reply) return written.reply;
    const byRow = new Map(written.rows.map((r, i) => [r, placed[i]!]));
    const run = () =>
      Promise.all(
        live(written).map((row) =>
          row.state === 'failed'
            ? TargetRunner.resultOf(row, this.#i.registry)
            : this.runner.run(row, {
                attemptRecorded: true,
                known: { postType, connection: byRow.get(row)?.conn, media },
              }),
        ),
      );
    const parts = { requested, drafts: written.drafts, scheduled: scheduledRefs(written.entries) };
    return runHolding(this.#i, written.postId, lease?.owner, parts, run);
  }
}

export type { Platform };
export type { PublishReply, Prepared, PrepareOptions };
