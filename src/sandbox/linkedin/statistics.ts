// The numbers in the LinkedIn simulator (engagement.ts): reaction and comment counts (GET /rest/socialMetadata/{urn}
// and the batch ?ids=List(…)), an organization's per-post statistics (GET /rest/organizationalEntityShareStatistics),
// images' download URLs (GET /rest/images?ids=List(…)) and a member's own post statistics
// (GET /rest/memberCreatorPostAnalytics, r_member_postAnalytics).
import { assetsOf } from '../core/accounts.ts';
import { metricsOf } from '../core/engagement.ts';
import type { SimulatedMetrics } from '../core/engagement.ts';
import { queryParams } from '../core/http.ts';
import { findObject, objectsOf, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { apiError, notFound } from './errors.ts';
import { imageView } from './images.ts';
import { actorProblem, decodeUrn, denied, inputError, restAuth } from './rest.ts';
import type { RestAuth } from './rest.ts';
import { POST_URN, metadataView, readProblem, restliList } from './social-views.ts';

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

/** The metric routes, in the order LinkedIn's reads use them. */
export function registerLinkedInStatistics(sim: Simulator): void {
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
}
