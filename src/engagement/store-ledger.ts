// What the publishing ledger knows of the posts Herald published, read for engagement: the target behind a network
// post, the posts published to a source, when each network was last published to, and their images.
import type { Db } from '../db/client.ts';
import { and, eq, inArray, isNull, or, sql } from '../db/orm.ts';
import { networkPosts } from '../db/schema-engagement.ts';
import { media } from '../db/schema-media.ts';
import { posts as ledgerPosts, postTargets } from '../db/schema-publishing.ts';

/** The ledger target of this workspace that published this post, when Herald did, with what the ledger knows of it. */
export async function publishedTarget(
  db: Db,
  workspaceId: string,
  platform: string,
  platformPostId: string,
): Promise<(PublishedPost & { id: string; destinationId: string | null; destinationKind: string | null }) | undefined> {
  const [row] = await db
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

/** The ledger post id of each of these targets. */
export async function ledgerPostIds(db: Db, targetIds: readonly string[]): Promise<Map<string, string>> {
  if (!targetIds.length) return new Map();
  const rows = await db
    .select({ id: postTargets.id, postId: postTargets.postId })
    .from(postTargets)
    .where(inArray(postTargets.id, [...new Set(targetIds)]));
  return new Map(rows.map((r) => [r.id, r.postId]));
}

/**
 * Posts Herald published from this workspace to one source (the account itself when `source` is null), newest
 * first: for networks that cannot list an account's posts but can count a known post's numbers.
 */
export async function publishedTo(
  db: Db,
  workspaceId: string,
  platform: string,
  source: string | null,
  limit: number,
): Promise<PublishedPost[]> {
  const rows = await db
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
export async function publishedAndRead(
  db: Db,
  workspaceId: string,
  platforms: readonly string[],
): Promise<Map<string, { published: Date; read: Date | null }>> {
  const out = new Map<string, { published: Date; read: Date | null }>();
  if (!platforms.length) return out;
  const [published, read] = await Promise.all([
    db
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
    db
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
export async function imagesOf(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<{ storageKey: string; width: number | null; height: number | null }[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: media.id, storageKey: media.storageKey, width: media.width, height: media.height })
    .from(media)
    .where(and(eq(media.workspaceId, workspaceId), eq(media.mediaType, 'image'), inArray(media.id, [...ids])));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [{ storageKey: r.storageKey, width: r.width, height: r.height }] : [];
  });
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
