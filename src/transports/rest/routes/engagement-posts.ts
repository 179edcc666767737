// The posts read model routes: recent posts per network, one post refreshed, its numbers over time, deleting it.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Platform } from '../../../platforms/slugs.ts';
import { readTargetId } from '../../../platforms/contract.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';
import {
  type EngagementKit,
  flag,
  intIn,
  on,
  plainJson,
  postRecord,
  postsSlice,
  repeatable,
} from './engagement-common.ts';

export function postsRoutes(
  app: FastifyInstance,
  {
    ctx,
    networks,
    filterShape,
    filterOf,
    platformsOf,
    listAccess,
    listed,
    platformAlias,
    onePlatform,
    platformParam,
  }: EngagementKit,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const svc = ctx.engagement.posts;

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
        summary:
          'Recent posts per network with their numbers (from the database; refreshed from the networks when stale or asked)',
        responseDescription: 'Per network: its recent posts with their numbers.',
        security: workspaceSecurity,
        querystring: postsQuery,
        response: {
          200: z
            .looseObject({
              success: z.boolean(),
              message: z.string(),
              source: z.string(),
              last_updated: z.string().nullable(),
            })
            .catchall(z.union([postsSlice, z.boolean(), z.string(), z.null()])),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const platforms = platformsOf(req, listed(q));
      const slices = await svc.list(principalOf(req).workspaceId, platforms, {
        limit: q.limit,
        stats: on(q.stats, true),
        refreshPosts: on(q.refresh_posts, false),
        refreshStats: on(q.refresh_stats, false),
        filter: filterOf(q),
      });
      const updated =
        Object.values(slices)
          .map((s) => s.last_updated)
          .filter((x): x is string => x !== null)
          .sort()
          .at(-1) ?? null;
      const fetched = Object.values(slices).some((s) => s.source === 'api');
      return {
        success: true,
        message: 'Posts retrieved.',
        source: fetched ? 'fetched' : 'database',
        last_updated: updated,
        ...slices,
      };
    },
  );

  const onePostQuery = z.object({
    platform: z.string().min(1),
    organization_id: z.string().min(1).max(500).optional(),
    page_id: z.string().min(1).max(500).optional(),
  });
  const postParams = z.object({ post_id: z.string().min(1).max(500) });
  /** The page or organization a single-post call names (an organization id as the network's read rules take it). */
  const pageOf = (q: { organization_id?: string | undefined; page_id?: string | undefined }, platform: Platform) => {
    const reads = networks.network(platform).reads;
    return (
      q.page_id ??
      (q.organization_id !== undefined && reads ? readTargetId(reads, q.organization_id) : q.organization_id)
    );
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
        response: {
          200: z.object({ success: z.boolean(), platform: z.string(), source: z.literal('api'), post: postRecord }),
          ...errorResponses(502),
        },
      },
    },
    async (req) => {
      const platform = platformParam(req.query.platform);
      const post = await svc.refreshPost(
        principalOf(req).workspaceId,
        platform,
        req.params.post_id,
        pageOf(req.query, platform),
      );
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
            series: z.array(
              z.object({
                at: z.string(),
                like_count: z.number().int(),
                comment_count: z.number().int(),
                share_count: z.number().int(),
                impression_count: z.number().int(),
                reach: z.number().int().nullable(),
              }),
            ),
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
        response: {
          200: z.object({ success: z.boolean(), platform: z.string(), post_id: z.string(), message: z.string() }),
          ...errorResponses(409, 502),
        },
      },
    },
    async (req) => {
      const platform = platformParam(req.query.platform);
      await svc.deletePost(principalOf(req).workspaceId, platform, req.params.post_id, pageOf(req.query, platform));
      return { success: true, platform, post_id: req.params.post_id, message: 'Post deleted.' };
    },
  );
}
