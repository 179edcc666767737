// What clear_workspace_chat_history needs of the workspace agent's chat store: src/agent/history.ts provides it on the
// AppContext as `agentChats`. A context without one (a stripped-down test context) keeps no agent chat history.
import type { AppContext } from '../context.ts';

export interface WorkspaceChatHistory {
  /** Deletes every archived turn of the workspace on all channels and the agent's memory; how many turns went. */
  clear(workspaceId: string): Promise<{ deletedTurns: number }>;
}

export const chatHistoryOf = (app: AppContext): WorkspaceChatHistory | undefined => (app as AppContext & { agentChats?: WorkspaceChatHistory }).agentChats;
