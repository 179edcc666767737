// The comments inbox routes: comments on the last posts of each network, and one post's comments.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { destinationOf, postAndPlatform } from '../../../engagement/arguments.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';
import {
  commentsSlice,
  type EngagementKit,
  errorFields,
  flag,
  intIn,
  on,
  plainJson,
  postComments,
  repeatable,
} from './engagement-common.ts';

export function commentsRoutes(
  app: FastifyInstance,
  {
    ctx,
    networks,
    filterShape,
    filterOf,
    platformsOf,
    platformsAccess,
    onePlatform,
    inboxNetwork,
    inboxAccess,
  }: EngagementKit,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const svc = ctx.engagement.inbox;

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
        response: {
          200: z
            .looseObject({ success: z.boolean(), message: z.string().optional() })
            .catchall(z.union([commentsSlice, z.boolean(), z.string(), z.null()])),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const ws = principalOf(req).workspaceId;
      const one = postAndPlatform(q.post_id, q.platform);
      if (one) {
        const platform = platformsOf(req, one.platform, inboxNetwork)[0]!;
        const entry = await svc.byPost(
          ws,
          platform,
          one.postId,
          q.comments_per_post,
          destinationOf(networks, platform, q),
        );
        return { success: true, [platform]: { posts: [entry], last_updated: new Date().toISOString() } };
      }
      const platforms = platformsOf(req, q.platforms, inboxNetwork);
      const slices = await svc.list(ws, platforms, {
        limit: q.limit,
        perPost: q.comments_per_post,
        forceRefresh: on(q.force_refresh, false),
        filter: filterOf(q),
      });
      return { success: true, ...slices };
    },
  );
  const byPostQuery = z.object({
    post_id: z.string().min(1).max(500),
    platform: z.string().min(1),
    comments_per_post: intIn(1, 100, 50),
    force_refresh: flag,
    ...filterShape,
  });
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
        response: {
          200: postComments.extend({ success: z.boolean(), platform: z.string(), ...errorFields }),
          ...errorResponses(404, 502),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const platform = platformsOf(req, q.platform, inboxNetwork)[0]!;
      const entry = await svc.byPost(
        principalOf(req).workspaceId,
        platform,
        q.post_id,
        q.comments_per_post,
        destinationOf(networks, platform, q),
      );
      return {
        success: true,
        platform,
        ...entry,
        ...(entry.comment_status === 'error' && entry.comment_status_message
          ? { message: entry.comment_status_message, error: 'PLATFORM_ERROR' }
          : {}),
      };
    },
  );
}
