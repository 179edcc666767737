// The engagement read model's posts: what the networks answered for them (fields and latest numbers), a snapshot of
// the numbers per refresh, and the figures summed over them. Every statement is scoped by workspace; a network id
// alone never finds a row.
import type { Db } from '../db/client.ts';
import { and, eq, inArray, isNull, or, orm, sql } from '../db/orm.ts';
import { networkPosts, postMetricSnapshots } from '../db/schema-engagement.ts';
import { postTargets } from '../db/schema-publishing.ts';
import type { RemotePost } from '../platforms/engagement.ts';

const { getTableColumns } = orm;

export type PostRow = typeof networkPosts.$inferSelect;
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

/**
 * Stores what the network answered for these posts (fields and numbers), links each to the ledger target that
 * published it, and snapshots the numbers. One statement per table, whatever the number of posts.
 */
export async function savePosts(
  db: Db,
  workspaceId: string,
  platform: string,
  posts: readonly { post: RemotePost; sourcePageId: string | null }[],
  at: Date,
): Promise<PostRow[]> {
  if (!posts.length) return [];
  const ids = posts.map((p) => p.post.postId);
  const targets = await db
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
  const rows = await db
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
  await db.insert(postMetricSnapshots).values(
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
export async function recentPostsOf(
  db: Db,
  workspaceId: string,
  wanted: readonly { platform: string; sources: Sources }[],
  limit: number,
): Promise<Map<string, PostRow[]>> {
  const out = new Map<string, PostRow[]>(wanted.map((w) => [w.platform, []]));
  if (!wanted.length) return out;
  const p = networkPosts;
  const ranked = db
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
  const rows = await db.select().from(ranked).where(sql`${ranked.rn} <= ${limit}`);
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
export async function post(
  db: Db,
  workspaceId: string,
  platform: string,
  platformPostId: string,
): Promise<PostRow | undefined> {
  const [row] = await db
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

/**
 * A post deleted at its network: the read model's row and the ledger target say so, and post.deleted is written,
 * in one statement (only the first time).
 */
export async function markDeleted(
  db: Db,
  workspaceId: string,
  platform: string,
  platformPostId: string,
  at: Date,
): Promise<void> {
  const when = sql`${at.toISOString()}::timestamptz`;
  const mine = sql`workspace_id = ${workspaceId}::uuid and platform = ${platform} and platform_post_id = ${platformPostId}`;
  await db.execute(sql`
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

export async function snapshots(db: Db, workspaceId: string, networkPostId: string): Promise<SnapshotRow[]> {
  return db
    .select()
    .from(postMetricSnapshots)
    .where(and(eq(postMetricSnapshots.workspaceId, workspaceId), eq(postMetricSnapshots.networkPostId, networkPostId)))
    .orderBy(postMetricSnapshots.takenAt);
}

/** Per network: posts, likes, comments and reach (reach, else impressions) of the stored, undeleted posts. */
export async function totals(
  db: Db,
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
    const [row] = await db
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

export async function setCommentsDisabled(db: Db, networkPostId: string, disabled: boolean): Promise<void> {
  await db.update(networkPosts).set({ commentsDisabled: disabled }).where(eq(networkPosts.id, networkPostId));
}

/** These posts as stored now, in the order given. */
export async function postsByIds(db: Db, ids: readonly string[]): Promise<PostRow[]> {
  if (!ids.length) return [];
  const rows = await db
    .select()
    .from(networkPosts)
    .where(inArray(networkPosts.id, [...ids]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
