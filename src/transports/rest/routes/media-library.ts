// The workspace media library: list, read, delete one, delete many, delete by filter.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Networks } from '../../../platforms/registry.ts';
import type { AppContext } from '../../../app-context.ts';
import { AppError } from '../../../errors.ts';
import { parseMediaPlatform } from '../../../media/records.ts';
import type { DeleteOutcome, ListFilter } from '../../../media/service.ts';
import { principalOf } from '../access.ts';
import { workspaceSecurity } from '../schemas.ts';

export const mediaItemSchema = z.object({
  media_id: z.string(),
  media_type: z.string(),
  platform: z.string().nullable(),
  platform_user_id: z.string().nullable(),
  public_url: z.string(),
  filename: z.string(),
  original_filename: z.string().nullable(),
  file_size: z.number(),
  mime_type: z.string(),
  format: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  duration: z.number().nullable().describe('seconds'),
  video_codec: z.string().nullable(),
  audio_codec: z.string().nullable(),
  status: z.string().describe('ready'),
  uploaded_at: z.string(),
});

export const mediaRecordSchema = mediaItemSchema.extend({ success: z.boolean(), message: z.string() });

export const deleteOutcomeSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  deleted_count: z.number(),
  failed_count: z.number(),
  errors: z.array(z.object({ media_id: z.string(), error: z.string() })).nullable(),
});

const filterQuery = z.object({
  media_type: z.enum(['image', 'video']).optional(),
  platform: z.string().max(40).optional().describe("a platform slug, or 'library' for media without one"),
});

const listQuery = filterQuery.extend({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

const idParams = z.object({ id: z.uuid() });

function parseFilter(q: z.infer<typeof filterQuery>, slugs: readonly string[]): ListFilter {
  const raw = q.platform?.trim().toLowerCase();
  const platform = raw === 'library' ? 'library' : parseMediaPlatform(raw, slugs);
  return { ...(q.media_type ? { mediaType: q.media_type } : {}), ...(platform ? { platform } : {}) };
}

/** The platform filter, for the access hook: a key outside it gets 403 before anything is read. */
const queryPlatforms =
  (networks: Networks) =>
  (req: FastifyRequest): string[] => {
    const v = (req.query as { platform?: string } | undefined)?.platform?.trim().toLowerCase() ?? '';
    return networks.has(v) ? [v] : [];
  };

function outcome(o: DeleteOutcome) {
  const failed = o.errors.length;
  return {
    success: o.deleted.length > 0 || failed === 0,
    message: `Deleted ${o.deleted.length} media${failed ? `, ${failed} failed` : ''}`,
    deleted_count: o.deleted.length,
    failed_count: failed,
    errors: failed ? o.errors : null,
  };
}

export async function mediaLibraryRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { kind: 'workspace' as const, platforms: queryPlatforms(ctx.platforms) };

  r.get(
    '/media',
    {
      config: { access },
      schema: {
        tags: ['media'],
        operationId: 'listMedia',
        summary: 'List the workspace media, newest first',
        responseDescription: 'A page of the workspace media, newest first.',
        security: workspaceSecurity,
        querystring: listQuery,
        response: {
          200: z.object({
            success: z.boolean(),
            media: z.array(mediaItemSchema),
            total: z.number(),
            limit: z.number(),
            offset: z.number(),
            count: z.number(),
          }),
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const { limit, offset } = req.query;
      const { rows, total } = await ctx.media.list(
        p.workspaceId,
        p.scope,
        parseFilter(req.query, ctx.platforms.slugs),
        limit,
        offset,
      );
      return { success: true, media: rows.map((row) => ctx.media.item(row)), total, limit, offset, count: rows.length };
    },
  );

  r.get(
    '/media/:id',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['media'],
        operationId: 'getMedia',
        summary: 'One media record',
        responseDescription: 'The media record.',
        security: workspaceSecurity,
        params: idParams,
        response: { 200: mediaRecordSchema },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const row = await ctx.media.get(p.workspaceId, p.scope, req.params.id);
      return { success: true, message: 'Media retrieved successfully', ...ctx.media.item(row) };
    },
  );

  r.delete(
    '/media/bulk',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['media'],
        operationId: 'deleteMediaBulk',
        summary: 'Delete up to 100 media by id (from the database and storage)',
        responseDescription: 'What was deleted, and why any id was not.',
        security: workspaceSecurity,
        body: z.object({ media_ids: z.array(z.string().max(64)).min(1).max(100) }),
        response: { 200: deleteOutcomeSchema },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return outcome(await ctx.media.removeMany(p.workspaceId, p.scope, req.body.media_ids));
    },
  );

  r.delete(
    '/media/filter',
    {
      config: { access },
      schema: {
        tags: ['media'],
        operationId: 'deleteMediaByFilter',
        summary: 'Delete every media matching platform and/or media_type',
        responseDescription: 'What was deleted.',
        security: workspaceSecurity,
        querystring: filterQuery,
        response: { 200: deleteOutcomeSchema },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const filter = parseFilter(req.query, ctx.platforms.slugs);
      if (!filter.platform && !filter.mediaType) {
        throw new AppError('validation', [
          {
            loc: ['query', 'platform'],
            msg: 'Give platform and/or media_type (deleting everything needs an explicit filter).',
            type: 'missing',
          },
        ]);
      }
      return outcome(await ctx.media.removeWhere(p.workspaceId, p.scope, filter));
    },
  );

  r.delete(
    '/media/:id',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['media'],
        operationId: 'deleteMedia',
        summary: 'Delete one media (from the database and storage)',
        responseDescription: 'The media is deleted.',
        security: workspaceSecurity,
        params: idParams,
        response: { 200: z.object({ success: z.boolean(), message: z.string() }) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      await ctx.media.remove(p.workspaceId, p.scope, req.params.id);
      return { success: true, message: 'Media deleted successfully' };
    },
  );
}
