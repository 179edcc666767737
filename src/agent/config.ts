// The workspace agent's settings (HERALD_AGENT_*): how far one chat turn may go and how much of the conversation
// the model is given back. docs/configuration.md "Agent".
import { z } from 'zod';

export interface AgentConfig {
  /** Model steps (a step is one model call and the tools it asked for) in one turn. */
  maxSteps: number;
  /** One whole turn's deadline: every model call and tool of it. */
  timeoutMs: number;
  /**
   * Estimated tokens of memory (summary and recent messages) handed back to the model; over it, older turns are
   * summarised.
   */
  memoryTokens: number;
  /** Characters of one tool result kept in memory for later turns. */
  toolResultChars: number;
}

export const agentEnvSchema = z.object({
  HERALD_AGENT_MAX_STEPS: z.coerce.number().int().min(1).max(50).default(8),
  HERALD_AGENT_TIMEOUT_SECONDS: z.coerce.number().min(5).max(3600).default(180),
  HERALD_AGENT_MEMORY_TOKENS: z.coerce.number().int().min(500).max(1_000_000).default(6000),
  HERALD_AGENT_TOOL_RESULT_CHARS: z.coerce.number().int().min(100).max(100_000).default(600),
});

export function toAgentConfig(e: z.infer<typeof agentEnvSchema>): AgentConfig {
  return {
    maxSteps: e.HERALD_AGENT_MAX_STEPS,
    timeoutMs: e.HERALD_AGENT_TIMEOUT_SECONDS * 1000,
    memoryTokens: e.HERALD_AGENT_MEMORY_TOKENS,
    toolResultChars: e.HERALD_AGENT_TOOL_RESULT_CHARS,
  };
}
