// Chunked (resumable) uploads: init → chunk × N (any order, repeatable) → complete; progress any time.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Networks } from '../../../platforms/registry.ts';
import type { AppContext } from '../../../app-context.ts';
import { AppError } from '../../../errors.ts';
import { assertContentLength, readForm, type FormPart } from '../../../media/form.ts';
import { parseMediaPlatform } from '../../../media/records.ts';
import { CHUNK_SIZE } from '../../../media/uploads.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';
import { mediaRecordSchema } from './media-library.ts';

const field = (name: string, msg: string, type = 'value_error') =>
  new AppError('validation', [{ loc: ['body', name], msg, type }]);

const bodyPlatforms =
  (networks: Networks) =>
  (req: FastifyRequest): string[] => {
    const v = (req.body as { platform?: unknown } | undefined)?.platform;
    const slug = typeof v === 'string' ? v.trim().toLowerCase() : '';
    return networks.has(slug) ? [slug] : [];
  };

const initBody = z.object({
  filename: z.string().min(1).max(1024),
  file_size: z.number().int().min(1),
  total_chunks: z.number().int().min(1),
  platform: z.string().max(40).nullish(),
  platform_user_id: z.string().max(200).nullish(),
  media_type: z.enum(['image', 'video']).default('video'),
});

const completeBody = z.object({
  upload_id: z.string().min(1).max(64),
  platform: z.string().max(40).nullish(),
  media_type: z.enum(['image', 'video']).optional(),
  original_filename: z.string().max(1024).optional(),
});

export async function mediaChunkRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { kind: 'workspace' as const, platforms: bodyPlatforms(ctx.platforms) };

  r.post(
    '/media/storage/init',
    {
      config: { access },
      schema: {
        tags: ['media'],
        operationId: 'startChunkedUpload',
        summary: 'Start a chunked upload (1 MiB chunks)',
        responseDescription: 'The upload session: its id and chunk size.',
        security: workspaceSecurity,
        body: initBody,
        response: { 200: z.object({ upload_id: z.string(), chunk_size: z.number() }) },
      },
    },
    async (req) => {
      const b = req.body;
      return ctx.uploads.init(principalOf(req), {
        filename: b.filename,
        fileSize: b.file_size,
        totalChunks: b.total_chunks,
        platform: parseMediaPlatform(b.platform, ctx.platforms.slugs),
        platformUserId: b.platform_user_id?.trim() || null,
        mediaType: b.media_type,
      });
    },
  );

  r.post(
    '/media/storage/chunk',
    {
      config: { access: { kind: 'workspace' } },
      // A chunk is at most 1 MiB; anything much bigger is refused before it is read.
      onRequest: async (req) => assertContentLength(req.headers, CHUNK_SIZE + 64 * 1024),
      schema: {
        tags: ['media'],
        operationId: 'uploadChunk',
        summary: 'Send one chunk (multipart: upload_id, chunk_number from 1, file); sending it again replaces it',
        responseDescription: 'The chunk is stored.',
        consumes: ['multipart/form-data'],
        documentedBody: {
          'multipart/form-data': z.object({
            upload_id: z.string().describe('From /media/storage/init'),
            chunk_number: z.string().describe('1-based chunk number'),
            file: z.file().describe('The chunk (at most 1 MiB)'),
          }),
        },
        security: workspaceSecurity,
        response: { 200: z.object({ success: z.boolean() }), ...errorResponses(404, 409) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const form = await readForm(req.parts({ limits: { files: 1, fields: 10 } }) as AsyncIterable<FormPart>, {
        temp: ctx.media.temp,
        onFile: (name, f) => {
          if (name !== 'file' && name !== 'chunk')
            throw field(name, `Unexpected file field '${name}'; send the chunk as 'file'.`);
          if (f.files.length) throw field('file', 'Send one chunk per request.');
          return CHUNK_SIZE;
        },
        tooLarge: () => field('file', `A chunk is at most ${CHUNK_SIZE} bytes.`),
      });
      const [file] = form.files;
      try {
        const uploadId = form.fields.get('upload_id')?.trim();
        const number = form.fields.get('chunk_number')?.trim();
        if (!uploadId) throw field('upload_id', 'Field required', 'missing');
        if (!number) throw field('chunk_number', 'Field required', 'missing');
        if (!/^\d{1,9}$/.test(number))
          throw field('chunk_number', 'chunk_number must be a positive integer.', 'int_parsing');
        if (!file) throw field('file', 'Field required', 'missing');
        await ctx.uploads.putChunk(p, uploadId, Number(number), file);
        return { success: true };
      } finally {
        if (file) await ctx.media.temp.remove(file.path);
      }
    },
  );

  r.get(
    '/media/storage/progress',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['media'],
        operationId: 'getChunkedUploadProgress',
        summary: 'Progress of a chunked upload',
        responseDescription: 'The chunks received so far.',
        description:
          'status: pending (no chunk yet) | uploading | ready (all chunks, not completed) | assembling | complete | failed | expired',
        security: workspaceSecurity,
        querystring: z.object({ upload_id: z.string().min(1).max(64) }),
        response: {
          200: z.object({
            upload_id: z.string(),
            uploaded_chunks: z.number(),
            total_chunks: z.number(),
            status: z.enum(['pending', 'uploading', 'ready', 'assembling', 'complete', 'failed', 'expired']),
            missing_chunks: z.array(z.number()).optional(),
            media_id: z.string().optional(),
            error: z.string().optional(),
            expires_at: z.string(),
          }),
          ...errorResponses(404),
        },
      },
    },
    async (req) => ctx.uploads.progress(principalOf(req), req.query.upload_id),
  );

  r.post(
    '/media/storage/complete',
    {
      config: { access },
      schema: {
        tags: ['media'],
        operationId: 'completeChunkedUpload',
        summary: 'Finish a chunked upload: verify, assemble, check and store; returns the media record',
        responseDescription: 'The media record of the assembled file.',
        security: workspaceSecurity,
        body: completeBody,
        response: { 200: mediaRecordSchema.extend({ upload_id: z.string() }), ...errorResponses(404, 409) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const b = req.body;
      const row = await ctx.uploads.complete(p, b.upload_id, {
        // Omitted (or empty) means "as at init"; anything given must match it.
        ...(b.platform?.trim() ? { platform: parseMediaPlatform(b.platform, ctx.platforms.slugs) } : {}),
        ...(b.media_type ? { mediaType: b.media_type } : {}),
        ...(b.original_filename ? { originalFilename: b.original_filename } : {}),
      });
      return { success: true, message: 'Media uploaded successfully', upload_id: b.upload_id, ...ctx.media.item(row) };
    },
  );
}
