// POST /unified/post/{text,image,carousel,video}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import type { PlatformRegistry } from '../../../platforms/registry.ts';
import { postBodies, type PostBody } from '../../../publishing/schemas.ts';
import { principalOf } from '../access.ts';
import { workspaceSecurity } from '../schemas.ts';

/** Valid slugs named by a post body, for the scope check (unknown ones become 400s later). */
export const bodyPlatforms = (registry: Pick<PlatformRegistry, 'has'>) => (req: FastifyRequest) =>
  ((req.body as { platforms?: unknown })?.platforms instanceof Array ? ((req.body as { platforms: unknown[] }).platforms) : [])
    .flatMap((p) => (typeof p === 'string' ? p.split(',') : []))
    .map((p) => p.trim().toLowerCase())
    .filter((p) => registry.has(p));

/** Largest JSON body of the post, draft and scheduled-post routes: their fields are capped far below it. */
export const POST_BODY_LIMIT = 1024 * 1024;

/** Makes a request safe to retry: docs/publishing.md (publishing now) and docs/scheduling.md (scheduling). */
export const idempotencyHeaders = z.object({ 'idempotency-key': z.string().min(1).max(200).optional() });

export async function postRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const bodies = postBodies(ctx.platforms.networks);
  for (const type of ['text', 'image', 'carousel', 'video'] as const) {
    r.post(
      `/unified/post/${type}`,
      {
        config: { access: { kind: 'workspace', feature: 'publish_enabled', platforms: bodyPlatforms(ctx.platforms) } },
        bodyLimit: POST_BODY_LIMIT,
        schema: {
          tags: ['posting'],
          summary: `Publish, draft or schedule a ${type} post to one or more networks`,
          security: workspaceSecurity,
          headers: idempotencyHeaders,
          body: bodies[type],
          response: { 200: z.record(z.string(), z.unknown()) },
        },
      },
      async (req, reply) => {
        const result = await ctx.publishing.publish(principalOf(req), type, req.body as PostBody, req.headers['idempotency-key']);
        return reply.code(result.status as 200).send(result.body);
      },
    );
  }
}
