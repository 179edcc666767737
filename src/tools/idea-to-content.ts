import { z } from 'zod';
import { assertSourceGiven } from '../ai/targets.ts';
import { exampleSlugs } from '../platforms/naming.ts';
import { NETWORKS } from '../platforms/registry.ts';
import { defineTool } from './tool.ts';
import { generationTargets, networksArg, perNetworkText } from './ai-args.ts';

export const ideaToContent = defineTool({
  name: 'idea_to_content',
  description:
    "Write post copy for each network from an idea, within each network's length limit. Never publishes: pass the copy to publish. Costs 2 AI credits per network that gets copy.",
  input: z.object({
    platforms: networksArg.describe(`Networks to write for (e.g. ${exampleSlugs(NETWORKS)}), or "all".`),
    idea: z.string().max(20_000).optional().describe('What the post is about.'),
    user_requirements: z.string().max(4000).optional().describe('Tone, audience, language, must-mention items.'),
    idea_by_platform: perNetworkText.optional().describe('A different idea per network, by slug.'),
    target_platforms: networksArg.optional().describe('With "all": only these.'),
    page_id: z.string().max(200).optional().describe('Reserved: a Facebook Page or LinkedIn organization id.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  effect: { kind: 'read' },
  credits: { type: 'ai', amount: 2, per: 'network' },
  async run(ctx, args) {
    const platforms = generationTargets(ctx, args.platforms, args.target_platforms, ctx.app.platforms.slugs);
    assertSourceGiven('idea', platforms, args.idea, args.idea_by_platform);
    const out = await ctx.app.ai.copy(ctx.caller.principal, {
      idea: args.idea,
      ideaByPlatform: args.idea_by_platform,
      platforms,
      userRequirements: args.user_requirements,
    });
    return { success: true, message: out.message, data: out.data };
  },
});
