import { z } from 'zod';
import { defineTool } from './tool.ts';

export const analyzeMedia = defineTool({
  name: 'analyze_media',
  description:
    "Describe an image or video: what it shows, alt text, text found in it, size, duration and format. Use it to understand media before writing about it. A URL of this workspace's media or a public https URL. Free.",
  input: z.object({
    url: z.string().min(1).max(4000).describe('The image or video URL.'),
    media_type: z.enum(['image', 'video']),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  effect: { kind: 'read' },
  credits: null,
  async run(ctx, args) {
    ctx.require('ai_composer_enabled');
    const analysis = await ctx.app.ai.analyze(ctx.caller.principal, args.url.trim(), args.media_type, ['body', 'url']);
    return { success: true, ...analysis };
  },
});
