// The inbox's read state: which comments a member has read, per workspace, by network and comment id. It is the
// member's own (every statement is scoped by workspace and user) and survives re-syncs of the comments themselves.
import type { Db } from '../db/client.ts';
import { and, desc, eq, sql } from '../db/orm.ts';
import { commentReads } from '../db/schema-engagement.ts';

/** The most read ids kept per member and workspace: the oldest reads beyond it are forgotten. */
export const READS_KEPT = 5000;

export interface ReadRef {
  platform: string;
  comment_id: string;
}

/** The member's read comments, the most recently read first (at most READS_KEPT). */
export async function readComments(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<(ReadRef & { read_at: Date })[]> {
  const rows = await db
    .select({ platform: commentReads.platform, comment_id: commentReads.commentId, read_at: commentReads.readAt })
    .from(commentReads)
    .where(and(eq(commentReads.workspaceId, workspaceId), eq(commentReads.userId, userId)))
    .orderBy(desc(commentReads.readAt), desc(commentReads.commentId))
    .limit(READS_KEPT);
  return rows;
}

/** Marks comments read (again: the time moves); then forgets this member's reads beyond READS_KEPT. */
export async function markRead(
  db: Db,
  workspaceId: string,
  userId: string,
  refs: readonly ReadRef[],
  at: Date,
): Promise<void> {
  if (!refs.length) return;
  const unique = [...new Map(refs.map((r) => [`${r.platform}:${r.comment_id}`, r])).values()];
  await db
    .insert(commentReads)
    .values(unique.map((r) => ({ workspaceId, userId, platform: r.platform, commentId: r.comment_id, readAt: at })))
    .onConflictDoUpdate({
      target: [commentReads.workspaceId, commentReads.userId, commentReads.platform, commentReads.commentId],
      set: { readAt: at },
    });
  await db.execute(sql`
    delete from comment_reads
    where workspace_id = ${workspaceId}::uuid and user_id = ${userId}::uuid
      and (platform, comment_id) in (
        select platform, comment_id from comment_reads
        where workspace_id = ${workspaceId}::uuid and user_id = ${userId}::uuid
        order by read_at desc, comment_id desc
        offset ${READS_KEPT}
      )`);
}
