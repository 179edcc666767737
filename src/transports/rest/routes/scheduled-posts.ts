// /unified/scheduled-posts: queue entries (one per network) and the actions on them.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { assertPlatformsAllowed } from '../../../auth/scopes.ts';
import {
  anyPostBody,
  dateTime,
  parsePostBody,
  type ScheduledRef,
  scheduledRefSchema,
} from '../../../publishing/index.ts';
import { scheduledEntrySchema, type ScheduledRow, STATUSES } from '../../../scheduling/index.ts';
import { principalOf } from '../access.ts';
import type { HttpMetrics } from '../metrics.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';
import {
  bodyPlatforms,
  idempotencyHeaders,
  NULL_NOTE,
  nullMeansUnset,
  POST_BODY_LIMIT,
  requirePostType,
} from './posts.ts';
import { onePlatform } from '../../../platforms/arguments.ts';

const postType = z.enum(['text', 'image', 'carousel', 'video']);
const idParams = z.object({ id: z.uuid() });
/** The answers of the scheduled-post routes: the entries concerned, and the list's filters where it has them. */
const envelope = z.object({
  success: z.boolean(),
  message: z.string(),
  data: z
    .object({
      scheduled_posts: z.array(scheduledEntrySchema),
      total: z.number().int(),
      platform: z.string().nullable().optional(),
      platform_user_id: z.string().nullable().optional(),
      status: z.string().nullable().optional(),
      /** Set by move-to-draft: the draft the entry became. */
      draft_id: z.string().optional(),
    })
    .nullable(),
  error: z.string().nullable(),
});
const patchBody = z.object({
  scheduled_time: dateTime.optional(),
  post_data: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Fields of the post body (as for POST /unified/scheduled-posts) to replace; unknown fields are ignored, and a PATCH that changes nothing Herald understands is 422.',
    ),
  post_type: postType.optional(),
  status: z.enum(STATUSES as [string, ...string[]]).optional(),
});

export async function scheduledPostRoutes(
  app: FastifyInstance,
  { ctx, metrics }: { ctx: AppContext; metrics?: HttpMetrics },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Every post route's fields, for the document; the handlers check bodies against post_type's own schema.
  const createBody = anyPostBody(ctx.platforms.networks).extend({ post_type: postType, scheduled_time: dateTime });
  const access = { kind: 'workspace' as const, feature: 'scheduling_enabled' as const };
  const svc = ctx.scheduling;
  if (metrics) {
    ctx.scheduleWorker.metrics.register(metrics.registry, svc.store, ctx.config.scheduling.graceSeconds, ctx.clock);
    ctx.reconciler.register(metrics.registry);
  }

  async function owned(req: { params: { id: string } } & Parameters<typeof principalOf>[0]) {
    const p = principalOf(req);
    const row = await svc.store.owned(p.workspaceId, req.params.id);
    assertPlatformsAllowed(p.scope, [row.platform]);
    return { p, row };
  }
  const one = async (message: string, row: ScheduledRow, extra: { draft_id?: string } = {}) => {
    const items = await svc.wire([row], row.workspaceId);
    return { success: true, message, data: { scheduled_posts: items, total: 1, ...extra }, error: null };
  };

  r.post(
    '/unified/scheduled-posts',
    {
      config: { access: { ...access, platforms: bodyPlatforms(ctx.platforms) } },
      bodyLimit: POST_BODY_LIMIT,
      preValidation: [nullMeansUnset, requirePostType],
      schema: {
        tags: ['scheduling'],
        operationId: 'createScheduledPost',
        summary: 'Schedule a post (one queue entry per network)',
        responseDescription: 'Scheduled: one queue entry per network.',
        description: `Schedule a post (one queue entry per network). ${NULL_NOTE} Without post_type: 400.`,
        security: workspaceSecurity,
        headers: idempotencyHeaders,
        body: createBody,
        response: {
          200: envelope.extend({ scheduled: z.array(scheduledRefSchema) }),
          ...errorResponses(402, 404, 409),
        },
      },
    },
    async (req, reply) => {
      const { post_type, ...body } = req.body as { post_type: z.infer<typeof postType> } & Record<string, unknown>;
      const result = await svc.create(
        principalOf(req),
        post_type,
        parsePostBody(ctx.platforms.networks, post_type, body),
        req.headers['idempotency-key'],
      );
      return reply
        .code(result.status as 200)
        .send(result.body as z.infer<typeof envelope> & { scheduled: ScheduledRef[] });
    },
  );

  r.get(
    '/unified/scheduled-posts',
    {
      config: { access },
      schema: {
        tags: ['scheduling'],
        operationId: 'listScheduledPosts',
        summary: 'List scheduled posts',
        responseDescription: 'The scheduled posts of the workspace.',
        security: workspaceSecurity,
        querystring: z.object({
          platform: z.string().optional(),
          platform_user_id: z.string().optional(),
          status: z.enum(STATUSES as [string, ...string[]]).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(50),
          offset: z.coerce.number().int().min(0).default(0),
        }),
        response: { 200: envelope },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const q = req.query;
      // An unknown network is 400 (as on every route, and the get_queued_posts tool), before the key's scope.
      const platform = q.platform ? onePlatform(ctx.platforms, q.platform) : undefined;
      if (platform) assertPlatformsAllowed(p.scope, [platform]);
      const rows = await svc.list(p, {
        platform,
        platformUserId: q.platform_user_id,
        status: q.status,
        limit: q.limit,
        offset: q.offset,
      });
      const items = await svc.wire(rows, p.workspaceId);
      return {
        success: true,
        message: `Retrieved ${items.length} scheduled posts`,
        data: {
          scheduled_posts: items,
          total: items.length,
          platform: q.platform ?? null,
          platform_user_id: q.platform_user_id ?? null,
          status: q.status ?? null,
        },
        error: null,
      };
    },
  );

  r.patch(
    '/unified/scheduled-posts/:id',
    {
      config: { access },
      bodyLimit: POST_BODY_LIMIT,
      schema: {
        tags: ['scheduling'],
        operationId: 'updateScheduledPost',
        summary: 'Reschedule, edit or cancel a scheduled post',
        responseDescription: 'The scheduled post as changed.',
        security: workspaceSecurity,
        params: idParams,
        body: patchBody,
        response: { 200: envelope, ...errorResponses(409) },
      },
    },
    async (req) => {
      const { p } = await owned(req);
      const row = await svc.patch(p, req.params.id, req.body as Parameters<typeof svc.patch>[2]);
      return one(row.status === 'cancelled' ? 'Scheduled post cancelled' : 'Scheduled post updated', row);
    },
  );

  r.delete(
    '/unified/scheduled-posts/:id',
    {
      config: { access },
      schema: {
        tags: ['scheduling'],
        operationId: 'cancelScheduledPost',
        summary: 'Cancel a scheduled post',
        description:
          "A queued post's slot becomes free; nothing else moves unless reflow=true, which moves every later post of its queue up one slot.",
        responseDescription: 'The scheduled post, cancelled.',
        security: workspaceSecurity,
        params: idParams,
        querystring: z.object({
          reflow: z
            .enum(['true', 'false'])
            .optional()
            .describe('A queued post: the later posts of its queue move up one slot each'),
        }),
        response: { 200: envelope, ...errorResponses(409) },
      },
    },
    async (req) => {
      const { p } = await owned(req);
      const row = await svc.cancel(p.workspaceId, req.params.id);
      if (req.query.reflow === 'true') await ctx.queues.reflow(p.workspaceId, row);
      return one('Scheduled post cancelled', row);
    },
  );

  r.post(
    '/unified/scheduled-posts/:id/publish-now',
    {
      config: { access },
      schema: {
        tags: ['scheduling'],
        operationId: 'publishScheduledPostNow',
        summary: 'Publish a scheduled post now',
        responseDescription:
          'The scheduled post after the attempt: published, failed, or still publishing in the background.',
        security: workspaceSecurity,
        params: idParams,
        response: { 200: envelope, ...errorResponses(409) },
      },
    },
    async (req) => {
      const { p } = await owned(req);
      const row = await svc.publishNow(p.workspaceId, req.params.id);
      const res = await one(
        row.status === 'published'
          ? 'Published'
          : `Publishing ${row.status === 'failed' ? 'failed' : 'continues in the background'}`,
        row,
      );
      return { ...res, success: row.status !== 'failed', error: row.status === 'failed' ? row.errorMessage : null };
    },
  );

  r.post(
    '/unified/scheduled-posts/:id/move-to-draft',
    {
      config: { access },
      schema: {
        tags: ['scheduling'],
        operationId: 'moveScheduledPostToDraft',
        summary: 'Turn a scheduled post into a draft',
        responseDescription: 'The scheduled post is now a draft.',
        security: workspaceSecurity,
        params: idParams,
        response: { 200: envelope, ...errorResponses(409) },
      },
    },
    async (req) => {
      const { p } = await owned(req);
      const { row, draftId } = await svc.moveToDraft(p.workspaceId, req.params.id);
      return one('Moved to drafts', row, { draft_id: draftId });
    },
  );
}
