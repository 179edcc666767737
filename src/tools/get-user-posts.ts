import { z } from 'zod';
import { defineTool } from './tool.ts';
import { platformList, splitArg, stringList } from './args.ts';

export const getUserPosts = defineTool({
  name: 'get_user_posts',
  description:
    "The workspace's recent posts on each network with likes, comments, shares and impressions, from Herald's store (refresh_posts / refresh_stats ask the networks now). Use it to see how posts are doing. Free.",
  input: z.object({
    limit: z.number().int().min(1).max(50).optional().describe('Posts per network (1–50, default 10).'),
    refresh_posts: z.boolean().optional(),
    refresh_stats: z.boolean().optional(),
    platforms: stringList.optional().describe('Networks to read (default: all connected).'),
    facebook_page_ids: stringList.optional(),
    linkedin_organization_ids: stringList.optional(),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  effect: { kind: 'read' },
  credits: null,
  postsRead: true,
  async run(ctx, args) {
    const { app, caller } = ctx;
    const asked = splitArg(args.platforms);
    const platforms = asked.length ? platformList(app, asked) : app.platforms.slugs.filter((s) => caller.principal.scope.platforms.has(s));
    ctx.allow(platforms);
    const slices = await app.engagement.posts.list(caller.principal.workspaceId, platforms, {
      limit: args.limit ?? 10,
      stats: true,
      refreshPosts: args.refresh_posts ?? false,
      refreshStats: args.refresh_stats ?? false,
      filter: { facebook_page_ids: splitArg(args.facebook_page_ids), linkedin_organization_ids: splitArg(args.linkedin_organization_ids) },
    });
    return { success: true, ...slices };
  },
});
