// The tool layer as the agent's tools: every tool of the 'agent' surface, run for the member of the turn (scope, plan,
// credit and approval checks as on MCP and GPT Actions). A failure the model should read comes back in-band as
// {success: false, message, error}, as GPT Actions report it; the arguments are checked by the invoker against the
// tool's own zod schema (the model is given its JSON Schema, so the SDK does not validate twice).
// The AI SDK is type-only here: the caller passes the module it loaded on the first model turn, so a server that
// never runs a model (or has not yet) does not load it at start-up (docs/performance.md, "Start-up and memory").
import type { Schema, ToolSet } from 'ai';
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import { unknownToolText } from '../tools/errors.ts';
import type { ToolBox } from '../tools/index.ts';
import { inputSchema, resultOf } from '../tools/invoke.ts';
import type { Tool, ToolCaller, ToolResult } from '../tools/tool.ts';
import type { AgentToolCall, InvokeTool } from './answer.ts';
import { cutTo, dataBlock } from './memory.ts';

/** Characters of one tool result the model is shown in the turn (the whole result stays in the answer's tool calls). */
const MODEL_RESULT_CHARS = 16_000;

/** Runs the agent's tools for one member; never throws for a tool's own failure. */
export function invokerFor(box: ToolBox, principal: Principal, tools: readonly Tool[], logger: Logger): InvokeTool {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const caller: ToolCaller = { principal, surface: 'agent', oauthGrantId: null };
  return async (name, args): Promise<ToolResult> => {
    const t = byName.get(name);
    if (!t) return { success: false, message: unknownToolText(name) };
    return resultOf(await box.invoke(t, args, caller, { logger }));
  };
}

/**
 * Each tool's JSON Schema for the SDK, made once (converting the zod schemas is most of a turn's own cost otherwise).
 */
type Sdk = Pick<typeof import('ai'), 'jsonSchema' | 'tool'>;
const schemas = new WeakMap<Tool, Schema<Record<string, unknown>>>();

/** The tool's arguments as JSON Schema, as a model fills them in. */
function schemaOf(sdk: Sdk, t: Tool) {
  let made = schemas.get(t);
  if (!made) {
    made = sdk.jsonSchema<Record<string, unknown>>(inputSchema(t));
    schemas.set(t, made);
  }
  return made;
}

/** The AI SDK tool set over `tools`; each call and its result are appended to `calls` in the order they finish. */
export function aiToolSet(sdk: Sdk, tools: readonly Tool[], invoke: InvokeTool, calls: AgentToolCall[]): ToolSet {
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      sdk.tool({
        description: t.description,
        inputSchema: schemaOf(sdk, t),
        execute: async (args: Record<string, unknown>): Promise<ToolResult> => {
          const input = args && typeof args === 'object' ? args : {};
          const result = await invoke(t.name, input);
          calls.push({ name: t.name, args: input, result });
          return result;
        },
        // What the model reads: the result as data, never as instructions (the system prompt says so).
        toModelOutput: ({ output }: { output: ToolResult }) => ({
          type: 'text',
          value: dataBlock(`tool_result:${t.name}`, cutTo(JSON.stringify(output), MODEL_RESULT_CHARS)),
        }),
      }),
    ]),
  );
}
