// The shapes of the LinkedIn simulator's social actions (engagement.ts): which post a URN names, comments and social
// metadata as the Community Management API serves them, Rest.li lists and paging, and who may read a post's actions.
import { commentsDisabled, commentsOn, metricsOf, repliesTo } from '../core/engagement.ts';
import { seededDigits } from '../core/ids.ts';
import { findObject, text } from '../core/objects.ts';
import type { Call, ErrorAnswer } from '../core/route.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { apiError } from './errors.ts';
import { actorProblem } from './rest.ts';
import type { RestAuth } from './rest.ts';

/** The longest comment LinkedIn takes. */
export const MAX_COMMENT_CHARS = 1250;
const MAX_COUNT = 100;
export const POST_URN = /^urn:li:(share|ugcPost):\d+$/;
export const COMMENT_URN = /^urn:li:comment:\((urn:li:(?:activity|share|ugcPost):\d+),(\d+)\)$/;

/** The feed activity a post is shown as; comment URNs name it. */
export function activityOf(postUrn: string): string {
  return `urn:li:activity:7${seededDigits(`linkedin:activity:${postUrn}`, 18)}`;
}

/** Which post a path or body URN names: the post itself, its activity, or (for a comment) the comment's post. */
export function postOf(call: Call, urn: string): ObjectRecord | undefined {
  if (POST_URN.test(urn)) return findObject(call, 'posts', urn);
  if (urn.startsWith('urn:li:activity:')) return [...call.slice.posts.values()].find((p) => activityOf(p.id) === urn);
  const comment = call.slice.comments.get(urn);
  return comment ? findObject(call, 'posts', String(comment.postId)) : undefined;
}

/** A comment as GET /rest/socialActions/{urn}/comments serves it. */
export function commentView(c: ObjectRecord, post: ObjectRecord, call: Call): JsonObject {
  const match = COMMENT_URN.exec(c.id);
  const at = Date.parse(c.createdAt);
  const replies = repliesTo(call.slice, c.id).length;
  return {
    id: match?.[2] ?? c.id,
    commentUrn: c.id,
    actor: text(c.authorId),
    object: post.id,
    message: { text: text(c.text), attributes: [] },
    created: { actor: text(c.authorId), time: at },
    lastModified: { actor: text(c.authorId), time: at },
    ...(c.parentId ? { parentComment: c.parentId } : {}),
    likesSummary: {
      totalLikes: typeof c.likeCount === 'number' ? c.likeCount : 0,
      likedByCurrentUser: false,
      selectedLikes: [],
    },
    commentsSummary: { totalFirstLevelComments: replies, aggregatedTotalComments: replies, selectedComments: [] },
    content: [],
  };
}

/** A post's GET /rest/socialMetadata answer: reactions, comment counts, whether comments are open. */
export function metadataView(call: Call, post: ObjectRecord): JsonObject {
  const m = metricsOf(call.slice, post);
  const top = commentsOn(call.slice, post.id).length;
  return {
    entity: post.id,
    reactionSummaries: m.likes > 0 ? { LIKE: { reactionType: 'LIKE', count: m.likes } } : {},
    commentSummary: { count: m.comments, topLevelCount: top },
    commentsState: commentsDisabled(post) ? 'CLOSED' : 'OPEN',
  };
}

/** Rest.li 2.0 `List(a,b)`: its elements, percent-decoded; null when the value is not a list. */
export function restliList(raw: string | undefined): string[] | null {
  const match = /^List\((.*)\)$/.exec(raw ?? '');
  if (!match) return null;
  const inner = match[1] ?? '';
  return inner === '' ? [] : inner.split(',').map((v) => decodeURIComponent(v));
}

/** The `start` and `count` of a finder, or the refusal LinkedIn answers. */
export function pageOf(q: Record<string, string>): { start: number; count: number } | ErrorAnswer {
  const start = q.start === undefined ? 0 : Number(q.start);
  const count = q.count === undefined ? 10 : Number(q.count);
  if (!Number.isInteger(start) || start < 0)
    return apiError(400, 'ILLEGAL_ARGUMENT', 'start must be a non-negative integer');
  if (!Number.isInteger(count) || count < 0 || count > MAX_COUNT)
    return apiError(400, 'ILLEGAL_ARGUMENT', `count must be between 0 and ${MAX_COUNT}`);
  return { start, count };
}

export const isError = (v: unknown): v is ErrorAnswer =>
  typeof v === 'object' && v !== null && 'status' in v && 'body' in v;

/**
 * Who may read this post's social actions: its author (the member with r_member_social, or an organization's
 * admin).
 */
export function readProblem(auth: RestAuth, post: ObjectRecord, resource: string, method: string): ErrorAnswer | null {
  return actorProblem(auth, text(post.author), 'read', resource, method);
}
