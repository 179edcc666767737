import { z } from 'zod';
import { destinationFilter, destinationFilterShape, destinationOf, postAndPlatform } from '../engagement/arguments.ts';
import { readPlatforms } from '../platforms/arguments.ts';
import { NETWORKS } from '../platforms/registry.ts';
import type { Platform } from '../platforms/slugs.ts';
import { defineTool } from './tool.ts';
import { stringList } from './args.ts';

export const getComments = defineTool({
  name: 'get_comments',
  description:
    "Comments (with replies, authors, ids) on the recent posts of each network, or on one post when post_id and platform are given. Use it before reply_to_comment, which needs a comment's id. Free; needs the plan's inbox.",
  input: z.object({
    platforms: stringList.optional().describe('Networks to read (default: all in scope that have comments).'),
    post_id: z.string().min(1).max(500).optional().describe('One post (its network id); give platform too.'),
    platform: z.string().optional().describe("The post's network, with post_id."),
    limit: z.number().int().min(1).max(50).optional().describe('Recent posts per network (1–50, default 10).'),
    comments_per_post: z.number().int().min(1).max(100).optional().describe('Comments per post (1–100, default 50).'),
    force_refresh: z.boolean().optional().describe('Ask the networks for new comments now.'),
    ...destinationFilterShape(NETWORKS, stringList),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  effect: { kind: 'read' },
  credits: null,
  async run(ctx, args) {
    const { app, caller } = ctx;
    ctx.require('inbox_enabled');
    const ws = caller.principal.workspaceId;
    const inboxNetwork = (p: Platform) => app.platforms.get(p).engagement !== undefined;
    const perPost = args.comments_per_post ?? 50;
    const one = postAndPlatform(args.post_id, args.platform);
    if (one) {
      const platform = readPlatforms(app.platforms, caller.principal.scope, one.platform, inboxNetwork)[0]!;
      ctx.allow([platform]);
      const entry = await app.engagement.inbox.byPost(
        ws,
        platform,
        one.postId,
        perPost,
        destinationOf(app.platforms, platform, args),
      );
      return { success: true, [platform]: { posts: [entry], last_updated: app.clock().toISOString() } };
    }
    const platforms = readPlatforms(app.platforms, caller.principal.scope, args.platforms, inboxNetwork);
    ctx.allow(platforms);
    const slices = await app.engagement.inbox.list(ws, platforms, {
      limit: args.limit ?? 10,
      perPost,
      forceRefresh: args.force_refresh ?? false,
      filter: destinationFilter(app.platforms, args),
    });
    return { success: true, ...slices };
  },
});
