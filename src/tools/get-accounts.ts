import { z } from 'zod';
import type { Platform } from '../platforms/slugs.ts';
import { defineTool } from './tool.ts';
import { platformList } from './args.ts';

export const getAccounts = defineTool({
  name: 'get_accounts',
  description:
    'List the social accounts connected to this workspace (which networks, names, handles, pages). Use it first to know where you can publish. Free; force_refresh=true asks the networks again.',
  input: z.object({
    platform: z.string().optional().describe('Only this network (e.g. linkedin); omit for all connected ones.'),
    force_refresh: z.boolean().optional().describe('Ask the networks for fresh profiles instead of the cached ones.'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  effect: { kind: 'read' },
  credits: null,
  async run(ctx, args) {
    const { app, caller } = ctx;
    const asked = args.platform ? platformList(app, [args.platform]) : undefined;
    if (asked) ctx.allow(asked);
    const ws = caller.principal.workspaceId;
    const slices = await app.profiles.profiles(ws, asked, args.force_refresh ?? false);
    const profiles: Record<
      string,
      { name: string | null; handle: string | null; username: string | null; needs_reconnect: boolean }
    > = {};
    for (const [p, slice] of Object.entries(slices)) {
      if (!slice || !caller.principal.scope.platforms.has(p as Platform)) continue;
      const conn = slice.connection;
      const s = slice as Record<string, unknown> & { profile?: Record<string, unknown> };
      const username = (s.profile?.username ?? s.profile?.handle ?? null) as string | null;
      profiles[p] = {
        name: conn.display_name,
        handle: (s.profile?.handle as string | undefined) ?? username,
        username,
        needs_reconnect: conn.needs_reconnect,
      };
    }
    return { success: true, platforms: Object.keys(profiles), profiles };
  },
});
