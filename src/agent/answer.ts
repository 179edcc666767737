// The agent's answer and the tool calls behind it — the one shape every way of answering produces (the model's tool
// loop, the direct commands of the built-in provider, the streamed turn). `agent_response_json` is this object as a
// JSON string and `parsed` is the same object (interface "Agent chat", contract-gaps §9): `response` is always present.
import type { ToolResult } from '../tools/tool.ts';

export interface AgentAnswer {
  /** Markdown for the member; never empty in an answer that is returned (an empty one is a 502). */
  response: string;
  /** The GFM tables of the answer, one after another (also left in `response`); '' when none. */
  tables_markdown: string;
  /** Charts as markdown (a table or a mermaid `xychart`/`pie` block the model made for numbers); '' when none. */
  charts_markdown: string;
  /** The bodies of the answer's ```mermaid blocks. */
  mermaid_diagrams: string[];
  /** Images the turn produced or showed (generated images, uploaded media), absolute URLs. */
  image_urls: string[];
  video_urls: string[];
  /**
   * Whether a client should show its standard footer under the answer (the agent's loop decides; documented in
   * docs/agent.md).
   */
  append_footer: boolean;
}

/** One tool call of a turn, as the agent ran it (the result as the tool gave it, before compaction for memory). */
export interface AgentToolCall {
  name: string;
  args: Record<string, unknown>;
  result: ToolResult;
}

/** Runs one of the agent's tools for the member of this turn (scope, plan, credit and approval checks included). */
export type InvokeTool = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;
