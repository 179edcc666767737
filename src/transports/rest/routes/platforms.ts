// GET /unified/platforms: the registered networks with what a composer needs (composer.ts reads it from each
// network's contract), whether this server can connect each one, and whether sandbox mode is on.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { composerRules } from '../../../platforms/composer.ts';

const textRule = z.object({
  max: z.number().int(),
  unit: z
    .enum(['utf16', 'graphemes', 'bytes'])
    .describe('utf16: UTF-16 code units; graphemes: user-perceived characters; bytes: UTF-8 bytes'),
  max_bytes: z.number().int().optional().describe('A UTF-8 size limit on top of the count'),
});
/** One field of a JSON Schema: its type and description are named, the rest of the schema passes as it is. */
const jsonSchemaNode = z
  .object({ type: z.union([z.string(), z.array(z.string())]).optional(), description: z.string().optional() })
  .catchall(z.unknown());
const range = z.object({ min: z.number(), max: z.number() });

const platformSchema = z.object({
  slug: z.string(),
  display_name: z.string(),
  auth_kind: z
    .enum(['oauth2', 'app_password'])
    .describe('oauth2: connected through the network; app_password: a handle and an app password'),
  configured: z
    .boolean()
    .describe('Whether this server can connect accounts of the network (its app credentials are set)'),
  post_types: z.array(z.enum(['text', 'image', 'carousel', 'video'])),
  text: textRule.nullable().describe('The post text (caption) limit; null when the network takes no text'),
  fields: z.record(z.string(), textRule).describe("Secondary text fields of the network's override object, by name"),
  media: z.object({
    image_formats: z.array(z.string()),
    max_image_bytes: z.number().int(),
    max_image_pixels: z.number().int().optional(),
    image_aspect: range.optional().describe('Width/height an image may have'),
    preferred_image: z.object({ width: z.number().int(), height: z.number().int() }).optional(),
    carousel: range.describe('How many images a carousel post takes'),
    video_formats: z.array(z.string()),
    max_video_bytes: z.number().int(),
    video_seconds: range,
  }),
  destinations: z
    .object({
      kind: z.enum(['page', 'organization', 'board', 'channel']),
      query_param: z.string().describe('The parameter of the read routes (posts, comments, analytics) naming them'),
      publish_field: z.string().optional().describe('The override field listing them when publishing'),
    })
    .nullable()
    .describe('Where the network posts besides the account; null: the account only'),
  async_processing: z.boolean(),
  override_schema: z
    .object({
      type: z.string().optional(),
      properties: z.record(z.string(), jsonSchemaNode),
      required: z.array(z.string()).optional(),
    })
    .catchall(z.unknown())
    .nullable()
    .describe("JSON Schema of the body's override object under the network's slug; null: none"),
  first_comment: textRule
    .extend({
      form: z.enum(['comment', 'reply']).describe("comment: under the post; reply: a reply in the post's own thread"),
    })
    .nullable()
    .describe("The first comment's limit (first_comment of the post bodies); null: the network takes none"),
});

export async function platformRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The same for every caller and for the life of the process.
  const answer = {
    sandbox: ctx.config.sandbox,
    platforms: ctx.platforms.networks.map((n) => ({
      ...composerRules(n),
      configured: ctx.platforms.get(n.slug).configured,
    })),
  };

  r.get(
    '/unified/platforms',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['platforms'],
        operationId: 'listPlatforms',
        summary: 'The networks and their composer rules',
        responseDescription: 'Every network this server knows, with the limits publishing checks posts against.',
        description:
          "Text limits with their counting unit, media limits, destinations and each network's override object, read from the network contracts publishing validates with; `sandbox` says whether every network is simulated.",
        response: {
          200: z.object({
            sandbox: z.boolean().describe('Sandbox mode: every network is simulated (docs/sandbox.md)'),
            platforms: z.array(platformSchema),
          }),
        },
      },
    },
    async () => answer,
  );
}
