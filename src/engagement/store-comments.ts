// The engagement read model's comments: the comments and replies synced from the networks, stored per post, and the
// comment.received event of each one seen for the first time. Every statement is scoped by workspace.
import type { Db } from '../db/client.ts';
import { and, eq, inArray, sql } from '../db/orm.ts';
import { networkComments, networkPosts } from '../db/schema-engagement.ts';
import type { RemoteComment } from '../platforms/engagement.ts';
import {
  FIRST_COMMENT_STEP,
  FIRST_COMMENT_POSTED_PREFIX as POSTED_PREFIX,
  firstCommentOf,
} from '../publishing/index.ts';
import type { PostRow } from './store-posts.ts';

export type CommentRow = typeof networkComments.$inferSelect;
export type CommentView = Pick<
  CommentRow,
  | 'networkPostId'
  | 'platformCommentId'
  | 'parentCommentId'
  | 'text'
  | 'authorName'
  | 'authorId'
  | 'authorAvatarUrl'
  | 'commentedAt'
  | 'likeCount'
  | 'replyCount'
  | 'hidden'
> & {
  /** The first comment Herald posted under this post (from the ledger's journal): the account's own. */
  firstComment?: boolean;
};

/**
 * Stores comments (and their inline replies) of one post, as the network returned them; marks the post synced unless
 * `markSynced` is false (a page of replies). `ownAuthor` tells the connected account's own authors: their comments (and
 * the first comment Herald posted under the post, known from its ledger target's journal) raise no comment.received
 * event.
 */
export interface SaveOptions {
  markSynced?: boolean;
  ownAuthor?: (authorId: string | null) => boolean;
}

export async function saveComments(
  db: Db,
  workspaceId: string,
  platform: string,
  post: PostRow,
  comments: readonly RemoteComment[],
  at: Date,
  { markSynced = true, ownAuthor = () => false }: SaveOptions = {},
): Promise<void> {
  const flat: RemoteComment[] = [];
  const walk = (list: readonly RemoteComment[], parent: string | null) => {
    for (const c of list) {
      flat.push({ ...c, parentId: c.parentId ?? parent });
      if (c.replies?.length) walk(c.replies, c.id);
    }
  };
  walk(comments, null);
  const unique = [...new Map(flat.map((c) => [c.id, c])).values()];
  if (unique.length) {
    const upsert = db
      .insert(networkComments)
      .values(
        unique.map((c) => ({
          workspaceId,
          platform,
          networkPostId: post.id,
          platformCommentId: c.id,
          parentCommentId: c.parentId,
          text: c.text,
          authorName: c.authorName,
          authorId: c.authorId,
          authorAvatarUrl: c.authorAvatarUrl,
          commentedAt: c.createdAt ? new Date(c.createdAt) : null,
          likeCount: c.likeCount,
          replyCount: c.replyCount,
          hidden: c.hidden ?? false,
          refs: c.refs ?? {},
          syncedAt: at,
        })),
      )
      .onConflictDoUpdate({
        target: [networkComments.workspaceId, networkComments.platform, networkComments.platformCommentId],
        set: {
          text: sql`excluded.text`,
          authorName: sql`excluded.author_name`,
          authorAvatarUrl: sql`excluded.author_avatar_url`,
          likeCount: sql`excluded.like_count`,
          replyCount: sql`excluded.reply_count`,
          hidden: sql`excluded.hidden`,
          refs: sql`excluded.refs`,
          syncedAt: sql`excluded.synced_at`,
        },
      })
      .returning({
        ws: sql<string>`${networkComments.workspaceId}`.as('ws'),
        net: sql<string>`${networkComments.platform}`.as('net'),
        cid: sql<string>`${networkComments.platformCommentId}`.as('cid'),
        author: sql<string>`${networkComments.authorName}`.as('author'),
        body: sql<string>`${networkComments.text}`.as('body'),
        at: sql<string>`${networkComments.commentedAt}`.as('at'),
      });
    // Comments seen for the first time are comment.received events, written by the same statement; not the account's
    // own (by its authors, or the first comment Herald posted: the posted step of the target's journal names it).
    const own = unique.filter((c) => ownAuthor(c.authorId ?? null)).map((c) => sql`${c.id}`);
    const firstComment = post.postTargetId
      ? sql`and cid is distinct from (select case when t.journal->>${FIRST_COMMENT_STEP} like ${`${POSTED_PREFIX}%`}
          then (t.journal->>${FIRST_COMMENT_STEP})::jsonb->>'id' end
          from post_targets t where t.id = ${post.postTargetId}::uuid)`
      : sql``;
    await db.execute(sql`
      with known as (
        select platform_comment_id from network_comments
        where workspace_id = ${workspaceId}::uuid and platform = ${platform}
          and platform_comment_id in (${sql.join(
            unique.map((c) => sql`${c.id}`),
            sql`, `,
          )})
      ),
      saved as (${upsert.getSQL()})
      insert into events (workspace_id, type, platform, data, occurred_at)
      select ws, 'comment.received', net,
        jsonb_build_object('platform', net, 'platform_post_id', ${post.platformPostId}::text, 'comment_id', cid,
          'author', author, 'text', body,
          'created_at', to_char(saved.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
        ${at.toISOString()}::timestamptz
      from saved where cid not in (select platform_comment_id from known)
        ${own.length ? sql`and cid not in (${sql.join(own, sql`, `)})` : sql``} ${firstComment}`);
  }
  if (markSynced) await db.update(networkPosts).set({ commentsSyncedAt: at }).where(eq(networkPosts.id, post.id));
}

/**
 * Every stored comment and reply of these posts, oldest first: the fields the inbox shows. The rows come back as
 * one JSON array (json_agg) rather than row by row: an inbox is thousands of rows, and decoding one JSON value is
 * several times cheaper than decoding each row's columns (the embedded database's wire decoding dominated reads).
 */
export async function commentsOf(
  db: Db,
  workspaceId: string,
  networkPostIds: readonly string[],
): Promise<CommentView[]> {
  if (!networkPostIds.length) return [];
  // With each comment, the first-comment step of the ledger target that published its post (when Herald did): the
  // comment is the account's own first comment when that step posted it.
  const result = await db.execute<{ rows: string | null }>(sql`
    select coalesce(json_agg(json_build_array(c.network_post_id, c.platform_comment_id, c.parent_comment_id, c.text,
      c.author_name, c.author_id, c.author_avatar_url, c.commented_at, c.like_count, c.reply_count, c.hidden,
      t.journal->>${FIRST_COMMENT_STEP})
      order by c.commented_at asc nulls first, c.synced_at), '[]')::text as rows
    from network_comments c
    left join network_posts np on np.id = c.network_post_id
    left join post_targets t on t.id = np.post_target_id
    where c.workspace_id = ${workspaceId} and c.network_post_id in (${sql.join(
      networkPostIds.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  const text = (result as unknown as { rows: { rows: string | null }[] }).rows[0]?.rows ?? '[]';
  const list = JSON.parse(text) as [
    string,
    string,
    string | null,
    string,
    string,
    string | null,
    string | null,
    string | null,
    number,
    number,
    boolean,
    string | null,
  ][];
  const posted = new Map<string, string | undefined>();
  const postedId = (step: string | null): string | undefined => {
    if (!step) return undefined;
    if (!posted.has(step)) posted.set(step, firstCommentOf({ [FIRST_COMMENT_STEP]: step }, false, true)?.id);
    return posted.get(step);
  };
  return list.map(
    ([
      networkPostId,
      platformCommentId,
      parentCommentId,
      body,
      authorName,
      authorId,
      authorAvatarUrl,
      commentedAt,
      likeCount,
      replyCount,
      hidden,
      firstCommentStep,
    ]) => ({
      networkPostId,
      platformCommentId,
      parentCommentId,
      text: body,
      authorName,
      authorId,
      authorAvatarUrl,
      commentedAt: commentedAt ? new Date(commentedAt) : null,
      likeCount: Number(likeCount),
      replyCount: Number(replyCount),
      hidden,
      firstComment: postedId(firstCommentStep) === platformCommentId,
    }),
  );
}

/** A synced comment of this workspace with its post, or undefined. */
export async function comment(
  db: Db,
  workspaceId: string,
  platform: string,
  platformCommentId: string,
): Promise<{ comment: CommentRow; post: PostRow } | undefined> {
  const [row] = await db
    .select({ comment: networkComments, post: networkPosts })
    .from(networkComments)
    .innerJoin(networkPosts, eq(networkPosts.id, networkComments.networkPostId))
    .where(
      and(
        eq(networkComments.workspaceId, workspaceId),
        eq(networkComments.platform, platform),
        eq(networkComments.platformCommentId, platformCommentId),
      ),
    );
  return row;
}

/** How many comments and replies are stored for these posts. */
export async function commentCount(db: Db, workspaceId: string, networkPostIds: readonly string[]): Promise<number> {
  if (!networkPostIds.length) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(networkComments)
    .where(
      and(eq(networkComments.workspaceId, workspaceId), inArray(networkComments.networkPostId, [...networkPostIds])),
    );
  return Number(row?.n ?? 0);
}
