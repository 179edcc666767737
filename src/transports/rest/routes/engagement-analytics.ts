// The analytics route: per-network and total figures from the stored posts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../access.ts';
import { workspaceSecurity } from '../schemas.ts';
import { type EngagementKit, figures, repeatable } from './engagement-common.ts';

export function analyticsRoutes(
  app: FastifyInstance,
  { ctx, filterShape, filterOf, platformsOf, listAccess, listed, platformAlias }: EngagementKit,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const svc = ctx.engagement.analytics;

  r.get(
    '/unified/analytics',
    {
      config: { access: { kind: 'workspace', feature: 'analytics_enabled', platforms: listAccess } },
      schema: {
        tags: ['engagement'],
        operationId: 'getAnalytics',
        summary:
          'Per-network and total figures from the stored posts (engagement rate = (likes + comments) / reach, capped at 1)',
        responseDescription: 'Per-network and total figures.',
        security: workspaceSecurity,
        querystring: z.object({ platforms: repeatable, platform: platformAlias, ...filterShape }),
        response: {
          200: z.object({
            success: z.boolean(),
            message: z.string(),
            source: z.literal('database'),
            last_updated: z.string().nullable(),
            platforms: z.record(
              z.string(),
              figures.extend({ message: z.string().nullable(), error: z.string().nullable() }),
            ),
            totals: figures,
          }),
        },
      },
    },
    async (req) => {
      const platforms = platformsOf(req, listed(req.query));
      const out = await svc.read(principalOf(req).workspaceId, platforms, filterOf(req.query));
      return {
        success: true,
        message: 'Unified analytics from database.',
        source: 'database' as const,
        last_updated: out.lastUpdated,
        platforms: out.platforms,
        totals: out.totals,
      };
    },
  );
}
