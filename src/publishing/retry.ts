// A post's retry: its failed targets run again, each a new attempt charged in the claim's transaction.
import type { Principal } from '../auth/authenticate.ts';
import type { Db } from '../db/client.ts';
import type { PostRow } from './ledger.ts';
import type { TargetOutcome } from './results.ts';
import type { Internals } from './service-types.ts';

/**
 * POST /unified/posts/{id}/retry for a post published now: its failed targets run again (a new attempt each, a post
 * credit each, charged in the claim's transaction), the others are left alone — a published target is never sent
 * twice, and a retry while another runs finds nothing failed. A target that failed for want of an account takes
 * the workspace's connected account of its network, if there is one now. The post's outcome event follows.
 */
export async function retryFailed(d: Internals, p: Principal, post: PostRow): Promise<TargetOutcome[]> {
  const targets = await d.ledger.targetsOf(post.id);
  const failed = targets.filter((t) => t.state === 'failed');
  if (!failed.length) return [];
  const conns = failed.some((t) => !t.connectionId) ? await d.connections.list(p.workspaceId) : [];
  const accounts = new Map<string, string>();
  for (const t of failed) {
    const conn = t.connectionId ? undefined : conns.find((c) => c.platform === t.platform && c.status === 'connected');
    if (conn) accounts.set(t.id, conn.id);
  }
  const claimed = await d.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const rows = await d.ledger.claimFailed(tx, post.id, accounts);
    if (rows.length)
      await d.credits.spend(
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
    d.logger.info({ network: row.platform, post: post.id, target: row.id, attempt: row.attempts }, 'target retried');
  const outcomes = await Promise.all(
    claimed.map((row) => d.runner.run(row, { attemptRecorded: true, source: 'retry' })),
  );
  await d.ledger.closeRetry(post.id);
  return outcomes;
}
