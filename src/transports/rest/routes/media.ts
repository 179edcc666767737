// Media routes of the interface: upload (multipart or JSON with URLs) and the workspace library.
// The chunked-upload routes are registered from here too, so both share the scoped multipart parser.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principal } from '../../../auth/authenticate.ts';
import type { Networks } from '../../../platforms/registry.ts';
import type { AppContext } from '../../../app-context.ts';
import { AppError } from '../../../errors.ts';
import { assertContentLength, readForm, type FormFile, type FormPart } from '../../../media/form.ts';
import { sizeLimitError } from '../../../media/ingest.ts';
import { sniffFile, UnsupportedMediaError } from '../../../media/sniff.ts';
import { assertMediaPlatformAllowed, MiB, parseMediaPlatform, type MediaKind } from '../../../media/records.ts';
import type { UploadSource } from '../../../media/service.ts';
import { principalOf } from '../access.ts';
import { workspaceSecurity } from '../schemas.ts';
import { mediaChunkRoutes } from './media-chunks.ts';
import { mediaItemSchema, mediaLibraryRoutes, mediaRecordSchema } from './media-library.ts';

export const MIN_IMAGES = 2;
export const MAX_IMAGES = 35;
const UPLOAD_TYPES = ['image', 'video', 'images'] as const;
type UploadType = (typeof UPLOAD_TYPES)[number];
const IMAGE_FIELDS = new Set(['images', 'images[]']);
/** The single file: `media` (the interface), or `file` (what the documented n8n guide sends). */
const SINGLE_FIELDS = new Set(['media', 'file']);

const field = (loc: (string | number)[], msg: string, type = 'value_error') =>
  new AppError('validation', [{ loc: ['body', ...loc], msg, type }]);

function parseUploadType(raw: string | undefined): UploadType | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const v = raw.trim().toLowerCase();
  if (!(UPLOAD_TYPES as readonly string[]).includes(v))
    throw field(['media_type'], "Input should be 'image', 'video' or 'images'", 'enum');
  return v as UploadType;
}

/** The request, whichever body type it came in. */
interface UploadInput {
  mediaType?: string;
  mediaUrl?: string;
  imageUrls?: string | string[];
  platform?: string;
  platformUserId?: string;
  files: FormFile[];
}

const jsonUpload = z.object({
  media_type: z.string().optional(),
  media_url: z.string().max(4096).optional(),
  image_urls: z.union([z.string().max(150_000), z.array(z.string().max(4096)).max(100)]).optional(),
  platform: z.string().max(40).optional(),
  platform_user_id: z.string().max(200).optional(),
});

/** The multipart form of /media/upload, for the API reference (the route streams it: no schema validates it). */
const uploadForm = z.object({
  media_type: z
    .enum(UPLOAD_TYPES)
    .optional()
    .describe(
      'image, video, or images (2–35 images at once). Without it, the type of a file is read from its bytes (several files: images); a URL needs it.',
    ),
  media: z.file().optional().describe('The file, with media_type image or video'),
  file: z.file().optional().describe("The file, as 'media' (the name the n8n guide uses)"),
  images: z.array(z.file()).optional().describe('2–35 image files, with media_type=images (also accepted as images[])'),
  media_url: z.string().optional().describe('Instead of a file: an HTTPS URL to import'),
  image_urls: z.string().optional().describe('Instead of files: comma-separated HTTPS URLs (media_type=images)'),
  platform: z.string().optional().describe('The network the media is for (checked against a key scope)'),
  platform_user_id: z.string().optional().describe('The connected account it is for'),
});

const splitUrls = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v : (v ?? '').split(',')).map((u) => u.trim()).filter(Boolean);

/** Platforms a JSON body names, for the access hook (multipart fields are checked as they arrive). */
const jsonPlatforms =
  (networks: Networks) =>
  (req: FastifyRequest): string[] => {
    const body = req.body as { platform?: unknown } | undefined;
    const v = typeof body?.platform === 'string' ? body.platform.trim().toLowerCase() : '';
    return networks.has(v) ? [v] : [];
  };

export async function mediaRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { maxImageBytes, maxVideoBytes } = ctx.config.media;
  // Form framing and text fields on top of the largest file a request may carry.
  const maxUploadBody = Math.max(maxVideoBytes, MAX_IMAGES * maxImageBytes) + MiB;
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: {
      fileSize: Math.max(maxImageBytes, maxVideoBytes) + 1,
      files: MAX_IMAGES + 1,
      fields: 20,
      fieldSize: 256 * 1024,
      parts: 64,
      headerPairs: 200,
    },
  });
  // An answer given before the body was read in full (401, 413, an early 422): early-answers.ts.
  const r = app.withTypeProvider<ZodTypeProvider>();

  async function readMultipartUpload(req: FastifyRequest, p: Principal): Promise<UploadInput> {
    let declared: UploadType | undefined;
    const form = await readForm(req.parts() as AsyncIterable<FormPart>, {
      temp: ctx.media.temp,
      onField: (name, value) => {
        // Fail fast on what is already known, before the files are read.
        if (name === 'media_type') declared = parseUploadType(value);
        if (name === 'platform') assertMediaPlatformAllowed(p.scope, parseMediaPlatform(value, ctx.platforms.slugs));
      },
      onFile: (name, f) => {
        if (SINGLE_FIELDS.has(name)) {
          if (declared === 'images') throw field([name], "With media_type=images, send the files in 'images'.");
          if (f.files.some((x) => SINGLE_FIELDS.has(x.field)))
            throw field([name], "Only one file may be sent in 'media' (or 'file'); use media_type=images for several.");
        } else if (IMAGE_FIELDS.has(name)) {
          if (declared && declared !== 'images') throw field(['images'], "'images' is only for media_type=images.");
          if (f.files.filter((x) => IMAGE_FIELDS.has(x.field)).length >= MAX_IMAGES)
            throw field(['images'], `At most ${MAX_IMAGES} images per request.`);
        } else {
          throw field([name], `Unexpected file field '${name}'; use 'media' (or 'file') or 'images'.`);
        }
        return declared === 'video' ? maxVideoBytes : declared ? maxImageBytes : Math.max(maxImageBytes, maxVideoBytes);
      },
      tooLarge: (limit) => sizeLimitError(limit === maxImageBytes ? 'image' : 'video', limit),
    });
    const get = (k: string) => form.fields.get(k);
    return {
      mediaType: get('media_type'),
      mediaUrl: get('media_url'),
      imageUrls: get('image_urls'),
      platform: get('platform'),
      platformUserId: get('platform_user_id'),
      files: form.files,
    };
  }

  function parseJsonUpload(body: unknown): UploadInput {
    const parsed = jsonUpload.safeParse(body ?? {});
    if (!parsed.success) {
      throw new AppError(
        'validation',
        parsed.error.issues.map((i) => ({
          loc: ['body', ...i.path.map((x) => (typeof x === 'number' ? x : String(x)))],
          msg: i.message,
          type: i.code,
        })),
      );
    }
    const b = parsed.data;
    return {
      mediaType: b.media_type,
      mediaUrl: b.media_url,
      imageUrls: b.image_urls,
      platform: b.platform,
      platformUserId: b.platform_user_id,
      files: [],
    };
  }

  r.post(
    '/media/upload',
    {
      config: { access: { kind: 'workspace', platforms: jsonPlatforms(ctx.platforms) } },
      onRequest: async (req) => assertContentLength(req.headers, maxUploadBody),
      schema: {
        tags: ['media'],
        operationId: 'uploadMedia',
        summary: 'Upload an image or video (file or HTTPS URL), or 2–35 images',
        responseDescription: 'The media stored.',
        description:
          'multipart/form-data with media_type, media | media_url, images[] | image_urls, platform. ' +
          'application/json is accepted too, for URL imports ({media_type, media_url | image_urls, platform}).',
        consumes: ['multipart/form-data', 'application/json'],
        documentedBody: { 'multipart/form-data': uploadForm, 'application/json': jsonUpload },
        security: workspaceSecurity,
        response: {
          200: z.union([
            mediaRecordSchema,
            z.object({
              success: z.boolean(),
              message: z.string(),
              uploaded_count: z.number(),
              failed_count: z.number(),
              media_ids: z.array(z.string()),
              public_urls: z.array(z.string()),
              media: z.array(mediaItemSchema),
              errors: z.array(z.object({ index: z.number(), source: z.string(), error: z.string() })).nullable(),
            }),
          ]),
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const input = req.isMultipart() ? await readMultipartUpload(req, p) : parseJsonUpload(req.body);
      try {
        return await upload(p, input);
      } finally {
        await ctx.media.temp.remove(...input.files.map((f) => f.path));
      }
    },
  );

  /**
   * No media_type: one file's type is read from its bytes (an unrecognised file is then refused by the
   * ingest as any other upload); several image files are `images`. URLs need media_type.
   */
  async function inferredType(single: FormFile[], images: FormFile[]): Promise<UploadType> {
    if (single.length === 1 && !images.length) {
      try {
        return (await sniffFile(single[0]!.path)).kind;
      } catch (err) {
        if (err instanceof UnsupportedMediaError) return 'image';
        throw err;
      }
    }
    if (images.length && !single.length) return 'images';
    throw field(['media_type'], 'Field required', 'missing');
  }

  async function upload(p: Principal, input: UploadInput) {
    const platform = parseMediaPlatform(input.platform, ctx.platforms.slugs);
    const mediaFiles = input.files.filter((f) => SINGLE_FIELDS.has(f.field));
    const imageFiles = input.files.filter((f) => IMAGE_FIELDS.has(f.field));
    const mediaUrl = input.mediaUrl?.trim() ?? '';
    const imageUrls = splitUrls(input.imageUrls);
    const type = parseUploadType(input.mediaType) ?? (await inferredType(mediaFiles, imageFiles));
    if (type !== 'images') {
      if (imageFiles.length || imageUrls.length)
        throw field(['images'], "'images' and 'image_urls' are only for media_type=images.");
      if (!mediaFiles.length && !mediaUrl)
        throw field(['media'], "Provide a file in 'media' or an HTTPS URL in 'media_url'.", 'missing');
      if (mediaFiles.length && mediaUrl)
        throw field(['media_url'], "Provide either a file in 'media' or 'media_url', not both.");
      if (mediaFiles.length > 1) throw field(['media'], "Only one file may be sent in 'media'.");
    } else {
      if (mediaFiles.length || mediaUrl)
        throw field(['media'], "With media_type=images, use 'images' or 'image_urls'.");
      if (imageFiles.length && imageUrls.length)
        throw field(['image_urls'], "Provide either files in 'images' or 'image_urls', not both.");
      const n = imageFiles.length || imageUrls.length;
      if (n === 0)
        throw field(
          ['images'],
          `Provide ${MIN_IMAGES} to ${MAX_IMAGES} files in 'images' or URLs in 'image_urls'.`,
          'missing',
        );
      if (n < MIN_IMAGES || n > MAX_IMAGES) {
        throw field(
          [imageFiles.length ? 'images' : 'image_urls'],
          `Between ${MIN_IMAGES} and ${MAX_IMAGES} images are required (got ${n}).`,
          'length',
        );
      }
    }
    const target = await ctx.media.target(p, platform, input.platformUserId?.trim() || null);
    if (type !== 'images') {
      const kind: MediaKind = type;
      const f = mediaFiles[0];
      const source: UploadSource = f ? { file: f } : { url: mediaUrl };
      const row = await ctx.media.add(target, source, kind, ['body', f ? f.field : 'media_url']);
      return { success: true, message: 'Media uploaded successfully', ...ctx.media.item(row) };
    }
    const sources: UploadSource[] = imageFiles.length
      ? imageFiles.map((file) => ({ file }))
      : imageUrls.map((url) => ({ url }));
    const fieldName = imageFiles.length ? 'images' : 'image_urls';
    const { rows, errors } = await ctx.media.addMany(target, sources, 'image', fieldName);
    if (!rows.length) {
      throw new AppError(
        'validation',
        errors.map((e) => ({ loc: ['body', fieldName, e.index], msg: e.error, type: 'upload_failed' })),
      );
    }
    const items = rows.map((row) => ctx.media.item(row));
    return {
      success: true,
      message: `Uploaded ${rows.length} images`,
      uploaded_count: rows.length,
      failed_count: errors.length,
      media_ids: items.map((i) => i.media_id),
      public_urls: items.map((i) => i.public_url),
      media: items,
      errors: errors.length ? errors : null,
    };
  }

  await app.register(mediaChunkRoutes, { ctx });
  await app.register(mediaLibraryRoutes, { ctx });
}
