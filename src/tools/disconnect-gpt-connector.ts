import { z } from 'zod';
import { defineTool } from './tool.ts';

export const disconnectGptConnector = defineTool({
  name: 'disconnect_gpt_connector',
  description:
    'Sign this chat connector out of Herald: revokes its OAuth access at once, so every later call fails until the user connects again. Only when the user asks to disconnect. With an API key nothing changes. Free.',
  input: z.object({}),
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  effect: {
    kind: 'write',
    held: 'never',
    why: "revokes only the calling connector's own access: giving up access is never delayed, and an approving member has no connector token to revoke",
  },
  credits: null,
  async run(ctx) {
    const { caller } = ctx;
    const grantId = caller.oauthGrantId ?? caller.principal.oauthGrantId ?? null;
    if (!grantId) {
      return {
        success: true,
        revoked_oauth_token: false,
        detail:
          'This call is not made with a connector (OAuth) token: there is nothing to revoke, and the API key or session stays valid.',
      };
    }
    await ctx.app.oauth.revokeGrant(grantId);
    return {
      success: true,
      revoked_oauth_token: true,
      detail: 'The connector was disconnected: its access token no longer works. Connect it again to use Herald.',
    };
  },
});
