import { z } from 'zod';
import { replyDestination, replyDestinationShape, replyPlatform, replyText } from '../engagement/arguments.ts';
import { NETWORKS } from '../platforms/registry.ts';
import { quoted } from './pending-actions.ts';
import { defineTool } from './tool.ts';

export const replyToComment = defineTool({
  name: 'reply_to_comment',
  description:
    'Post a public reply under a comment, as the connected account. Use a comment id from get_comments (Bluesky: its at:// URI); Facebook needs facebook_page_id, a LinkedIn page comment linkedin_organization_id. Free; needs the inbox plan.',
  input: z.object({
    platform: z.string().min(1).describe("The comment's network, as get_comments names it."),
    comment_id: z.string().min(1).max(1000).describe('The comment to answer (from get_comments).'),
    text: z.string().min(1).max(20_000).describe('The reply.'),
    post_id: z.string().min(1).max(500).optional().describe('The post the comment is on, when known.'),
    ...replyDestinationShape(NETWORKS),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  effect: { kind: 'write', held: 'action' },
  credits: null,
  async run(ctx, args) {
    const { app, caller } = ctx;
    ctx.require('inbox_enabled');
    const networks = app.platforms;
    const asked = args.platform.trim().toLowerCase();
    if (networks.has(asked)) ctx.allow([asked]);
    const platform = replyPlatform(networks, args.platform);
    const text = replyText(args.text);
    const pageId = replyDestination(networks, platform, (name) => (args as Record<string, string | undefined>)[name]);
    const held = await ctx.hold({
      platform,
      summary: `Reply to comment ${args.comment_id} on ${networks.get(platform).displayName}: ${quoted(text)}`,
    });
    if (held) return held;
    const { replyId } = await app.engagement.replies.reply(caller.principal.workspaceId, platform, {
      commentId: args.comment_id,
      postId: args.post_id,
      pageId,
      text,
    });
    return { success: true, reply_id: replyId, message: 'Reply posted', platform };
  },
});
