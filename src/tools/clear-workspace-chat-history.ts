import { z } from 'zod';
import { chatPartition } from './chat-history.ts';
import { defineTool } from './tool.ts';

export const clearWorkspaceChatHistory = defineTool({
  name: 'clear_workspace_chat_history',
  description:
    "Delete the agent chat history you see in this workspace (every channel; a network-scoped key has its own) and the agent's memory of it. Only when the user clearly asks to forget the conversation; it cannot be undone. Posts, drafts and media stay. Free.",
  input: z.object({}),
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  effect: {
    kind: 'write',
    held: 'never',
    why: "deletes only the agent's own chat archive and memory of this workspace, at the member's request (forgetting is never delayed); nothing on a network, and what waits for approval stays listed",
  },
  credits: null,
  async run(ctx) {
    const { deletedTurns } = await ctx.app.agentChats.clear(
      ctx.caller.principal.workspaceId,
      chatPartition(ctx.caller.principal.scope),
    );
    return {
      success: true,
      deleted_archived_turns: deletedTurns,
      detail: `Deleted ${deletedTurns} chat turn${deletedTurns === 1 ? '' : 's'} and the agent's memory of them.`,
    };
  },
});
