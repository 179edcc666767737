// The one writer of a ledger post: the post, its targets and the post credits of the targets that have an
// account, inside the caller's transaction. Publishing now (submit.ts) and a scheduled entry's run
// (PublishingService.recordScheduledRun) both write through it.
import type { CreditService } from '../auth/credits.ts';
import type { Db } from '../db/client.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { Ledger, PostRow, TargetRow } from './ledger.ts';
import { writeTargets, type Placed } from './targets.ts';

export interface LedgerWrites {
  ledger: Ledger;
  credits: CreditService;
}

export interface LedgerPost {
  workspaceId: string;
  planId: string;
  postType: string;
  /** What the ledger records as the request (and an Idempotency-Key's record shows). */
  request: unknown;
  idempotencyKey: string | null;
  requestHash: string;
  actor: string;
  /** The claim's lease of a request with a key (its run's owner id and the lease's end). */
  lease?: { owner: string; until: Date } | undefined;
  placed: Placed[];
  /** The first attempt is recorded with the targets (the caller runs them right after the commit). */
  startNow: boolean;
  credit: { reason: string; reference?: string };
  displayName: (p: Platform) => string;
}

/**
 * Writes the post and its targets, then `claim` (the caller's guard inside the same transaction), then spends a
 * post credit per target with an account: a shortfall throws 402 and the caller's transaction leaves nothing
 * behind. Spent last, a limited plan's credit row stays locked only until the commit.
 */
export async function writeLedgerPost(
  tx: Db,
  d: LedgerWrites,
  e: LedgerPost,
  claim?: (postId: string) => Promise<void>,
): Promise<{ post: PostRow; rows: TargetRow[] }> {
  const post = await d.ledger.createPost(tx, {
    workspaceId: e.workspaceId,
    postType: e.postType,
    request: e.request,
    idempotencyKey: e.idempotencyKey,
    requestHash: e.requestHash,
    actor: e.actor,
    ...(e.lease ? { leaseUntil: e.lease.until, leaseOwner: e.lease.owner } : {}),
  });
  const rows = await writeTargets(tx, d.ledger, {
    postId: post.id,
    workspaceId: e.workspaceId,
    placed: e.placed,
    startNow: e.startNow,
    displayName: e.displayName,
  });
  await claim?.(post.id);
  const billable = e.placed.filter((t) => !t.planned.draft && !t.planned.failure && t.conn).length;
  if (billable)
    await d.credits.spend(
      {
        workspaceId: e.workspaceId,
        planId: e.planId,
        type: 'posts',
        amount: billable,
        reason: e.credit.reason,
        ...(e.credit.reference ? { reference: e.credit.reference } : {}),
      },
      tx,
    );
  return { post, rows };
}
