// The write half of submit: everything a checked request creates, in ONE transaction — the
// Idempotency-Key claim, the credits, the ledger post and its targets (run now), the queue entries
// (scheduled) and the drafts. Nothing here calls a network; the service runs the "now" targets after
// the commit.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/authenticate.ts';
import { sql } from '../db/orm.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { Db } from '../db/client.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { DraftService } from './drafts.ts';
import type { IdempotencyClaim, ReplyParts } from './idempotency.ts';
import type { TargetRow } from './ledger.ts';
import { writeLedgerPost, type LedgerWrites } from './ledger-post.ts';
import type { DraftRef, PublishReply } from './results.ts';
import type { PostBody } from './schemas.ts';
import { storedBody } from './stored-body.ts';
import { targetValues, type Placed } from './targets.ts';

/** A queue entry as submit creates it; scheduling owns the table and its rules. */
export interface NewScheduledEntry {
  workspaceId: string;
  platform: Platform;
  platformUserId: string | null;
  postType: PostType;
  postData: PostBody;
  scheduledTime: Date;
  actor: string;
  /** The posting queue slot the entry takes, if any. */
  queueSlotId?: string | null;
  /** Held by a paused queue: not published until it resumes. */
  held?: boolean;
}

/** A slot a posting queue gave the request (scheduling takes it inside the submit transaction). */
export interface QueueSlotClaim {
  at: Date;
  queueSlotId: string;
  held: boolean;
}

export interface ScheduledEntryRef {
  id: string;
  platform: string;
  scheduledTime: Date;
}

/** What submit needs of scheduling, given to it at construction (publishing never imports scheduling). */
export interface ScheduleWriter {
  /** A scheduled_time from the request, checked (future, real date); `field` names it in errors. */
  parseTime(value: string, now: Date, field: string): Date;
  /** Inserts the entries inside the caller's transaction. */
  add(tx: Db, entries: NewScheduledEntry[]): Promise<ScheduledEntryRef[]>;
  /** Inserts many entries inside the caller's transaction, returning only their references (no rows). */
  addMany(tx: Db, entries: NewScheduledEntry[]): Promise<ScheduledEntryRef[]>;
  /** After the commit: wake-ups at each entry's time. */
  wake(entries: ScheduledEntryRef[]): Promise<void>;
}

export interface Submission {
  p: Principal;
  postType: PostType;
  /** The request body as received (the ledger records it). */
  request: PostBody;
  /** The body with URL media replaced by the library ids they were imported as (what is stored). */
  stored: PostBody;
  /** Targets to run now (and drafts' ledger rows), with their accounts. */
  placed: Placed[];
  draftPlatforms: Platform[];
  scheduled: Map<Platform, { at: Date; platformUserId: string | null }>;
  /** Takes a posting queue's slot in the transaction: its time replaces every entry's. */
  slot?: ((tx: Db) => Promise<QueueSlotClaim>) | undefined;
  idempotency: IdempotencyClaim | undefined;
  /** The claim's lease when the request has a key (its run's owner id and the lease's end). */
  lease?: { owner: string; until: Date } | undefined;
  /** The canonical request's hash, recorded on the ledger post. */
  requestHash: string;
  displayName: (p: Platform) => string;
}

export interface Written {
  postId: string | undefined;
  rows: TargetRow[];
  drafts: DraftRef[];
  entries: ScheduledEntryRef[];
  /** The answer, when it does not wait for any network (stored with the key in the same transaction). */
  reply: PublishReply<object> | undefined;
}

export interface SubmitWrites extends LedgerWrites {
  drafts: DraftService;
  schedule: ScheduleWriter;
  /** The registry's networks with an override object (a queue entry keeps only its own). */
  overrideKeys: readonly string[];
}

/** What the reply parts are made of: the targets' ids and states (known before the rows are written). */
export interface PartsOf {
  rows: Pick<TargetRow, 'id' | 'state'>[];
  drafts: DraftRef[];
  entries: ScheduledEntryRef[];
}

const actorOf = (p: Principal) => (p.keyId ? `key:${p.keyId}` : `user:${p.user?.id}`);

export async function writeSubmission(
  tx: Db,
  d: SubmitWrites,
  s: Submission,
  o: {
    respond: (w: Omit<Written, 'reply'>) => PublishReply<object> | undefined;
    /** What a resumed run needs to answer, stored with a running claim (only requests with a key are resumed). */
    replyParts: (w: PartsOf) => ReplyParts;
    inTx?: ((tx: Db) => Promise<void>) | undefined;
  },
): Promise<Written> {
  const { p } = s;
  const actor = actorOf(p);
  // The ledger post is the key's claim: first, so a concurrent duplicate waits here until this commits,
  // then finds the key taken (and replays this answer) before it touches the credits.
  const needsPost = s.idempotency !== undefined || s.placed.length > 0;
  const written = needsPost
    ? await writeLedgerPost(tx, d, {
        workspaceId: p.workspaceId,
        planId: p.planId,
        postType: s.postType,
        request: s.idempotency?.request ?? s.request,
        idempotencyKey: s.idempotency?.key ?? null,
        requestHash: s.idempotency?.requestHash ?? s.requestHash,
        actor,
        ...(s.idempotency && s.lease ? { lease: s.lease } : {}),
        placed: s.placed,
        startNow: true,
        credit: { reason: 'publish' },
        displayName: s.displayName,
      })
    : undefined;
  const post = written?.post;
  const rows = written?.rows ?? [];
  // Credits in the same transaction as what they pay for (the writer above spent the post credits): a 402 leaves
  // nothing behind.
  if (s.scheduled.size)
    await d.credits.spend(
      {
        workspaceId: p.workspaceId,
        planId: p.planId,
        type: 'scheduled_posts',
        amount: s.scheduled.size,
        reason: 'schedule',
      },
      tx,
    );
  const slot = s.slot && s.scheduled.size ? await s.slot(tx) : undefined;
  const entries = await d.schedule.add(
    tx,
    [...s.scheduled].map(([platform, e]) => ({
      ...(slot ? { queueSlotId: slot.queueSlotId, held: slot.held } : {}),
      workspaceId: p.workspaceId,
      platform,
      platformUserId: e.platformUserId,
      postType: s.postType,
      postData: storedBody(s.stored, platform, d.overrideKeys),
      scheduledTime: slot?.at ?? e.at,
      actor,
    })),
  );
  // Drafts keep the library ids of imported URLs, so publishing them later downloads nothing.
  const drafts = s.draftPlatforms.length
    ? await d.drafts.saveFromPost(p.workspaceId, s.postType, s.stored, s.draftPlatforms, post?.id ?? null, tx)
    : [];
  await o.inTx?.(tx);
  const done = { postId: post?.id, rows, drafts, entries };
  const reply = o.respond(done);
  if (post && reply) await d.ledger.finishPost(post.id, reply.body, reply.status, tx);
  else if (post && s.idempotency) await d.ledger.setReplyParts(tx, post.id, o.replyParts(done));
  return { ...done, reply };
}

/**
 * Whether the submission is only targets to run now (no drafts, queue entries, posting-queue slot or work of the
 * caller's in the transaction) with at least one that will run: its answer waits for the networks, so nothing but
 * the post, its targets and their credits is written before they run — in one statement (`writeAtOnce`).
 */
export function writesAtOnce(s: Submission, inTx: unknown): boolean {
  return (
    !inTx &&
    !s.slot &&
    s.scheduled.size === 0 &&
    s.draftPlatforms.length === 0 &&
    s.placed.some((t) => !t.planned.draft && !t.planned.failure && t.conn)
  );
}

/**
 * `writeSubmission` for a submission `writesAtOnce` accepts, without a transaction: the ledger post (the
 * Idempotency-Key's claim, with its lease and reply parts), its targets and their post credits in ONE data-modifying
 * statement. A limited plan's credits are checked in it: a shortfall writes nothing and throws the same 402; a
 * duplicate key fails the statement with the same unique violation, and nothing is half-written.
 */
export async function writeAtOnce(
  db: Db,
  d: SubmitWrites,
  s: Submission,
  o: { replyParts: (w: PartsOf) => ReplyParts },
): Promise<Written> {
  const { p } = s;
  const postId = randomUUID();
  const targets = targetValues({
    postId,
    workspaceId: p.workspaceId,
    placed: s.placed,
    startNow: true,
    displayName: s.displayName,
  }).map((t) => ({ ...t, id: randomUUID() }));
  const billable = targets.filter((t) => t.creditSpent).length;
  const spend = d.credits.spendParts(
    { workspaceId: p.workspaceId, planId: p.planId, type: 'posts', amount: billable, reason: 'publish' },
    sql`p`,
  );
  const rows = await d.ledger.createPostAtOnce(
    db,
    {
      id: postId,
      workspaceId: p.workspaceId,
      postType: s.postType,
      request: s.idempotency?.request ?? s.request,
      idempotencyKey: s.idempotency?.key ?? null,
      requestHash: s.idempotency?.requestHash ?? s.requestHash,
      actor: actorOf(p),
      ...(s.idempotency && s.lease ? { leaseUntil: s.lease.until, leaseOwner: s.lease.owner } : {}),
      ...(s.idempotency ? { replyParts: o.replyParts({ rows: targets, drafts: [], entries: [] }) } : {}),
    },
    targets,
    spend,
  );
  if (rows.length === 0) {
    if (spend.guard) return spend.refuse();
    throw new Error('the ledger post was not written');
  }
  spend.spent();
  return { postId, rows, drafts: [], entries: [], reply: undefined };
}
