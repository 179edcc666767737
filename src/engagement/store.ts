// The engagement read model in the database: posts with their latest numbers, a snapshot per refresh, and synced
// comments. Every statement is scoped by workspace; a network id alone never finds a row.
import { and, eq, inArray, isNull, or, orm, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { networkComments, networkPosts, postMetricSnapshots } from '../db/schema-engagement.ts';
import { media } from '../db/schema-media.ts';
import { posts as ledgerPosts, postTargets } from '../db/schema-publishing.ts';
import type { RemoteComment, RemotePost } from '../platforms/engagement.ts';

const { getTableColumns } = orm;

export type PostRow = typeof networkPosts.$inferSelect;
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
>;
export type SnapshotRow = typeof postMetricSnapshots.$inferSelect;

/** Which posts of a network a read covers: the account's own (`null`) and/or these destination ids. */
export type Sources = readonly (string | null)[];

function sourceFilter(sources: Sources) {
  const ids = sources.filter((s): s is string => s !== null);
  const parts = [];
  if (sources.includes(null)) parts.push(isNull(networkPosts.sourcePageId));
  if (ids.length) parts.push(inArray(networkPosts.sourcePageId, ids));
  return parts.length === 1 ? parts[0]! : or(...parts)!;
}

export class EngagementStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /**
   * Stores what the network answered for these posts (fields and numbers), links each to the ledger target that
   * published it, and snapshots the numbers. One statement per table, whatever the number of posts.
   */
  async savePosts(
    workspaceId: string,
    platform: string,
    posts: readonly { post: RemotePost; sourcePageId: string | null }[],
    at: Date,
  ): Promise<PostRow[]> {
    if (!posts.length) return [];
    const ids = posts.map((p) => p.post.postId);
    const targets = await this.#db
      .select({ id: postTargets.id, platformPostId: postTargets.platformPostId })
      .from(postTargets)
      .where(
        and(
          eq(postTargets.workspaceId, workspaceId),
          eq(postTargets.platform, platform),
          inArray(postTargets.platformPostId, ids),
        ),
      );
    const targetOf = new Map(targets.map((t) => [t.platformPostId, t.id]));
    // The same post listed twice (two destinations' feeds) is stored once.
    const unique = [...new Map(posts.map((p) => [p.post.postId, p])).values()];
    const values = unique.map(({ post, sourcePageId }) => ({
      workspaceId,
      platform,
      platformPostId: post.postId,
      sourcePageId: post.sourcePageId ?? sourcePageId,
      postTargetId: targetOf.get(post.postId) ?? null,
      commentary: post.commentary,
      postType: post.type,
      publishedAt: post.publishedAt ? new Date(post.publishedAt) : null,
      permalink: post.permalink,
      images: post.images,
      videos: post.video,
      likes: post.metrics.likes,
      comments: post.metrics.comments,
      shares: post.metrics.shares,
      impressions: post.metrics.impressions,
      reach: post.metrics.reach ?? null,
      commentsDisabled: post.commentsDisabled ?? false,
      deletedAt: null,
      refreshedAt: at,
    }));
    const rows = await this.#db
      .insert(networkPosts)
      .values(values)
      .onConflictDoUpdate({
        target: [networkPosts.workspaceId, networkPosts.platform, networkPosts.platformPostId],
        set: {
          sourcePageId: sql`excluded.source_page_id`,
          postTargetId: sql`coalesce(excluded.post_target_id, ${networkPosts.postTargetId})`,
          commentary: sql`excluded.commentary`,
          postType: sql`excluded.post_type`,
          publishedAt: sql`excluded.published_at`,
          permalink: sql`excluded.permalink`,
          images: sql`excluded.images`,
          videos: sql`excluded.videos`,
          likes: sql`excluded.likes`,
          comments: sql`excluded.comments`,
          shares: sql`excluded.shares`,
          impressions: sql`excluded.impressions`,
          reach: sql`excluded.reach`,
          commentsDisabled: sql`excluded.comments_disabled`,
          deletedAt: sql`null`,
          refreshedAt: sql`excluded.refreshed_at`,
        },
      })
      .returning();
    await this.#db.insert(postMetricSnapshots).values(
      rows.map((r) => ({
        networkPostId: r.id,
        workspaceId,
        takenAt: at,
        likes: r.likes,
        comments: r.comments,
        shares: r.shares,
        impressions: r.impressions,
        reach: r.reach,
      })),
    );
    return rows;
  }

  /**
   * The newest stored posts of several networks' sources at once (one statement): at most `limit` per network and
   * source, newest first, by network.
   */
  async recentPostsOf(
    workspaceId: string,
    wanted: readonly { platform: string; sources: Sources }[],
    limit: number,
  ): Promise<Map<string, PostRow[]>> {
    const out = new Map<string, PostRow[]>(wanted.map((w) => [w.platform, []]));
    if (!wanted.length) return out;
    const p = networkPosts;
    const ranked = this.#db
      .select({
        ...getTableColumns(p),
        rn: sql<number>`row_number() over (partition by ${p.platform}, ${p.sourcePageId} order by ${p.publishedAt} desc nulls last, ${p.refreshedAt} desc)`.as(
          'rn',
        ),
      })
      .from(p)
      .where(
        and(
          eq(p.workspaceId, workspaceId),
          isNull(p.deletedAt),
          inArray(
            p.platform,
            wanted.map((w) => w.platform),
          ),
        ),
      )
      .as('ranked');
    const rows = await this.#db.select().from(ranked).where(sql`${ranked.rn} <= ${limit}`);
    const sourcesOf = new Map(wanted.map((w) => [w.platform, w.sources]));
    for (const { rn: _rn, ...row } of rows) {
      if (!sourcesOf.get(row.platform)?.includes(row.sourcePageId)) continue;
      out.get(row.platform)!.push(row);
    }
    for (const list of out.values())
      list.sort((a, b) => (b.publishedAt?.getTime() ?? 0) - (a.publishedAt?.getTime() ?? 0));
    return out;
  }

  /** A stored post of this workspace (deleted ones too), or undefined. */
  async post(workspaceId: string, platform: string, platformPostId: string): Promise<PostRow | undefined> {
    const [row] = await this.#db
      .select()
      .from(networkPosts)
      .where(
        and(
          eq(networkPosts.workspaceId, workspaceId),
          eq(networkPosts.platform, platform),
          eq(networkPosts.platformPostId, platformPostId),
        ),
      );
    return row;
  }

  /** The ledger target of this workspace that published this post, when Herald did, with what the ledger knows of it. */
  async publishedTarget(
    workspaceId: string,
    platform: string,
    platformPostId: string,
  ): Promise<
    (PublishedPost & { id: string; destinationId: string | null; destinationKind: string | null }) | undefined
  > {
    const [row] = await this.#db
      .select({
        id: postTargets.id,
        destinationId: postTargets.destinationId,
        destinationKind: postTargets.destinationKind,
        ...publishedFields,
      })
      .from(postTargets)
      .innerJoin(ledgerPosts, eq(ledgerPosts.id, postTargets.postId))
      .where(
        and(
          eq(postTargets.workspaceId, workspaceId),
          eq(postTargets.platform, platform),
          eq(postTargets.platformPostId, platformPostId),
        ),
      )
      .limit(1);
    return row && { ...row, ...publishedOf(row) };
  }

  /**
   * A post deleted at its network: the read model's row and the ledger target say so, and post.deleted is written,
   * in one statement (only the first time).
   */
  async markDeleted(workspaceId: string, platform: string, platformPostId: string, at: Date): Promise<void> {
    const when = sql`${at.toISOString()}::timestamptz`;
    const mine = sql`workspace_id = ${workspaceId}::uuid and platform = ${platform} and platform_post_id = ${platformPostId}`;
    await this.#db.execute(sql`
      with np as (update network_posts set deleted_at = ${when} where ${mine} and deleted_at is null returning id),
      t as (
        update post_targets set deleted_at = ${when}, updated_at = ${when} where ${mine} and deleted_at is null
        returning post_id
      ),
      ev as (
        insert into events (workspace_id, type, post_id, platform, data, occurred_at)
        select ${workspaceId}::uuid, 'post.deleted', (select post_id from t limit 1), ${platform},
          jsonb_build_object('post_id', (select post_id from t limit 1), 'scheduled_post_id', null,
            'platforms', jsonb_build_array(${platform}::text), 'platform_post_id', ${platformPostId}::text),
          ${when}
        where exists (select 1 from np) or exists (select 1 from t)
      )
      select 1`);
  }

  async snapshots(workspaceId: string, networkPostId: string): Promise<SnapshotRow[]> {
    return this.#db
      .select()
      .from(postMetricSnapshots)
      .where(
        and(eq(postMetricSnapshots.workspaceId, workspaceId), eq(postMetricSnapshots.networkPostId, networkPostId)),
      )
      .orderBy(postMetricSnapshots.takenAt);
  }

  /** Stores comments (and their inline replies) of one post, as the network returned them; marks the post synced. */
  async saveComments(
    workspaceId: string,
    platform: string,
    post: PostRow,
    comments: readonly RemoteComment[],
    at: Date,
    markSynced = true,
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
      const upsert = this.#db
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
      // Comments seen for the first time are comment.received events, written by the same statement.
      await this.#db.execute(sql`
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
        from saved where cid not in (select platform_comment_id from known)`);
    }
    if (markSynced)
      await this.#db.update(networkPosts).set({ commentsSyncedAt: at }).where(eq(networkPosts.id, post.id));
  }

  /**
   * Every stored comment and reply of these posts, oldest first: the fields the inbox shows. The rows come back as
   * one JSON array (json_agg) rather than row by row: an inbox is thousands of rows, and decoding one JSON value is
   * several times cheaper than decoding each row's columns (the embedded database's wire decoding dominated reads).
   */
  async commentsOf(workspaceId: string, networkPostIds: readonly string[]): Promise<CommentView[]> {
    if (!networkPostIds.length) return [];
    const c = networkComments;
    const result = await this.#db.execute<{ rows: string | null }>(sql`
      select coalesce(json_agg(json_build_array(${c.networkPostId}, ${c.platformCommentId}, ${c.parentCommentId}, ${c.text}, ${c.authorName},
        ${c.authorId}, ${c.authorAvatarUrl}, ${c.commentedAt}, ${c.likeCount}, ${c.replyCount}, ${c.hidden})
        order by ${c.commentedAt} asc nulls first, ${c.syncedAt}), '[]')::text as rows
      from ${c}
      where ${c.workspaceId} = ${workspaceId} and ${inArray(c.networkPostId, [...networkPostIds])}`);
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
    ][];
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
      }),
    );
  }

  /** A synced comment of this workspace with its post, or undefined. */
  async comment(
    workspaceId: string,
    platform: string,
    platformCommentId: string,
  ): Promise<{ comment: CommentRow; post: PostRow } | undefined> {
    const [row] = await this.#db
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

  /** Per network: posts, likes, comments and reach (reach, else impressions) of the stored, undeleted posts. */
  async totals(
    workspaceId: string,
    platforms: readonly string[],
    sourcesOf: (platform: string) => Sources | undefined,
  ): Promise<Map<string, { posts: number; likes: number; comments: number; reach: number; lastUpdated: Date | null }>> {
    const out = new Map<
      string,
      { posts: number; likes: number; comments: number; reach: number; lastUpdated: Date | null }
    >();
    for (const platform of platforms) {
      const sources = sourcesOf(platform);
      const [row] = await this.#db
        .select({
          posts: sql<number>`count(*)::int`,
          likes: sql<string>`coalesce(sum(${networkPosts.likes}), 0)`,
          comments: sql<string>`coalesce(sum(${networkPosts.comments}), 0)`,
          reach: sql<string>`coalesce(sum(coalesce(${networkPosts.reach}, ${networkPosts.impressions})), 0)`,
          last: sql<Date | null>`max(${networkPosts.refreshedAt})`,
        })
        .from(networkPosts)
        .where(
          and(
            eq(networkPosts.workspaceId, workspaceId),
            eq(networkPosts.platform, platform),
            isNull(networkPosts.deletedAt),
            ...(sources ? [sourceFilter(sources)] : []),
          ),
        );
      out.set(platform, {
        posts: Number(row?.posts ?? 0),
        likes: Number(row?.likes ?? 0),
        comments: Number(row?.comments ?? 0),
        reach: Number(row?.reach ?? 0),
        lastUpdated: row?.last ? new Date(row.last) : null,
      });
    }
    return out;
  }

  /** The ledger post id of each of these targets. */
  async ledgerPostIds(targetIds: readonly string[]): Promise<Map<string, string>> {
    if (!targetIds.length) return new Map();
    const rows = await this.#db
      .select({ id: postTargets.id, postId: postTargets.postId })
      .from(postTargets)
      .where(inArray(postTargets.id, [...new Set(targetIds)]));
    return new Map(rows.map((r) => [r.id, r.postId]));
  }

  async setCommentsDisabled(networkPostId: string, disabled: boolean): Promise<void> {
    await this.#db.update(networkPosts).set({ commentsDisabled: disabled }).where(eq(networkPosts.id, networkPostId));
  }

  /** These posts as stored now, in the order given. */
  async postsByIds(ids: readonly string[]): Promise<PostRow[]> {
    if (!ids.length) return [];
    const rows = await this.#db
      .select()
      .from(networkPosts)
      .where(inArray(networkPosts.id, [...ids]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  /** How many comments and replies are stored for these posts. */
  async commentCount(workspaceId: string, networkPostIds: readonly string[]): Promise<number> {
    if (!networkPostIds.length) return 0;
    const [row] = await this.#db
      .select({ n: sql<number>`count(*)::int` })
      .from(networkComments)
      .where(
        and(eq(networkComments.workspaceId, workspaceId), inArray(networkComments.networkPostId, [...networkPostIds])),
      );
    return Number(row?.n ?? 0);
  }

  /**
   * Posts Herald published from this workspace to one source (the account itself when `source` is null), newest
   * first: for networks that cannot list an account's posts but can count a known post's numbers.
   */
  async publishedTo(
    workspaceId: string,
    platform: string,
    source: string | null,
    limit: number,
  ): Promise<PublishedPost[]> {
    const rows = await this.#db
      .select(publishedFields)
      .from(postTargets)
      .innerJoin(ledgerPosts, eq(ledgerPosts.id, postTargets.postId))
      .where(
        and(
          eq(postTargets.workspaceId, workspaceId),
          eq(postTargets.platform, platform),
          eq(postTargets.state, 'published'),
          isNull(postTargets.deletedAt),
          sql`${postTargets.platformPostId} is not null`,
          source === null
            ? or(isNull(postTargets.destinationKind), eq(postTargets.destinationKind, 'personal'))!
            : eq(postTargets.destinationId, source),
        ),
      )
      .orderBy(sql`${postTargets.publishedAt} desc nulls last`)
      .limit(limit);
    return rows.map(publishedOf);
  }

  /**
   * For each network Herald published to from this workspace: when it last did, and when that network's stored posts
   * were last read from it (null if never), so a reader can tell a list that predates the newest publication.
   */
  async publishedAndRead(
    workspaceId: string,
    platforms: readonly string[],
  ): Promise<Map<string, { published: Date; read: Date | null }>> {
    const out = new Map<string, { published: Date; read: Date | null }>();
    if (!platforms.length) return out;
    const [published, read] = await Promise.all([
      this.#db
        .select({ platform: postTargets.platform, at: sql<Date | null>`max(${postTargets.publishedAt})` })
        .from(postTargets)
        .where(
          and(
            eq(postTargets.workspaceId, workspaceId),
            inArray(postTargets.platform, [...platforms]),
            eq(postTargets.state, 'published'),
            isNull(postTargets.deletedAt),
          ),
        )
        .groupBy(postTargets.platform),
      this.#db
        .select({ platform: networkPosts.platform, at: sql<Date | null>`max(${networkPosts.refreshedAt})` })
        .from(networkPosts)
        .where(and(eq(networkPosts.workspaceId, workspaceId), inArray(networkPosts.platform, [...platforms])))
        .groupBy(networkPosts.platform),
    ]);
    const readAt = new Map(read.map((r) => [r.platform, r.at ? new Date(r.at) : null]));
    for (const p of published)
      if (p.at) out.set(p.platform, { published: new Date(p.at), read: readAt.get(p.platform) ?? null });
    return out;
  }

  /** The images among this workspace's media ids, in the order asked (ids no longer stored, or videos, left out). */
  async imagesOf(
    workspaceId: string,
    ids: readonly string[],
  ): Promise<{ storageKey: string; width: number | null; height: number | null }[]> {
    if (!ids.length) return [];
    const rows = await this.#db
      .select({ id: media.id, storageKey: media.storageKey, width: media.width, height: media.height })
      .from(media)
      .where(and(eq(media.workspaceId, workspaceId), eq(media.mediaType, 'image'), inArray(media.id, [...ids])));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      return r ? [{ storageKey: r.storageKey, width: r.width, height: r.height }] : [];
    });
  }
}

/** What the ledger knows of a post Herald published: enough to show it where the network will not list it. */
export interface PublishedPost {
  platformPostId: string;
  permalink: string | null;
  publishedAt: Date | null;
  text: string | null;
  postType: string;
  /** The media library ids the post was published with. */
  mediaIds: string[];
}

const publishedFields = {
  platformPostId: postTargets.platformPostId,
  permalink: postTargets.permalink,
  publishedAt: postTargets.publishedAt,
  spec: postTargets.spec,
  postType: ledgerPosts.postType,
};

function publishedOf(r: {
  platformPostId: string | null;
  permalink: string | null;
  publishedAt: Date | null;
  spec: unknown;
  postType: string;
}): PublishedPost {
  const spec = (r.spec ?? {}) as { text?: unknown; mediaIds?: unknown };
  const mediaIds = Array.isArray(spec.mediaIds)
    ? spec.mediaIds.filter((id): id is string => typeof id === 'string')
    : [];
  return {
    platformPostId: r.platformPostId!,
    permalink: r.permalink,
    publishedAt: r.publishedAt,
    text: typeof spec.text === 'string' ? spec.text : null,
    postType: r.postType,
    mediaIds,
  };
}
