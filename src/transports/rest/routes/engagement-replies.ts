// The replies routes: the replies under one synced comment, and replying to a comment.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { replyDestination, replyPlatform, replyText } from '../../../engagement/arguments.ts';
import { AppError } from '../../../errors.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';
import { comment, type EngagementKit, errorFields, flag, intIn, on, plainJson } from './engagement-common.ts';

export function repliesRoutes(
  app: FastifyInstance,
  { ctx, networks, filterShape, replyShape, platformsOf, onePlatform, inboxNetwork, inboxAccess }: EngagementKit,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const svc = ctx.engagement.replies;

  const repliesQuery = z.object({
    comment_id: z.string().min(1).max(1000),
    platform: z.string().min(1),
    post_id: z.string().min(1).max(500).optional(),
    limit: intIn(1, 100, 50),
    force_refresh: flag,
    ...filterShape,
  });
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
        response: {
          200: z.object({
            success: z.boolean(),
            platform: z.string(),
            post_id: z.string(),
            comment_id: z.string(),
            page_id: z.string().nullable(),
            replies: z.array(comment),
            ...errorFields,
          }),
          ...errorResponses(404, 502),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const platform = platformsOf(req, q.platform, inboxNetwork)[0]!;
      const out = await svc.list(principalOf(req).workspaceId, platform, q.comment_id, {
        postId: q.post_id,
        limit: q.limit,
        forceRefresh: on(q.force_refresh, false),
      });
      return { success: true, platform, comment_id: q.comment_id, ...out };
    },
  );

  const replyIds = z.object({
    platform: z.string().min(1).optional(),
    comment_id: z.string().min(1).max(1000).optional(),
    post_id: z.string().min(1).max(500).optional(),
    text: z.string().max(20_000).optional(),
    ...replyShape,
  });
  r.post(
    '/unified/comments/reply',
    {
      config: inboxAccess(onePlatform),
      schema: {
        tags: ['engagement'],
        operationId: 'replyToComment',
        summary: 'Reply to a synced comment (ids in the query or the body; text in the body)',
        responseDescription: 'The reply is posted: its id at the network.',
        description:
          "Errors: 400 PLATFORM_NOT_SUPPORTED, 400 VALIDATION_ERROR (empty or too long text, a missing page/organization id), 404 COMMENT_NOT_FOUND (not among this workspace's synced comments), 502 when the network refuses.",
        security: workspaceSecurity,
        querystring: replyIds,
        body: replyIds.optional(),
        response: {
          200: z.object({ success: z.boolean(), reply_id: z.string(), message: z.string(), platform: z.string() }),
          ...errorResponses(404, 502),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const b = req.body ?? {};
      const pick = (k: string): string | undefined =>
        ((b as Record<string, unknown>)[k] as string | undefined) ??
        ((q as Record<string, unknown>)[k] as string | undefined);
      const rawPlatform = pick('platform');
      if (!rawPlatform)
        throw new AppError('bad_request', { error: 'VALIDATION_ERROR', message: 'platform is required.' });
      const platform = replyPlatform(networks, rawPlatform);
      const commentId = pick('comment_id');
      if (!commentId)
        throw new AppError('bad_request', { error: 'VALIDATION_ERROR', message: 'comment_id is required.' });
      const text = replyText(pick('text'));
      const { replyId } = await svc.reply(principalOf(req).workspaceId, platform, {
        commentId,
        postId: pick('post_id'),
        pageId: replyDestination(networks, platform, pick),
        text,
      });
      return { success: true, reply_id: replyId, message: 'Reply posted', platform };
    },
  );
}
