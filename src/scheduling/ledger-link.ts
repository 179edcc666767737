// The ledger post and targets of one scheduled post, written in ONE transaction together with the
// link (scheduled_posts.post_id) and only while this worker still holds the claim: so there is never
// a second ledger post for the same scheduled post, and a resumed run finds the same targets.
import type { Principal } from '../auth/authenticate.ts';
import type { CreditService } from '../auth/credits.ts';
import type { ConnectionStore } from '../connections/store.ts';
import type { Db } from '../db/client.ts';
import { and, eq, isNull } from '../db/orm.ts';
import { scheduledPosts } from '../db/schema-scheduling.ts';
import type { Ledger } from '../publishing/ledger.ts';
import type { PlannedTarget } from '../publishing/plan.ts';
import { connectionFor, specOf } from '../publishing/targets.ts';
import type { ScheduledRow } from './store.ts';

/** Returns the new ledger post id, or undefined when the claim was lost (cancelled, or taken over). */
export async function buildLedger(
  d: { db: Db; ledger: Ledger; credits: CreditService; connections: ConnectionStore },
  p: Principal,
  row: ScheduledRow,
  workerId: string,
  targets: PlannedTarget[],
): Promise<string | undefined> {
  const conns = await d.connections.list(p.workspaceId);
  const chosen = targets.map((t) => ({ t, conn: connectionFor(conns, t) }));
  return d.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [mine] = await tx
      .select({ id: scheduledPosts.id })
      .from(scheduledPosts)
      .where(and(eq(scheduledPosts.id, row.id), eq(scheduledPosts.status, 'publishing'), eq(scheduledPosts.claimedBy, row.claimedBy ?? workerId), isNull(scheduledPosts.postId)))
      .for('update');
    if (!mine) return undefined;
    const post = await d.ledger.createPost(tx, { workspaceId: p.workspaceId, postType: row.postType, request: row.postData, idempotencyKey: null, requestHash: `scheduled:${row.id}`, actor: `scheduler:${workerId}` });
    for (const { t, conn } of chosen) {
      await d.ledger.addTarget(tx, {
        postId: post.id,
        workspaceId: p.workspaceId,
        platform: t.platform,
        connectionId: conn?.id ?? null,
        platformUserId: conn?.accountId ?? null,
        destinationKind: t.destination?.kind ?? null,
        destinationId: t.destination?.id ?? null,
        state: conn ? 'pending' : 'failed',
        spec: specOf(t),
        creditSpent: Boolean(conn),
        ...(!conn ? { errorCode: 'NOT_CONNECTED', errorMessage: `${t.platform} is not connected for this workspace.` } : {}),
      });
    }
    // A post credit per target, as for publishing now; a shortfall fails the entry (402 message) before any
    // network call. Spent last: the workspace's credit row stays locked only until the commit just after.
    const billable = chosen.filter((c) => c.conn).length;
    if (billable) await d.credits.spend({ workspaceId: p.workspaceId, planId: p.planId, type: 'posts', amount: billable, reason: 'scheduled_publish', reference: row.id }, tx);
    await tx.update(scheduledPosts).set({ postId: post.id }).where(eq(scheduledPosts.id, row.id));
    return post.id;
  });
}
