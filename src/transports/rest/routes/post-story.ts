// The story of a post and its retry: GET /unified/posts/{id}/timeline, POST /unified/posts/{id}/retry. `id` is
// Herald's post id (the ledger post of a request) or a scheduled post's id.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { targetResultSchema } from '../../../publishing/index.ts';
import { timelineSchema } from '../../../scheduling/index.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';

const params = z.object({
  post_id: z.uuid().describe("Herald's post id (a publish request's) or a scheduled post's id"),
});

export async function postStoryRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/unified/posts/:post_id/timeline',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['posts'],
        operationId: 'getPostTimeline',
        summary: "A post's story: every attempt per network, its outcome and error, the next retry",
        description:
          'Every attempt at each network destination (time, outcome, the network’s error text sanitized, the source: ' +
          'the request, the scheduling worker, a retry or the reconciler), the queue entries with their status history ' +
          'and next retry, and the events of the post.',
        responseDescription: 'The timeline of the post.',
        security: workspaceSecurity,
        params,
        response: { 200: timelineSchema, ...errorResponses(404) },
      },
    },
    async (req) => ctx.postStory.timeline(principalOf(req), req.params.post_id),
  );

  r.post(
    '/unified/posts/:post_id/retry',
    {
      config: { access: { kind: 'workspace', feature: 'publish_enabled' } },
      schema: {
        tags: ['posts'],
        operationId: 'retryPost',
        summary: 'Retry the failed networks of a post now',
        description:
          'Only failed targets are sent again (a post credit each); a published one never is. Idempotent: with nothing ' +
          'failed (already retried, or a retry running) it does nothing and says so.',
        responseDescription: 'What was retried and the new results.',
        security: workspaceSecurity,
        params,
        response: {
          200: z.object({
            success: z.boolean(),
            message: z.string(),
            retried: z.number().int().describe('Targets (or queue entries) sent again'),
            results: z.array(targetResultSchema),
          }),
          ...errorResponses(402, 404),
        },
      },
    },
    async (req) => {
      const { retried, results } = await ctx.postStory.retry(principalOf(req), req.params.post_id);
      const wire = results.map(({ retryable: _r, ...rest }) => rest);
      return {
        success: results.every((x) => x.success),
        message: retried ? `Retried ${retried}.` : 'Nothing to retry: no network of this post has failed.',
        retried,
        results: wire,
      };
    },
  );
}
