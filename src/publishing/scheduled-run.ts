// A claimed queue entry's ledger post: written by the same writer as publishing now, in one transaction with the
// scheduling claim that links the entry to it.
import type { Db } from '../db/client.ts';
import { writeLedgerPost } from './ledger-post.ts';
import type { TargetRow } from './ledger.ts';
import type { ConnectionRow } from '../connections/store.ts';
import type { Internals, ScheduledRunRecord } from './service-types.ts';
import { connectionFor } from './targets.ts';

/** Thrown inside the ledger transaction when the caller's claim was lost: rolls it back. */
class ClaimLost extends Error {}

/**
 * The ledger post and targets of a claimed queue entry, written by the same writer as publishing now, in ONE
 * transaction with `claim` (scheduling links the entry there while its claim holds; false rolls everything back).
 * Undefined when the claim was lost. The targets with an account are written started ('processing', attempt 1):
 * the caller runs them right after the commit.
 */
export async function recordScheduledRun(
  d: Internals,
  r: ScheduledRunRecord,
  claim: (tx: Db, postId: string) => Promise<boolean>,
): Promise<{ postId: string; rows: TargetRow[]; conns: (ConnectionRow | undefined)[] } | undefined> {
  const conns = r.connections ?? (await d.connections.list(r.workspaceId));
  const placed = r.planned.map((t) => ({ planned: t, conn: connectionFor(conns, t) }));
  try {
    return await d.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const { post, rows } = await writeLedgerPost(
        tx,
        { ledger: d.ledger, credits: d.credits },
        {
          workspaceId: r.workspaceId,
          planId: r.planId,
          postType: r.postType,
          request: r.request,
          idempotencyKey: null,
          requestHash: `scheduled:${r.entryId}`,
          actor: r.actor,
          placed,
          // The first attempt is recorded here: this transaction holds the entry under the caller's claim, so its
          // commit is the last check before the network (a cancellation committed first rolls it all back).
          startNow: true,
          credit: { reason: 'scheduled_publish', reference: r.entryId },
          displayName: (pl) => d.registry.get(pl).displayName,
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
