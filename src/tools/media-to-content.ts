import { z } from 'zod';
import { AppError } from '../errors.ts';
import { defineTool } from './tool.ts';
import { generationTargets, networksArg } from './ai-args.ts';

export const mediaToContent = defineTool({
  name: 'media_to_content',
  description:
    "Write post copy from an image or video (a URL of this workspace's media, or a public https URL). Use it when the user has the picture or clip but no text. Never publishes. Costs 2 AI credits per network.",
  input: z.object({
    media_url: z.string().min(1).max(4000).describe('The image or video URL.'),
    media_type: z.enum(['image', 'video']),
    platform: z.string().min(1).max(40).describe('The network to write for, or "all".'),
    user_requirements: z.string().max(4000).optional(),
    target_platforms: networksArg.optional().describe('With "all": only these.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  effect: { kind: 'read' },
  credits: { type: 'ai', amount: 2, per: 'network' },
  async run(ctx, args) {
    if (!args.media_url.trim()) throw new AppError('bad_request', 'media_url is required.');
    const platforms = generationTargets(ctx, [args.platform], args.target_platforms, ctx.app.platforms.slugs);
    const single = args.platform.toLowerCase() !== 'all' && platforms.length === 1;
    const out = await ctx.app.ai.copyFromMedia(ctx.caller.principal, {
      url: args.media_url.trim(),
      kind: args.media_type,
      platforms,
      userRequirements: args.user_requirements,
      loc: ['body', 'media_url'],
    });
    return { success: true, message: out.message, data: single ? out.data[platforms[0]!] : out.data };
  },
});
