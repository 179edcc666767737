// Calling a tool, once for every surface: MCP (transports/mcp/server.ts), GPT Actions (routes/gpt-actions.ts), the
// agent (agent/tools.ts) and a member approving a held call (approve-action.ts). The arguments are checked against
// the tool's zod schema, the handler runs for the caller (scope, plan, credit and approval checks inside), and every
// refusal comes back as one ToolFailure in one vocabulary (errors.ts). Each surface only puts the answer on its wire.
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Feature } from '../auth/plans.ts';
import type { ToolServices } from './services.ts';
import { AppError, logLevelOf } from '../errors.ts';
import { failureOf, invalidArgumentsText, type ToolFailure } from './errors.ts';
import { toolContext, type Tool, type ToolCaller, type ToolResult } from './tool.ts';

/** What the tool answered (its own `{success: false}` included), or why it did not run or failed. */
export type Invocation = { ok: true; result: ToolResult } | { ok: false; failure: ToolFailure };

export interface InvokeOptions {
  /** A plan feature the surface needs before any tool runs (mcp_enabled). */
  requires?: Feature;
  /** Where a failure is logged (a request's logger); the app's by default. */
  logger?: Pick<Logger, 'error' | 'warn'>;
  /** The request id an unexpected fault is named by, when the surface has one. */
  ref?: string;
}

/** zod issues named by argument path, e.g. "platform: Invalid input: expected string, received number". */
const issuesText = (error: z.ZodError) =>
  error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');

/** The arguments checked against the tool's zod schema, or the failure naming what is wrong with them. */
export function parseArguments(
  tool: Tool,
  raw: unknown,
): { ok: true; args: Record<string, unknown> } | { ok: false; failure: ToolFailure } {
  const parsed = tool.input.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, args: parsed.data };
  return {
    ok: false,
    failure: {
      success: false,
      message: invalidArgumentsText(tool.name, issuesText(parsed.error)),
      error: 'validation_error',
    },
  };
}

/** The handler run for the caller on parsed arguments; a refusal is thrown as its AppError (tests assert on it). */
export function runTool(
  app: ToolServices,
  tool: Tool,
  args: Record<string, unknown>,
  caller: ToolCaller,
): Promise<ToolResult> {
  return tool.run(toolContext(app, caller), args);
}

export async function invokeTool(
  app: ToolServices,
  tool: Tool,
  raw: unknown,
  caller: ToolCaller,
  opts: InvokeOptions = {},
): Promise<Invocation> {
  const logger = opts.logger ?? app.logger;
  try {
    if (opts.requires) app.plans.assertFeature(caller.principal.planId, opts.requires);
    const parsed = parseArguments(tool, raw);
    if (!parsed.ok) return parsed;
    return { ok: true, result: await runTool(app, tool, parsed.args, caller) };
  } catch (err) {
    if (err instanceof AppError) {
      // Herald's own fault (internal) at error, an expected 5xx (a network failing, a capability not set up) at warn.
      const level = logLevelOf(err);
      if (level) logger[level]({ err, tool: tool.name }, 'tool failed');
      return { ok: false, failure: failureOf(err) };
    }
    logger.error({ err, tool: tool.name }, 'tool failed unexpectedly');
    const ref = opts.ref ? ` (request id ${opts.ref})` : '';
    return {
      ok: false,
      failure: {
        success: false,
        message: `Internal error: the tool failed unexpectedly${ref}. Try again later.`,
        error: 'internal',
        retryable: true,
      },
    };
  }
}

/** The answer as a tool result: what the tool answered, or its failure in band. */
export const resultOf = (call: Invocation): ToolResult => (call.ok ? call.result : call.failure);

const schemas = new WeakMap<Tool, Record<string, unknown>>();

const frozen = <T>(v: T): T => {
  if (v && typeof v === 'object') for (const x of Object.values(v)) frozen(x);
  return Object.freeze(v);
};

/**
 * The tool's arguments as JSON Schema (draft 2020-12, without `$schema`), as a client fills them in; made once per
 * tool and shared by every surface, so it is frozen: a surface that adapts it (GPT Actions) changes a copy.
 */
export function inputSchema(tool: Tool): Readonly<Record<string, unknown>> {
  let made = schemas.get(tool);
  if (!made) {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.input, {
      io: 'input',
      unrepresentable: 'any',
    }) as Record<string, unknown>;
    made = frozen({ ...schema, type: 'object' });
    schemas.set(tool, made);
  }
  return made;
}
