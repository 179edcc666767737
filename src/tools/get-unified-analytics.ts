import { z } from 'zod';
import { defineTool } from './tool.ts';
import { destinationFilter, destinationFilterShape } from '../engagement/arguments.ts';
import { readPlatforms } from '../platforms/arguments.ts';
import { NETWORKS } from '../platforms/registry.ts';
import { stringList } from './args.ts';

export const getUnifiedAnalytics = defineTool({
  name: 'get_unified_analytics',
  description:
    "Totals per network and overall from Herald's stored posts: post count, likes, comments, reach and engagement rate ((likes+comments)/reach). Use it for a performance summary; get_user_posts for single posts. Free; needs the plan's analytics.",
  input: z.object({
    platforms: stringList.optional().describe('Networks to include (default: all in scope).'),
    ...destinationFilterShape(NETWORKS, stringList),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  effect: { kind: 'read' },
  credits: null,
  async run(ctx, args) {
    const { app, caller } = ctx;
    ctx.require('analytics_enabled');
    const platforms = readPlatforms(app.platforms, caller.principal.scope, args.platforms);
    ctx.allow(platforms);
    const out = await app.engagement.analytics.read(
      caller.principal.workspaceId,
      platforms,
      destinationFilter(app.platforms, args),
    );
    return {
      success: true,
      message: 'Unified analytics from database.',
      source: 'database',
      last_updated: out.lastUpdated,
      platforms: out.platforms,
      totals: out.totals,
    };
  },
});
