// LinkedIn's read side (Community Management API): comments under a post or a comment
// (GET|POST /rest/socialActions/{urn}/comments), reaction and comment counts (GET /rest/socialMetadata/{urn} and the
// batch ?ids=List(…)), an organization's per-post statistics (GET /rest/organizationalEntityShareStatistics), a
// member's own post statistics (GET /rest/memberCreatorPostAnalytics, r_member_postAnalytics) and commenters' names
// (GET /v2/people?ids=List((id:…))). Reading an organization's posts and comments needs
// r_organization_social and a role on it; a member's own, the closed r_member_social. Comments are written as the
// member (w_member_social) or an organization they administer (w_organization_social); threads are two levels deep;
// a comment's text is at most 1,250 characters.
import { assetsOf } from '../core/accounts.ts';
import type { SandboxContext } from '../core/context.ts';
import {
  commentsDisabled,
  commentsOn,
  declareEngagement,
  metricsOf,
  putComment,
  repliesTo,
} from '../core/engagement.ts';
import { bearerToken, isObj, jsonBody, queryParams } from '../core/http.ts';
import { randomDigits, seededAlnum, seededDigits } from '../core/ids.ts';
import { findObject, objectsOf, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import type { SimulatedMetrics } from '../core/engagement.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { apiError, notFound, tokenError } from './errors.ts';
import { imageView } from './images.ts';
import { actorProblem, decodeUrn, denied, inputError, restAuth } from './rest.ts';
import type { RestAuth } from './rest.ts';

const COMMENTS = 'socialActionsComments';
const METADATA = 'socialMetadata';
const STATISTICS = 'organizationalEntityShareStatistics';
const MEMBER_ANALYTICS = 'memberCreatorPostAnalytics';
/** What memberCreatorPostAnalytics counts for a member's post, by queryType. */
const MEMBER_METRICS: Record<string, (m: SimulatedMetrics) => number> = {
  IMPRESSION: (m) => m.impressions,
  MEMBERS_REACHED: (m) => Math.round(m.impressions * 0.8),
  RESHARE: (m) => m.shares,
  REACTION: (m) => m.likes,
  COMMENT: (m) => m.comments,
  POST_SAVE: () => 0,
  POST_SEND: () => 0,
};
/** The longest comment LinkedIn takes. */
export const MAX_COMMENT_CHARS = 1250;
const MAX_COUNT = 100;
const POST_URN = /^urn:li:(share|ugcPost):\d+$/;
const COMMENT_URN = /^urn:li:comment:\((urn:li:(?:activity|share|ugcPost):\d+),(\d+)\)$/;

/** The feed activity a post is shown as; comment URNs name it. */
export function activityOf(postUrn: string): string {
  return `urn:li:activity:7${seededDigits(`linkedin:activity:${postUrn}`, 18)}`;
}

/** Which post a path or body URN names: the post itself, its activity, or (for a comment) the comment's post. */
function postOf(call: Call, urn: string): ObjectRecord | undefined {
  if (POST_URN.test(urn)) return findObject(call, 'posts', urn);
  if (urn.startsWith('urn:li:activity:')) return [...call.slice.posts.values()].find((p) => activityOf(p.id) === urn);
  const comment = call.slice.comments.get(urn);
  return comment ? findObject(call, 'posts', String(comment.postId)) : undefined;
}

/** A member known to the sandbox: a commenter (by the name they commented under) or the connected member. */
function personName(call: Call, id: string): string | null {
  const urn = `urn:li:person:${id}`;
  const comments = [...call.slice.comments.values()].filter((c) => c.authorId === urn);
  const last = comments[comments.length - 1];
  if (last) return text(last.authorName);
  return call.slice.accounts.get(id)?.name ?? null;
}

function commentView(c: ObjectRecord, post: ObjectRecord, call: Call): JsonObject {
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

function metadataView(call: Call, post: ObjectRecord): JsonObject {
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
function restliList(raw: string | undefined): string[] | null {
  const match = /^List\((.*)\)$/.exec(raw ?? '');
  if (!match) return null;
  const inner = match[1] ?? '';
  return inner === '' ? [] : inner.split(',').map((v) => decodeURIComponent(v));
}

function pageOf(q: Record<string, string>): { start: number; count: number } | ErrorAnswer {
  const start = q.start === undefined ? 0 : Number(q.start);
  const count = q.count === undefined ? 10 : Number(q.count);
  if (!Number.isInteger(start) || start < 0)
    return apiError(400, 'ILLEGAL_ARGUMENT', 'start must be a non-negative integer');
  if (!Number.isInteger(count) || count < 0 || count > MAX_COUNT)
    return apiError(400, 'ILLEGAL_ARGUMENT', `count must be between 0 and ${MAX_COUNT}`);
  return { start, count };
}

const isError = (v: unknown): v is ErrorAnswer => typeof v === 'object' && v !== null && 'status' in v && 'body' in v;

/** Who may read this post's social actions: its author (the member with r_member_social, or an organization's admin). */
function readProblem(auth: RestAuth, post: ObjectRecord, resource: string, method: string): ErrorAnswer | null {
  return actorProblem(auth, text(post.author), 'read', resource, method);
}

export function declareLinkedInEngagement(ctx: SandboxContext): void {
  declareEngagement(ctx, 'linkedin', {
    commentId: (_ctx, post) => `urn:li:comment:(${activityOf(post.id)},7${randomDigits(18)})`,
    userId: (n) => `urn:li:person:${seededAlnum(`linkedin:commenter:${n}`, 10)}`,
    // A simulated member is known by the name they comment under, so /v2/people names each consistently.
    extra: (_ctx, _post, _parent, _id, input): JsonObject =>
      input.fromAccount
        ? {}
        : { authorId: `urn:li:person:${seededAlnum(`linkedin:commenter:${input.author.name}`, 10)}` },
  });
}

export function registerLinkedInEngagement(sim: Simulator): void {
  declareLinkedInEngagement(sim.ctx);

  addRoute(sim, {
    method: 'GET',
    url: '/rest/socialActions/:urn/comments',
    ops: ['comments'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const target = decodeUrn((req.params as { urn: string }).urn);
      const post = postOf(call, target);
      if (!post) return sendAnswer(reply, notFound(target));
      const problem = readProblem(auth, post, COMMENTS, 'GET_ALL');
      if (problem) return sendAnswer(reply, problem);
      const paging = pageOf(queryParams(req));
      if (isError(paging)) return sendAnswer(reply, paging);
      // A post's comments newest first; a comment's replies in the order they were written.
      const all = COMMENT_URN.test(target) ? repliesTo(call.slice, target) : commentsOn(call.slice, post.id);
      const elements = all.slice(paging.start, paging.start + paging.count).map((c) => commentView(c, post, call));
      return reply.send({
        paging: { start: paging.start, count: paging.count, total: all.length, links: [] },
        elements,
      });
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/rest/socialActions/:urn/comments',
    ops: ['reply'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const target = decodeUrn((req.params as { urn: string }).urn);
      const post = postOf(call, target);
      if (!post) return sendAnswer(reply, notFound(target));
      const body = jsonBody(req);
      if (!body)
        return sendAnswer(
          reply,
          apiError(400, 'BAD_REQUEST', 'The request body must be a JSON object (Content-Type: application/json)'),
        );
      const actor = typeof body.actor === 'string' ? body.actor : '';
      if (!actor) return sendAnswer(reply, inputError('MISSING_FIELD', '/actor', 'Field /actor is required'));
      const problem = actorProblem(auth, actor, 'write', COMMENTS, 'CREATE');
      if (problem) return sendAnswer(reply, problem);
      const object = typeof body.object === 'string' ? body.object : '';
      if (object !== post.id && object !== activityOf(post.id)) {
        return sendAnswer(
          reply,
          inputError(
            'INVALID_VALUE_FOR_FIELD',
            '/object',
            `Field /object must be the post ${post.id} the comment is on`,
          ),
        );
      }
      const message = isObj(body.message) ? body.message : {};
      const said = typeof message.text === 'string' ? message.text : '';
      if (!said.trim())
        return sendAnswer(
          reply,
          inputError('INVALID_VALUE_BLANK_FIELD', '/message/text', 'Field /message/text must not be blank'),
        );
      if (said.length > MAX_COMMENT_CHARS) {
        return sendAnswer(
          reply,
          inputError(
            'FIELD_LENGTH_TOO_LONG',
            '/message/text',
            `Length of /message/text (${said.length}) exceeds the maximum allowed length of ${MAX_COMMENT_CHARS}`,
          ),
        );
      }
      let parent: ObjectRecord | undefined;
      const parentUrn =
        typeof body.parentComment === 'string' ? body.parentComment : COMMENT_URN.test(target) ? target : undefined;
      if (parentUrn !== undefined) {
        parent = call.slice.comments.get(parentUrn);
        if (!parent || parent.postId !== post.id || (COMMENT_URN.test(target) && target !== parentUrn)) {
          return sendAnswer(
            reply,
            inputError('INVALID_URN_ID', '/parentComment', `Comment ${parentUrn} does not exist on ${post.id}`),
          );
        }
        // Two levels only: a reply answers a first-level comment.
        if (parent.parentId !== null)
          return sendAnswer(
            reply,
            inputError(
              'INVALID_VALUE_FOR_FIELD',
              '/parentComment',
              'Nested comments may only reply to a first-level comment',
            ),
          );
      }
      if (commentsDisabled(post))
        return sendAnswer(reply, apiError(403, 'ACCESS_DENIED', `Comments are disabled on ${post.id}`, 100));
      const org = /^urn:li:organization:(\d+)$/.exec(actor);
      const name = org
        ? (assetsOf(auth.account, 'organization').find((o) => o.id === org[1])?.name ?? actor)
        : auth.account.name;
      const stored = putComment(call.ctx, 'linkedin', post, parent, {
        text: said,
        author: { id: actor, name, avatarUrl: null },
        fromAccount: true,
      });
      const view = commentView(stored, post, call);
      return reply.code(201).header('x-restli-id', String(view.id)).send(view);
    },
  });

  const metadataRead = (auth: RestAuth, call: Call, urn: string): { ok: JsonObject } | { error: ErrorAnswer } => {
    const post = POST_URN.test(urn) ? findObject(call, 'posts', urn) : undefined;
    if (!post) return { error: notFound(urn) };
    const problem = readProblem(auth, post, METADATA, 'GET');
    return problem ? { error: problem } : { ok: metadataView(call, post) };
  };

  addRoute(sim, {
    method: 'GET',
    url: '/rest/socialMetadata/:urn',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const read = metadataRead(auth, call, decodeUrn((req.params as { urn: string }).urn));
      return 'error' in read ? sendAnswer(reply, read.error) : reply.send(read.ok);
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/socialMetadata',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const ids = restliList(queryParams(req).ids);
      if (!ids)
        return sendAnswer(reply, apiError(400, 'ILLEGAL_ARGUMENT', 'ids must be a Rest.li 2.0 List(...) of post URNs'));
      const results: JsonObject = {};
      const statuses: JsonObject = {};
      const errors: JsonObject = {};
      for (const urn of ids) {
        const read = metadataRead(auth, call, urn);
        if ('ok' in read) {
          results[urn] = read.ok;
          statuses[urn] = 200;
        } else {
          errors[urn] = read.error.body as JsonObject;
          statuses[urn] = read.error.status;
        }
      }
      return reply.send({ results, statuses, errors });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/organizationalEntityShareStatistics',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const q = queryParams(req);
      if (q.q !== 'organizationalEntity' || !q.organizationalEntity) {
        return sendAnswer(
          reply,
          apiError(
            400,
            'ILLEGAL_ARGUMENT',
            'Supported finder: q=organizationalEntity&organizationalEntity={organization urn}',
          ),
        );
      }
      const org = decodeUrn(q.organizationalEntity);
      const orgId = /^urn:li:organization:(\d+)$/.exec(org)?.[1];
      if (!orgId)
        return sendAnswer(
          reply,
          inputError(
            'INVALID_URN_TYPE',
            '/organizationalEntity',
            `Invalid URN type for ${org}: expected urn:li:organization`,
          ),
        );
      // Page and share statistics need rw_organization_admin and the ADMINISTRATOR role.
      const role = assetsOf(auth.account, 'organization').find((o) => o.id === orgId)?.fields.role;
      if (!auth.token.scopes.includes('rw_organization_admin') || role !== 'ADMINISTRATOR')
        return sendAnswer(reply, denied(auth, STATISTICS, 'FINDER'));
      const shares = q.shares === undefined ? [] : restliList(q.shares);
      const ugcPosts = q.ugcPosts === undefined ? [] : restliList(q.ugcPosts);
      if (!shares || !ugcPosts)
        return sendAnswer(
          reply,
          apiError(400, 'ILLEGAL_ARGUMENT', 'shares and ugcPosts must be Rest.li 2.0 List(...) values'),
        );
      const own = objectsOf(call, 'posts', auth.account.id).filter((p) => p.author === org);
      const stats = (p: ObjectRecord): JsonObject => {
        const m = metricsOf(call.slice, p);
        const engaged = m.likes + m.comments + m.shares;
        return {
          uniqueImpressionsCount: Math.round(m.impressions * 0.8),
          shareCount: m.shares,
          engagement: m.impressions > 0 ? engaged / m.impressions : 0,
          clickCount: 0,
          likeCount: m.likes,
          impressionCount: m.impressions,
          commentCount: m.comments,
        };
      };
      if (shares.length === 0 && ugcPosts.length === 0) {
        // The organization's lifetime totals.
        const sum: Record<string, number> = {};
        for (const p of own) for (const [k, v] of Object.entries(stats(p))) sum[k] = (sum[k] ?? 0) + Number(v);
        return reply.send({
          paging: { start: 0, count: 10, links: [] },
          elements: [{ organizationalEntity: org, totalShareStatistics: sum }],
        });
      }
      // One element per asked post of this organization that had any activity; the others are left out.
      const elements = [...shares.map((u) => ['share', u] as const), ...ugcPosts.map((u) => ['ugcPost', u] as const)]
        .map(([kind, urn]) => ({
          kind,
          urn,
          post: own.find((p) => p.id === urn && p.id.startsWith(`urn:li:${kind}:`)),
        }))
        .filter((e): e is { kind: 'share' | 'ugcPost'; urn: string; post: ObjectRecord } => e.post !== undefined)
        .map((e) => ({ organizationalEntity: org, [e.kind]: e.urn, totalShareStatistics: stats(e.post) }))
        .filter((e) => Object.values(e.totalShareStatistics).some((v) => Number(v) > 0));
      return reply.send({ paging: { start: 0, count: elements.length, links: [] }, elements });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/images',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const ids = restliList(queryParams(req).ids);
      if (!ids)
        return sendAnswer(
          reply,
          apiError(400, 'ILLEGAL_ARGUMENT', 'ids must be a Rest.li 2.0 List(...) of image URNs'),
        );
      const results: JsonObject = {};
      const statuses: JsonObject = {};
      const errors: JsonObject = {};
      for (const urn of ids) {
        const image = findObject(call, 'media', urn);
        // As GET /rest/images/{urn}: reading an image back needs a read permission on its owner.
        const problem =
          image?.kind !== 'image'
            ? notFound(urn)
            : actorProblem(auth, text(image.owner), 'read', 'images', 'BATCH_GET');
        if (problem) {
          errors[urn] = problem.body as JsonObject;
          statuses[urn] = problem.status;
        } else {
          results[urn] = imageView(image!);
          statuses[urn] = 200;
        }
      }
      return reply.send({ results, statuses, errors });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/memberCreatorPostAnalytics',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const q = queryParams(req);
      if (q.q !== 'entity')
        return sendAnswer(
          reply,
          apiError(400, 'ILLEGAL_ARGUMENT', 'Supported finders: q=entity&entity=(share:{urn}|ugcPost:{urn}), q=me'),
        );
      const entity = /^\((share|ugcPost):(urn:li:(share|ugcPost):\d+)\)$/.exec(decodeURIComponent(q.entity ?? ''));
      if (!entity || entity[1] !== entity[3])
        return sendAnswer(
          reply,
          inputError(
            'INVALID_VALUE_FOR_FIELD',
            '/entity',
            'entity must be (share:urn:li:share:{id}) or (ugcPost:urn:li:ugcPost:{id})',
          ),
        );
      const queryType = q.queryType ?? '';
      if (!(queryType in MEMBER_METRICS))
        return sendAnswer(
          reply,
          inputError(
            'INVALID_VALUE_FOR_FIELD',
            '/queryType',
            `queryType must be one of ${Object.keys(MEMBER_METRICS).join(', ')}`,
          ),
        );
      if (q.aggregation !== 'TOTAL' && q.aggregation !== 'DAILY')
        return sendAnswer(
          reply,
          inputError('INVALID_VALUE_FOR_FIELD', '/aggregation', 'aggregation must be TOTAL or DAILY'),
        );
      // The member's own posts, with r_member_postAnalytics; no other permission is needed.
      if (!auth.token.scopes.includes('r_member_postAnalytics'))
        return sendAnswer(reply, denied(auth, MEMBER_ANALYTICS, 'FINDER'));
      const post = findObject(call, 'posts', entity[2]!);
      if (!post) return sendAnswer(reply, notFound(entity[2]!));
      if (post.author !== `urn:li:person:${auth.account.id}`)
        return sendAnswer(reply, denied(auth, MEMBER_ANALYTICS, 'FINDER'));
      const count = MEMBER_METRICS[queryType]!(metricsOf(call.slice, post));
      const day = new Date(post.createdAt);
      const date = { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() };
      const element: JsonObject = {
        count,
        metricType: { 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': queryType },
        ...(q.aggregation === 'DAILY' ? { dateRange: { start: date, end: date } } : {}),
      };
      return reply.send({ paging: { start: 0, count: 10, links: [] }, elements: [element] });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v2/people',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      const checked = checkToken(call, bearerToken(req), ['access']);
      if (!checked.ok) return sendAnswer(reply, tokenError(checked.problem));
      const ids = restliList(queryParams(req).ids);
      const keys = ids?.map((k) => /^\(id:([A-Za-z0-9_-]+)\)$/.exec(k));
      if (!keys || keys.some((k) => !k))
        return sendAnswer(reply, apiError(400, 'ILLEGAL_ARGUMENT', 'ids must be List((id:{person id}),…)'));
      const results: JsonObject = {};
      const statuses: JsonObject = {};
      const errors: JsonObject = {};
      for (const k of keys) {
        const id = k![1]!;
        const key = `(id:${id})`;
        const name = personName(call, id);
        if (name === null) {
          errors[key] = { status: 404, message: 'Not Found' };
          statuses[key] = 404;
          continue;
        }
        const [first = name, ...rest] = name.split(' ');
        results[key] = { id, localizedFirstName: first, localizedLastName: rest.join(' ') };
        statuses[key] = 200;
      }
      return reply.send({ results, statuses, errors });
    },
  });
}
