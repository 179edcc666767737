import { z } from 'zod';
import { AppError } from '../errors.ts';
import { defineTool } from './tool.ts';
import { generationTargets, networksArg, perNetworkText } from './ai-args.ts';
import { splitList } from '../platforms/arguments.ts';

export const contentToImage = defineTool({
  name: 'content_to_image',
  description:
    "Make an image per network from post copy, sized for it and saved to the workspace's media; returns image_url and media_id to pass to publish. Never publishes. Costs 5 AI credits per image.",
  input: z.object({
    content: z.string().max(20_000).optional().describe('The post copy the image illustrates.'),
    platforms: networksArg.describe('Networks (also twitter / x) to make an image for, or "all".'),
    content_by_platform: perNetworkText.optional().describe('Different copy per network, by slug.'),
    user_requirements: z.string().max(4000).optional().describe('Style, colours, text to show.'),
    page_id: z.string().max(200).optional().describe('Reserved: a Facebook Page or LinkedIn organization id.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  effect: { kind: 'write', held: 'never', why: "adds generated images to this workspace's media library: nothing leaves Herald and nothing is removed" },
  credits: { type: 'ai', amount: 5, per: 'image' },
  async run(ctx, args) {
    const { app } = ctx;
    const imageNetworks = app.platforms.networks.filter((n) => n.capabilities.postTypes.includes('image')).map((n) => n.slug as string);
    let platforms = generationTargets(ctx, args.platforms, undefined, [...app.platforms.slugs, 'twitter'], { x: 'twitter' });
    if (splitList(args.platforms).map((s) => s.toLowerCase()).includes('all')) platforms = platforms.filter((s) => imageNetworks.includes(s) || s === 'twitter');
    const missing = platforms.filter((s) => !args.content_by_platform?.[s]?.trim());
    if (missing.length && !args.content?.trim()) throw new AppError('bad_request', 'content is required (unless content_by_platform gives it for every network).');
    const out = await app.ai.images(ctx.caller.principal, { content: args.content, contentByPlatform: args.content_by_platform, targets: platforms, userRequirements: args.user_requirements });
    // One network: its image at the top level too, as the tool's documented result (image_url, media_id).
    const only = platforms.length === 1 ? out.data[platforms[0]!] : undefined;
    return { success: true, message: out.message, ...(only && !('error' in only) ? { image_url: only.image_url, media_id: only.media_id } : {}), data: out.data };
  },
});
