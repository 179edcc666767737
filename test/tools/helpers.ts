// Running tools in-process as a surface would: the caller authenticated by the same Authenticator as REST (an API key
// or a session with its workspace), and the tool called through the invoker every surface uses (src/tools/invoke.ts).
// `call` keeps a refusal as the AppError the invoker turns into its in-band failure; `outcome` is what surfaces send.
import { expect } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { invokeTool, parseArguments, runTool, type Invocation } from '../../src/tools/invoke.ts';
import type { Surface, ToolCaller, ToolResult } from '../../src/tools/tool.ts';
import { TOOLS } from '../../src/tools/index.ts';
import type { Harness, TestUser } from '../helpers/harness.ts';

export type As = TestUser | { key: string };

export function toolRunner(harness: () => Harness) {
  async function caller(as: As, opts: { surface?: Surface; oauthGrantId?: string | null }): Promise<ToolCaller> {
    const creds =
      'key' in as
        ? { token: as.key, workspaceHeader: undefined }
        : { token: as.token, workspaceHeader: as.workspaceId };
    const principal = await harness().ctx.auth.workspace(creds);
    return { principal, surface: opts.surface ?? 'agent', oauthGrantId: opts.oauthGrantId ?? null };
  }
  const toolNamed = (name: string) => {
    const tool = TOOLS.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    return tool;
  };
  async function call(
    as: As,
    name: string,
    args: Record<string, unknown> = {},
    opts: { surface?: Surface; oauthGrantId?: string | null } = {},
  ): Promise<ToolResult> {
    const tool = toolNamed(name);
    const parsed = parseArguments(tool, args);
    if (!parsed.ok) throw new Error(parsed.failure.message);
    return runTool(harness().ctx, tool, parsed.args, await caller(as, opts));
  }
  /** The AppError a call fails with (its code and detail). */
  async function fails(as: As, name: string, args: Record<string, unknown> = {}): Promise<AppError> {
    const err = await call(as, name, args).then(
      (r) => {
        throw new Error(`${name} succeeded: ${JSON.stringify(r).slice(0, 500)}`);
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  /** A call as every surface makes it: what the tool answered, or the failure a model reads. */
  async function outcome(
    as: As,
    name: string,
    args: Record<string, unknown> = {},
    opts: { surface?: Surface } = {},
  ): Promise<Invocation> {
    return invokeTool(harness().ctx, toolNamed(name), args, await caller(as, opts));
  }
  return { call, fails, outcome };
}

/** An AppError's detail as text, for assertions on what the model reads. */
export const detailText = (e: AppError): string => JSON.stringify(e.detail);
