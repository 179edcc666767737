import { z } from 'zod';
import { destinationFilter, destinationFilterShape } from '../engagement/arguments.ts';
import { readPlatforms } from '../platforms/arguments.ts';
import { NETWORKS } from '../platforms/registry.ts';
import { defineTool } from './tool.ts';
import { stringList } from './args.ts';

export const getUserPosts = defineTool({
  name: 'get_user_posts',
  description:
    "The workspace's recent posts on each network with likes, comments, shares and impressions, from Herald's store (refresh_posts / refresh_stats ask the networks now). Use it to see how posts are doing. Free.",
  input: z.object({
    limit: z.number().int().min(1).max(50).optional().describe('Posts per network (1–50, default 10).'),
    refresh_posts: z.boolean().optional(),
    refresh_stats: z.boolean().optional(),
    platforms: stringList.optional().describe('Networks to read (default: all connected).'),
    ...destinationFilterShape(NETWORKS, stringList),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  effect: { kind: 'read' },
  credits: null,
  postsRead: true,
  async run(ctx, args) {
    const { app, caller } = ctx;
    const platforms = readPlatforms(app.platforms, caller.principal.scope, args.platforms);
    ctx.allow(platforms);
    const slices = await app.engagement.posts.list(caller.principal.workspaceId, platforms, {
      limit: args.limit ?? 10,
      stats: true,
      refreshPosts: args.refresh_posts ?? false,
      refreshStats: args.refresh_stats ?? false,
      filter: destinationFilter(app.platforms, args),
    });
    return { success: true, ...slices };
  },
});
