// LinkedIn's answers as Herald's read model (engagement.ts): posts with their counts and statistics, comments with
// their authors' names, the scopes that gate reading, and the small readers over LinkedIn's JSON.
import type { RemoteComment, RemotePost } from '../engagement.ts';
import { permalinkOf } from './publish.ts';

export type Obj = Record<string, unknown>;

/** A GET of LinkedIn's API with a member's token, its answer checked. */
export type LinkedinGet = (token: string, url: string, query?: Record<string, string | number>) => Promise<Obj>;

/** LinkedIn refuses a comment's text beyond this (FIELD_LENGTH_TOO_LONG). */
export const LINKEDIN_COMMENT_MAX = 1250;
/** The largest page the Posts and Comments finders serve. */
export const MAX_COUNT = 100;
/** Bounds a runaway paging loop. */
export const MAX_PAGES = 20;
/** URNs per batch call (socialMetadata, share statistics, people). */
export const BATCH = 50;

export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
export const iso = (ms: unknown): string | null =>
  typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null;

/** Rest.li 2.0 `List(…)` for a query string: the list syntax as is, each value percent-encoded. */
export const restliList = (values: readonly string[]): string => `List(${values.map(encodeURIComponent).join(',')})`;

/** A member's own post statistics. */
export const MEMBER_ANALYTICS_SCOPE = 'r_member_postAnalytics';
export type MemberMetric = 'IMPRESSION' | 'MEMBERS_REACHED' | 'RESHARE' | 'REACTION' | 'COMMENT';

/** The members' reading permission, closed to new apps. */
export const MEMBER_READ_SCOPE = 'r_member_social';
export const MEMBER_READ_REFUSAL =
  "LinkedIn lets an app read a member's own posts and their comments only with r_member_social, which it grants to selected partners alone; Herald reads and answers the comments of organization pages (r_organization_social). Add r_member_social to HERALD_LINKEDIN_SCOPES if LinkedIn granted it to this app.";

/**
 * A post's commentary as members read it: LinkedIn's "little" text without escapes, hashtag templates or mention
 * syntax.
 */
export function plainCommentary(little: string): string {
  return little
    .replace(/\{hashtag\|\\#\|([^}]+)\}/g, '#$1')
    .replace(/@\[([^\]]*)\]\(urn:li:[A-Za-z]+:[A-Za-z0-9_-]+\)/g, '$1')
    .replace(/\\(.)/g, '$1');
}

export function typeOf(content: Obj): { type: RemotePost['type']; images: string[]; video: string | null } {
  if (Array.isArray(obj(content.multiImage).images)) {
    return { type: 'carousel', images: list(obj(content.multiImage).images).map((i) => String(i.id)), video: null };
  }
  const media = str(obj(content.media).id);
  if (media?.startsWith('urn:li:video:')) return { type: 'video', images: [], video: media };
  if (media?.startsWith('urn:li:image:')) return { type: 'image', images: [media], video: null };
  return { type: 'text', images: [], video: null };
}

export interface Counts {
  likes: number;
  comments: number;
  closed: boolean;
}

export interface Statistics {
  shares: number;
  impressions: number;
  reach: number;
}

export function toPost(
  webBase: string,
  p: Obj,
  counts: Counts | undefined,
  stats: Statistics | undefined,
  imageUrls: Map<string, string>,
): RemotePost {
  const urn = String(p.id);
  const content = typeOf(obj(p.content));
  const author = str(p.author);
  return {
    postId: urn,
    commentary: typeof p.commentary === 'string' ? plainCommentary(p.commentary) : null,
    publishedAt: iso(p.publishedAt) ?? iso(p.createdAt),
    type: content.type,
    // Download URLs as LinkedIn gave them (they expire; a refresh reads new ones); null where it gave none.
    images: content.images.map((urn) => ({ url: imageUrls.get(urn) ?? null })),
    video: content.video ? { videoUrl: null, thumbnailUrl: null } : null,
    permalink: permalinkOf(webBase, urn),
    sourcePageId: author?.startsWith('urn:li:organization:') ? author.slice('urn:li:organization:'.length) : null,
    metrics: {
      likes: counts?.likes ?? 0,
      comments: counts?.comments ?? 0,
      shares: stats?.shares ?? 0,
      impressions: stats?.impressions ?? 0,
      ...(stats ? { reach: stats.reach } : {}),
    },
    ...(counts?.closed ? { commentsDisabled: true } : {}),
  };
}

/** Like Promise.all, but waits for every call before throwing the first failure, so none is left in flight. */
export async function allOrFirstError<T>(calls: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(calls);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

export function countsOf(meta: Obj): Counts {
  const reactions = Object.values(obj(meta.reactionSummaries)).reduce<number>((n, r) => n + num(obj(r).count), 0);
  return { likes: reactions, comments: num(obj(meta.commentSummary).count), closed: meta.commentsState === 'CLOSED' };
}

/** A comment as LinkedIn serves it, with its author's name from `who` (by actor URN). */
export function toComment(c: Obj, who: Map<string, string>): RemoteComment {
  const actor = str(c.actor) ?? '';
  const urn = str(c.commentUrn) ?? String(c.id);
  const parent = str(c.parentComment);
  const summary = obj(c.commentsSummary);
  return {
    id: urn,
    parentId: parent,
    text: str(obj(c.message).text) ?? '',
    authorName: who.get(actor) ?? actor,
    authorId: actor || null,
    authorAvatarUrl: null,
    createdAt: iso(obj(c.created).time),
    likeCount: num(obj(c.likesSummary).totalLikes),
    replyCount: num(summary.aggregatedTotalComments) || num(summary.totalFirstLevelComments),
    // A reply is answered under its first-level comment (threads are two levels deep).
    refs: { post: str(c.object) ?? '', ...(parent ? { parentComment: parent } : {}) },
  };
}
