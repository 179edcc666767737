import { z } from 'zod';
import { assertSourceGiven, imageTargets } from '../ai/targets.ts';
import { defineTool } from './tool.ts';
import { namedNetworks, networksArg, perNetworkText } from './ai-args.ts';

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
  effect: {
    kind: 'write',
    held: 'never',
    why: "adds generated images to this workspace's media library: nothing leaves Herald and nothing is removed",
  },
  credits: { type: 'ai', amount: 5, per: 'image' },
  async run(ctx, args) {
    const { app } = ctx;
    const platforms = imageTargets(
      ctx.caller.principal.scope,
      app.platforms.networks,
      namedNetworks(ctx, args.platforms),
    );
    assertSourceGiven('content', platforms, args.content, args.content_by_platform);
    const out = await app.ai.images(ctx.caller.principal, {
      content: args.content,
      contentByPlatform: args.content_by_platform,
      targets: platforms,
      userRequirements: args.user_requirements,
    });
    // One network: its image at the top level too, as the tool's documented result (image_url, media_id).
    const only = platforms.length === 1 ? out.data[platforms[0]!] : undefined;
    return {
      success: true,
      message: out.message,
      ...(only && !('error' in only) ? { image_url: only.image_url, media_id: only.media_id } : {}),
      data: out.data,
    };
  },
});
