// The tool layer as the agent's tools: every tool of the 'agent' surface, run for the member of the turn (scope, plan,
// credit and approval checks as on MCP and GPT Actions). A failure the model should read comes back in-band as
// {success: false, message}, as MCP reports it; the arguments are checked against the tool's own zod schema here (the
// model is given its JSON Schema, so the SDK does not validate twice).
// The AI SDK is type-only here: the caller passes the module it loaded on the first model turn, so a server that
// never runs a model (or has not yet) does not load it at start-up (docs/performance.md, "Start-up and memory").
import type { Schema, ToolSet } from 'ai';
import { z } from 'zod';
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { errorText, invalidArgumentsText, unknownToolText } from '../transports/mcp/error-text.ts';
import { toolContext, type Tool, type ToolResult } from '../tools/tool.ts';
import type { AgentToolCall, InvokeTool } from './answer.ts';
import { cutTo, dataBlock } from './memory.ts';

/** Characters of one tool result the model is shown in the turn (the whole result stays in the answer's tool calls). */
const MODEL_RESULT_CHARS = 16_000;

const issuesText = (error: z.ZodError) => error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');

/** Runs the agent's tools for one member; never throws for a tool's own failure. */
export function invokerFor(app: AppContext, principal: Principal, tools: readonly Tool[], logger: Logger): InvokeTool {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const ctx = toolContext(app, { principal, surface: 'agent', oauthGrantId: null });
  return async (name, args): Promise<ToolResult> => {
    const t = byName.get(name);
    if (!t) return { success: false, message: unknownToolText(name) };
    const parsed = t.input.safeParse(args ?? {});
    if (!parsed.success) return { success: false, message: invalidArgumentsText(name, issuesText(parsed.error)) };
    try {
      return await t.run(ctx, parsed.data);
    } catch (err) {
      if (err instanceof AppError) return { success: false, message: errorText(err) };
      logger.error({ err, tool: name }, 'agent tool failed');
      return { success: false, message: 'Internal error: the tool failed unexpectedly. Try again later.' };
    }
  };
}

/** Each tool's JSON Schema, made once (converting the zod schemas is most of a turn's own cost otherwise). */
type Sdk = Pick<typeof import('ai'), 'jsonSchema' | 'tool'>;
const schemas = new WeakMap<Tool, Schema<Record<string, unknown>>>();

/** The tool's arguments as JSON Schema, as a model fills them in. */
function schemaOf(sdk: Sdk, t: Tool) {
  let made = schemas.get(t);
  if (!made) {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(t.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    made = sdk.jsonSchema<Record<string, unknown>>({ ...schema, type: 'object' });
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
        toModelOutput: ({ output }: { output: ToolResult }) => ({ type: 'text', value: dataBlock(`tool_result:${t.name}`, cutTo(JSON.stringify(output), MODEL_RESULT_CHARS)) }),
      }),
    ]),
  );
}
