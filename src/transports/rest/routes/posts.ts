// POST /unified/post/{text,image,carousel,video}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { AppError } from '../../../errors.ts';
import type { PlatformRegistry } from '../../../platforms/registry.ts';
import {
  postBodies,
  type PostBody,
  type PublishResult,
  publishResultSchema,
  withoutNulls,
} from '../../../publishing/index.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';

/** Valid slugs named by a post body, for the scope check (unknown ones become 400s later). */
export const bodyPlatforms = (registry: Pick<PlatformRegistry, 'has'>) => (req: FastifyRequest) =>
  (Array.isArray((req.body as { platforms?: unknown })?.platforms)
    ? (req.body as { platforms: unknown[] }).platforms
    : []
  )
    .flatMap((p) => (typeof p === 'string' ? p.split(',') : []))
    .map((p) => p.trim().toLowerCase())
    .filter((p) => registry.has(p));

/** Largest JSON body of the post, draft and scheduled-post routes: their fields are capped far below it. */
export const POST_BODY_LIMIT = 1024 * 1024;

/** The note of the routes whose body takes null for "not set". */
export const NULL_NOTE =
  'An explicit null for an optional field (at any depth of the body\'s objects) means "not set".';

/**
 * Route hook of the post, draft and scheduled-post bodies: an explicit null means "not set" (docs/compatibility.md).
 */
export const nullMeansUnset = async (req: FastifyRequest) => {
  req.body = withoutNulls(req.body);
};

/**
 * A body without post_type is the interface's 400 ("missing post_type"), not a field-level 422; a wrong value stays a
 * 422.
 */
export const requirePostType = async (req: FastifyRequest) => {
  const body = req.body as { post_type?: unknown } | undefined;
  if (
    body &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    (body.post_type === undefined || body.post_type === '')
  )
    throw new AppError('bad_request', 'post_type is required');
};

/** Makes a request safe to retry: docs/publishing.md (publishing now) and docs/scheduling.md (scheduling). */
export const idempotencyHeaders = z.object({ 'idempotency-key': z.string().min(1).max(200).optional() });

export async function postRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const bodies = postBodies(ctx.platforms.networks);
  for (const type of ['text', 'image', 'carousel', 'video'] as const) {
    const operationId = `publish${type[0]!.toUpperCase()}${type.slice(1)}Post`;
    r.post(
      `/unified/post/${type}`,
      {
        config: { access: { kind: 'workspace', feature: 'publish_enabled', platforms: bodyPlatforms(ctx.platforms) } },
        bodyLimit: POST_BODY_LIMIT,
        preValidation: nullMeansUnset,
        schema: {
          tags: ['posting'],
          operationId,
          responseDescription: 'Per network: published, scheduled or saved as a draft, or why not.',
          summary: `Publish, draft or schedule a ${type} post to one or more networks`,
          description: `Publish, draft or schedule a ${type} post to one or more networks. ${NULL_NOTE}`,
          security: workspaceSecurity,
          headers: idempotencyHeaders,
          body: bodies[type],
          response: { 200: publishResultSchema, ...errorResponses(402, 404, 409) },
        },
      },
      async (req, reply) => {
        const result = await ctx.publishing.publish(
          principalOf(req),
          type,
          req.body as PostBody,
          req.headers['idempotency-key'],
        );
        return reply.code(result.status as 200).send(result.body as PublishResult);
      },
    );
  }
}
