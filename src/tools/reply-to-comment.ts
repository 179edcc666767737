import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { Platform } from '../platforms/slugs.ts';
import { quoted } from './pending-actions.ts';
import { defineTool } from './tool.ts';

export const replyToComment = defineTool({
  name: 'reply_to_comment',
  description:
    'Post a public reply under a comment, as the connected account. Use a comment id from get_comments (Bluesky: its at:// URI); Facebook needs facebook_page_id, a LinkedIn page comment linkedin_organization_id. Free; needs the inbox plan.',
  input: z.object({
    platform: z.string().min(1).describe('The comment\'s network, as get_comments names it.'),
    comment_id: z.string().min(1).max(1000).describe('The comment to answer (from get_comments).'),
    text: z.string().min(1).max(20_000).describe('The reply.'),
    post_id: z.string().min(1).max(500).optional().describe('The post the comment is on, when known.'),
    facebook_page_id: z.string().min(1).max(500).optional(),
    linkedin_organization_id: z.string().min(1).max(500).optional(),
    youtube_channel_id: z.string().min(1).max(500).optional(),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  effect: { kind: 'write', held: 'action' },
  credits: null,
  async run(ctx, args) {
    const { app, caller } = ctx;
    ctx.require('inbox_enabled');
    const networks = app.platforms;
    const platform = args.platform.trim().toLowerCase();
    if (networks.has(platform)) ctx.allow([platform]);
    if (!networks.has(platform) || !networks.get(platform).engagement?.comments) {
      const supported = networks.slugs.filter((s) => networks.get(s).engagement?.comments);
      throw new AppError('bad_request', { error: 'PLATFORM_NOT_SUPPORTED', message: `Replying to comments is not supported on '${args.platform}'. Supported: ${supported.join(', ')}` });
    }
    if (!args.text.trim()) throw new AppError('bad_request', { error: 'VALIDATION_ERROR', message: 'text is required and must not be empty.' });
    const param = networks.network(platform).reads?.replyParam;
    const pageId = param ? (args as Record<string, string | undefined>)[param] : undefined;
    const held = await ctx.hold({ platform, summary: `Reply to comment ${args.comment_id} on ${networks.get(platform).displayName}: ${quoted(args.text)}` });
    if (held) return held;
    const { replyId } = await app.engagement.replies.reply(caller.principal.workspaceId, platform as Platform, { commentId: args.comment_id, postId: args.post_id, pageId, text: args.text });
    return { success: true, reply_id: replyId, message: 'Reply posted', platform };
  },
});
