import { z } from 'zod';
import { AppError } from '../errors.ts';
import { listText, slugList } from '../platforms/naming.ts';
import { NETWORKS } from '../platforms/registry.ts';
import { defineTool } from './tool.ts';
import { platformList } from './args.ts';

/** The networks an account joins with a handle and an app password (Bluesky), by name, for the descriptions. */
const appPassword = listText(NETWORKS.filter((n) => n.authKind === 'app_password').map((n) => n.displayName));

export const managePlatformConnection = defineTool({
  name: 'manage_platform_connection',
  description: `Connect a network (returns a sign-in link the user must open; ${appPassword} connects at once with handle and app_password) or disconnect one (removes its tokens; scheduled posts there will fail). Free.`,
  input: z.object({
    action: z.enum(['connect', 'disconnect']),
    platform: z
      .string()
      .min(1)
      .describe(`${slugList(NETWORKS)}.`),
    handle: z.string().max(253).optional().describe(`${appPassword} only: the account handle.`),
    app_password: z
      .string()
      .max(200)
      .optional()
      .describe(`${appPassword} only: an app password made in ${appPassword} settings.`),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  // Held: a disconnect, and an app-password connect (it would replace the account posts go to). An OAuth connect only
  // answers a sign-in link the member must open and accept, so it is not held.
  effect: { kind: 'write', held: 'action' },
  credits: null,
  async run(ctx, args) {
    const { app, caller } = ctx;
    const p = caller.principal;
    const platform = platformList(app, [args.platform])[0]!;
    ctx.allow([platform]);
    let result: { success: boolean; message: string; auth_url?: string | null; data?: null };
    const network = app.platforms.get(platform).displayName;
    if (args.action === 'disconnect') {
      const accounts = (await app.connectionStore.list(p.workspaceId, platform)).map((r) => r.displayName);
      // Nothing connected: nothing to remove, nothing to hold (the disconnect answers that it is not connected).
      const held = accounts.length
        ? await ctx.hold({
            platform,
            summary: `Disconnect ${network} account${accounts.length > 1 ? 's' : ''} ${accounts.join(', ')}`,
          })
        : null;
      if (held) return { ...held, platform, action: args.action };
      result = await app.connections.disconnect(p.workspaceId, platform);
    } else if (app.platforms.network(platform).authKind === 'app_password') {
      if (!args.handle?.trim() || !args.app_password?.trim())
        throw new AppError('bad_request', `handle and app_password are required for ${platform}`);
      const held = await ctx.hold({
        platform,
        summary: `Connect ${network} account ${args.handle.trim()}`,
        secretArgs: ['app_password'],
      });
      if (held) return { ...held, platform, action: args.action };
      result = await app.connections.connectWithAppPassword(
        { id: p.workspaceId, planId: p.planId },
        platform,
        args.handle,
        args.app_password,
      );
    } else {
      result = await app.connections.startOAuth({ id: p.workspaceId, planId: p.planId }, platform, p.user?.id ?? null);
    }
    app.usage.forget(p.workspaceId);
    return { ...result, platform, action: args.action };
  },
});
