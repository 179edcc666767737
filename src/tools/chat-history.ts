// What clear_workspace_chat_history needs of the workspace agent's chat store (src/agent/history.ts provides it), and
// whose history a caller sees.
import type { Scope } from '../auth/scopes.ts';

export interface WorkspaceChatHistory {
  /** Deletes every archived turn of one history (chatPartition) on all channels and its memory; how many turns went. */
  clear(workspaceId: string, partition: string): Promise<{ deletedTurns: number }>;
}

/** The workspace's own history: members and full-scope keys. */
export const WORKSPACE_HISTORY = '';

/**
 * Whose agent history a caller reads, writes and clears within its workspace (docs/agent.md "History and memory"):
 * members and full-scope keys share the workspace's; a key limited to some networks has its own, one per scope (its
 * networks, and whether it only reads posts), so what it sees never comes from a conversation about other networks.
 */
export function chatPartition(scope: Scope): string {
  if (scope.raw === '' || scope.raw === 'full') return WORKSPACE_HISTORY;
  return `scope:${[...scope.platforms].sort().join(',')}${scope.readOnlyPosts ? ':posts' : ''}`;
}
