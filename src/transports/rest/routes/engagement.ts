// The engagement routes (contract-gaps §4, §6): the posts read model, one post refreshed, its numbers over time and
// its deletion; the comments inbox, one post's comments, a comment's replies and replying; analytics.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import type { CommentRecord } from '../../../engagement/service.ts';
import { destinationFilter, destinationFilterShape, destinationOf, postAndPlatform, replyDestination, replyDestinationShape, replyPlatform, replyText } from '../../../engagement/arguments.ts';
import { AppError } from '../../../errors.ts';
import type { Platform } from '../../../platforms/slugs.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';
import { parsePlatforms, readPlatforms, splitPlatforms } from '../../../platforms/arguments.ts';
import { readTargetId } from '../../../platforms/contract.ts';

const repeatable = z.union([z.string().max(2000), z.array(z.string().max(500)).max(100)]).optional();
const flag = z.enum(['true', 'false', '1', '0']).optional();
const on = (v: string | undefined, fallback: boolean) => (v === undefined ? fallback : v === 'true' || v === '1');
const intIn = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

const errorFields = { message: z.string().optional(), error: z.string().optional() };

const postRecord = z.object({
  post_id: z.string(),
  commentary: z.string().nullable(),
  published_at: z.string().nullable(),
  type: z.string(),
  images: z.array(z.unknown()),
  videos: z.unknown(),
  permalink: z.string().nullable(),
  like_count: z.number().int().optional(),
  comment_count: z.number().int().optional(),
  share_count: z.number().int().optional(),
  impression_count: z.number().int().optional(),
  reach: z.number().int().nullable().optional(),
  source_page_id: z.string().nullable(),
  ai_watcher_enabled: z.boolean(),
  herald_post_id: z.string().nullable().describe('The Herald post (ledger) that published it, when Herald did.'),
  last_refreshed_at: z.string(),
});
const postsSlice = z.object({ posts: z.array(postRecord), source: z.enum(['database', 'api']).nullable(), last_updated: z.string().nullable(), ...errorFields });

const comment: z.ZodType<CommentRecord> = z.lazy(() =>
  z.object({
    id: z.string(),
    type: z.enum(['comment', 'reply']),
    text: z.string(),
    author_name: z.string(),
    commentor_name: z.string(),
    author_id: z.string().nullable(),
    author_profile_image_url: z.string().nullable(),
    created_at: z.string().nullable(),
    like_count: z.number().int(),
    reply_count: z.number().int(),
    parent_id: z.string().nullable(),
    replies: z.array(comment),
    platform_meta: z.object({ is_hidden: z.boolean() }),
  }),
  // A recursive schema must be a component (with an id) for the document to refer to itself.
).meta({ id: 'Comment', description: 'A comment or reply, with its replies.' });
const postComments = z.looseObject({
  post_id: z.string(),
  page_id: z.string().nullable(),
  comments_disabled: z.boolean(),
  comment_status: z.enum(['ok', 'error', 'disabled']),
  comment_status_message: z.string().nullable(),
  comments: z.array(comment),
});
const commentsSlice = z.object({ posts: z.array(postComments), last_updated: z.string().nullable(), ...errorFields });
const figures = z.object({
  post_count: z.number().int(),
  total_likes: z.number().int(),
  total_comments: z.number().int(),
  total_reach: z.number().int(),
  average_engagement_rate: z.number(),
});

/**
 * The large read answers (an inbox is easily a megabyte) are serialized with JSON.stringify alone: they are built
 * field by field from typed rows (never by spreading a row, so nothing unlisted can leak), TypeScript holds them to
 * the response schema, and the schema still documents them. The generic serializer re-encodes every value through
 * zod first, which cost more than the database reads (≈ 34 ms of ≈ 47 ms for 500 comments).
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

export async function engagementRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const networks = ctx.platforms;
  const svc = ctx.engagement;
  // Each network's destination filter (facebook_page_ids, linkedin_organization_ids, board_id, youtube_channel_id).
  const filterShape = destinationFilterShape(networks.networks, repeatable.unwrap());
  const replyShape = replyDestinationShape(networks.networks);
  const filterOf = (q: Record<string, unknown>) => destinationFilter(networks, q);
  const knownIn = (values: string[]) => values.filter((v) => networks.has(v));

  /** The networks a read covers: those asked for (400 for an unknown one), else every one in the key's scope. */
  const platformsOf = (req: FastifyRequest, value: string | string[] | undefined, supported?: (p: Platform) => boolean): Platform[] =>
    readPlatforms(networks, principalOf(req).scope, value, supported);
  const platformsAccess = (field = 'platforms') => (req: FastifyRequest) => knownIn(splitPlatforms((req.query as Record<string, string | string[] | undefined>)[field]));
  /** `platforms` and its one-network spelling `platform`, which add up: both are checked against the key's scope. */
  const listAccess = (req: FastifyRequest) => [...platformsAccess()(req), ...platformsAccess('platform')(req)];
  const listed = (q: { platforms?: string | string[] | undefined; platform?: string | string[] | undefined }) => [...splitPlatforms(q.platforms), ...splitPlatforms(q.platform)];
  const platformAlias = repeatable.describe('The same as platforms (one network, as the single-post routes name it); the two add up.');
  const onePlatform = (req: FastifyRequest): string[] => {
    const q = req.query as { platform?: string };
    const b = (req.body ?? {}) as { platform?: unknown };
    const v = q.platform ?? (typeof b.platform === 'string' ? b.platform : undefined);
    return v && networks.has(v.toLowerCase()) ? [v.toLowerCase()] : [];
  };
  /** Networks with a read side; those without comment access answer a slice that says so. */
  const inboxNetwork = (p: Platform) => networks.get(p).engagement !== undefined;
  const platformParam = (v: string): Platform => parsePlatforms(networks, splitPlatforms(v))[0]!;

  // ---- Posts ----

  const postsQuery = z.object({
    limit: intIn(1, 50, 10),
    stats: flag,
    refresh_posts: flag,
    refresh_stats: flag,
    platforms: repeatable,
    platform: platformAlias,
    allow_paid_linkedin_refresh: flag,
    ...filterShape,
  });
  r.get(
    '/unified/posts',
    {
      serializerCompiler: plainJson,
      config: { access: { kind: 'workspace', postsRead: true, platforms: listAccess } },
      schema: {
        tags: ['engagement'],
        operationId: 'listPosts',
        summary: 'Recent posts per network with their numbers (from the database; refreshed from the networks when stale or asked)',
        responseDescription: 'Per network: its recent posts with their numbers.',
        security: workspaceSecurity,
        querystring: postsQuery,
        response: {
          200: z.looseObject({ success: z.boolean(), message: z.string(), source: z.string(), last_updated: z.string().nullable() }).catchall(z.union([postsSlice, z.boolean(), z.string(), z.null()])),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const platforms = platformsOf(req, listed(q));
      const slices = await svc.posts(principalOf(req).workspaceId, platforms, {
        limit: q.limit,
        stats: on(q.stats, true),
        refreshPosts: on(q.refresh_posts, false),
        refreshStats: on(q.refresh_stats, false),
        filter: filterOf(q),
      });
      const updated = Object.values(slices).map((s) => s.last_updated).filter((x): x is string => x !== null).sort().at(-1) ?? null;
      const fetched = Object.values(slices).some((s) => s.source === 'api');
      return { success: true, message: 'Posts retrieved.', source: fetched ? 'fetched' : 'database', last_updated: updated, ...slices };
    },
  );

  const onePostQuery = z.object({ platform: z.string().min(1), organization_id: z.string().min(1).max(500).optional(), page_id: z.string().min(1).max(500).optional() });
  const postParams = z.object({ post_id: z.string().min(1).max(500) });
  /** The page or organization a single-post call names (an organization id as the network's read rules take it). */
  const pageOf = (q: { organization_id?: string | undefined; page_id?: string | undefined }, platform: Platform) => {
    const reads = networks.network(platform).reads;
    return q.page_id ?? (q.organization_id !== undefined && reads ? readTargetId(reads, q.organization_id) : q.organization_id);
  };
  r.get(
    '/unified/posts/:post_id',
    {
      config: { access: { kind: 'workspace', platforms: onePlatform } },
      schema: {
        tags: ['engagement'],
        operationId: 'getPost',
        summary: 'One post of this workspace, refreshed from the network (its numbers are snapshotted)',
        responseDescription: 'The post, as the network has it now.',
        security: workspaceSecurity,
        params: postParams,
        querystring: onePostQuery,
        response: { 200: z.object({ success: z.boolean(), platform: z.string(), source: z.literal('api'), post: postRecord }), ...errorResponses(502) },
      },
    },
    async (req) => {
      const platform = platformParam(req.query.platform);
      const post = await svc.refreshPost(principalOf(req).workspaceId, platform, req.params.post_id, pageOf(req.query, platform));
      return { success: true, platform, source: 'api' as const, post };
    },
  );

  r.get(
    '/unified/posts/:post_id/metrics',
    {
      config: { access: { kind: 'workspace', platforms: onePlatform } },
      schema: {
        tags: ['engagement'],
        operationId: 'getPostMetrics',
        summary: "A post's numbers at every refresh, oldest first",
        responseDescription: "The post's numbers at every refresh, oldest first.",
        security: workspaceSecurity,
        params: postParams,
        querystring: z.object({ platform: z.string().min(1) }),
        response: {
          200: z.object({
            success: z.boolean(),
            platform: z.string(),
            post_id: z.string(),
            series: z.array(z.object({ at: z.string(), like_count: z.number().int(), comment_count: z.number().int(), share_count: z.number().int(), impression_count: z.number().int(), reach: z.number().int().nullable() })),
          }),
        },
      },
    },
    async (req) => {
      const platform = platformParam(req.query.platform);
      const series = await svc.metrics(principalOf(req).workspaceId, platform, req.params.post_id);
      return { success: true, platform, post_id: req.params.post_id, series };
    },
  );

  r.delete(
    '/unified/posts/:post_id',
    {
      config: { access: { kind: 'workspace', feature: 'publish_enabled', platforms: onePlatform } },
      schema: {
        tags: ['engagement'],
        operationId: 'deletePost',
        summary: 'Delete a published post on its network (409 where the network cannot delete)',
        responseDescription: 'The post is deleted on its network.',
        security: workspaceSecurity,
        params: postParams,
        querystring: onePostQuery,
        response: { 200: z.object({ success: z.boolean(), platform: z.string(), post_id: z.string(), message: z.string() }), ...errorResponses(409, 502) },
      },
    },
    async (req) => {
      const platform = platformParam(req.query.platform);
      await svc.deletePost(principalOf(req).workspaceId, platform, req.params.post_id, pageOf(req.query, platform));
      return { success: true, platform, post_id: req.params.post_id, message: 'Post deleted.' };
    },
  );

  // ---- Comments ----

  const inboxAccess = (platforms: (req: FastifyRequest) => Iterable<string>) => ({ access: { kind: 'workspace' as const, feature: 'inbox_enabled' as const, platforms } });
  const inboxQuery = z.object({
    limit: intIn(1, 50, 10),
    comments_per_post: intIn(1, 100, 50),
    force_refresh: flag,
    platforms: repeatable,
    post_id: z.string().min(1).max(500).optional(),
    platform: z.string().min(1).optional(),
    ...filterShape,
  });
  r.get(
    '/unified/comments',
    {
      serializerCompiler: plainJson,
      config: inboxAccess((req) => [...platformsAccess()(req), ...onePlatform(req)]),
      schema: {
        tags: ['engagement'],
        operationId: 'listComments',
        summary: 'Comments on the last posts of each network (stored; refreshed when stale or with force_refresh)',
        responseDescription: 'Per network: its recent posts with their comments.',
        security: workspaceSecurity,
        querystring: inboxQuery,
        response: { 200: z.looseObject({ success: z.boolean(), message: z.string().optional() }).catchall(z.union([commentsSlice, z.boolean(), z.string(), z.null()])) },
      },
    },
    async (req) => {
      const q = req.query;
      const ws = principalOf(req).workspaceId;
      const one = postAndPlatform(q.post_id, q.platform);
      if (one) {
        const platform = platformsOf(req, one.platform, inboxNetwork)[0]!;
        const entry = await svc.byPost(ws, platform, one.postId, q.comments_per_post, destinationOf(networks, platform, q));
        return { success: true, [platform]: { posts: [entry], last_updated: new Date().toISOString() } };
      }
      const platforms = platformsOf(req, q.platforms, inboxNetwork);
      const slices = await svc.inbox(ws, platforms, { limit: q.limit, perPost: q.comments_per_post, forceRefresh: on(q.force_refresh, false), filter: filterOf(q) });
      return { success: true, ...slices };
    },
  );

  const byPostQuery = z.object({ post_id: z.string().min(1).max(500), platform: z.string().min(1), comments_per_post: intIn(1, 100, 50), force_refresh: flag, ...filterShape });
  r.get(
    '/unified/comments/by-post',
    {
      serializerCompiler: plainJson,
      config: inboxAccess(onePlatform),
      schema: {
        tags: ['engagement'],
        operationId: 'listPostComments',
        summary: "One post's comments, refreshed from the network",
        responseDescription: "The post's comments.",
        security: workspaceSecurity,
        querystring: byPostQuery,
        response: { 200: postComments.extend({ success: z.boolean(), platform: z.string(), ...errorFields }), ...errorResponses(404, 502) },
      },
    },
    async (req) => {
      const q = req.query;
      const platform = platformsOf(req, q.platform, inboxNetwork)[0]!;
      const entry = await svc.byPost(principalOf(req).workspaceId, platform, q.post_id, q.comments_per_post, destinationOf(networks, platform, q));
      return { success: true, platform, ...entry, ...(entry.comment_status === 'error' && entry.comment_status_message ? { message: entry.comment_status_message, error: 'PLATFORM_ERROR' } : {}) };
    },
  );

  const repliesQuery = z.object({ comment_id: z.string().min(1).max(1000), platform: z.string().min(1), post_id: z.string().min(1).max(500).optional(), limit: intIn(1, 100, 50), force_refresh: flag, ...filterShape });
  r.get(
    '/unified/comments/replies',
    {
      serializerCompiler: plainJson,
      config: inboxAccess(onePlatform),
      schema: {
        tags: ['engagement'],
        operationId: 'listCommentReplies',
        summary: 'The replies under one synced comment',
        responseDescription: 'The replies under the comment.',
        security: workspaceSecurity,
        querystring: repliesQuery,
        response: { 200: z.object({ success: z.boolean(), platform: z.string(), post_id: z.string(), comment_id: z.string(), page_id: z.string().nullable(), replies: z.array(comment), ...errorFields }), ...errorResponses(404, 502) },
      },
    },
    async (req) => {
      const q = req.query;
      const platform = platformsOf(req, q.platform, inboxNetwork)[0]!;
      const out = await svc.replies(principalOf(req).workspaceId, platform, q.comment_id, { postId: q.post_id, limit: q.limit, forceRefresh: on(q.force_refresh, false) });
      return { success: true, platform, comment_id: q.comment_id, ...out };
    },
  );

  const replyIds = z.object({ platform: z.string().min(1).optional(), comment_id: z.string().min(1).max(1000).optional(), post_id: z.string().min(1).max(500).optional(), text: z.string().max(20_000).optional(), ...replyShape });
  r.post(
    '/unified/comments/reply',
    {
      config: inboxAccess(onePlatform),
      schema: {
        tags: ['engagement'],
        operationId: 'replyToComment',
        summary: 'Reply to a synced comment (ids in the query or the body; text in the body)',
        responseDescription: 'The reply is posted: its id at the network.',
        description: 'Errors: 400 PLATFORM_NOT_SUPPORTED, 400 VALIDATION_ERROR (empty or too long text, a missing page/organization id), 404 COMMENT_NOT_FOUND (not among this workspace\'s synced comments), 502 when the network refuses.',
        security: workspaceSecurity,
        querystring: replyIds,
        body: replyIds.optional(),
        response: { 200: z.object({ success: z.boolean(), reply_id: z.string(), message: z.string(), platform: z.string() }), ...errorResponses(404, 502) },
      },
    },
    async (req) => {
      const q = req.query;
      const b = req.body ?? {};
      const pick = (k: string): string | undefined => ((b as Record<string, unknown>)[k] as string | undefined) ?? ((q as Record<string, unknown>)[k] as string | undefined);
      const rawPlatform = pick('platform');
      if (!rawPlatform) throw new AppError('bad_request', { error: 'VALIDATION_ERROR', message: 'platform is required.' });
      const platform = replyPlatform(networks, rawPlatform);
      const commentId = pick('comment_id');
      if (!commentId) throw new AppError('bad_request', { error: 'VALIDATION_ERROR', message: 'comment_id is required.' });
      const text = replyText(pick('text'));
      const { replyId } = await svc.reply(principalOf(req).workspaceId, platform, { commentId, postId: pick('post_id'), pageId: replyDestination(networks, platform, pick), text });
      return { success: true, reply_id: replyId, message: 'Reply posted', platform };
    },
  );

  // ---- Analytics ----

  r.get(
    '/unified/analytics',
    {
      config: { access: { kind: 'workspace', feature: 'analytics_enabled', platforms: listAccess } },
      schema: {
        tags: ['engagement'],
        operationId: 'getAnalytics',
        summary: 'Per-network and total figures from the stored posts (engagement rate = (likes + comments) / reach, capped at 1)',
        responseDescription: 'Per-network and total figures.',
        security: workspaceSecurity,
        querystring: z.object({ platforms: repeatable, platform: platformAlias, ...filterShape }),
        response: {
          200: z.object({
            success: z.boolean(),
            message: z.string(),
            source: z.literal('database'),
            last_updated: z.string().nullable(),
            platforms: z.record(z.string(), figures.extend({ message: z.string().nullable(), error: z.string().nullable() })),
            totals: figures,
          }),
        },
      },
    },
    async (req) => {
      const platforms = platformsOf(req, listed(req.query));
      const out = await svc.analytics(principalOf(req).workspaceId, platforms, filterOf(req.query));
      return { success: true, message: 'Unified analytics from database.', source: 'database' as const, last_updated: out.lastUpdated, platforms: out.platforms, totals: out.totals };
    },
  );
}

