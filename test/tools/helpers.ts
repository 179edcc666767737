// Running tools in-process as a surface would: the caller authenticated by the same Authenticator as REST (an API key
// or a session with its workspace), the arguments parsed by the tool's own zod schema, the handler run with
// toolContext. Failures come back as the AppError the surfaces turn into their in-band form.
import { expect } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { toolContext, type Surface, type ToolResult } from '../../src/tools/tool.ts';
import { TOOLS } from '../../src/tools/index.ts';
import type { Harness, TestUser } from '../helpers/harness.ts';

export type As = TestUser | { key: string };

export function toolRunner(harness: () => Harness) {
  async function call(as: As, name: string, args: Record<string, unknown> = {}, opts: { surface?: Surface; oauthGrantId?: string | null } = {}): Promise<ToolResult> {
    const h = harness();
    const tool = TOOLS.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    const creds = 'key' in as ? { token: as.key, workspaceHeader: undefined } : { token: as.token, workspaceHeader: as.workspaceId };
    const principal = await h.ctx.auth.workspace(creds);
    const parsed = tool.input.parse(args);
    return tool.run(toolContext(h.ctx, { principal, surface: opts.surface ?? 'agent', oauthGrantId: opts.oauthGrantId ?? null }), parsed);
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
  return { call, fails };
}

/** An AppError's detail as text, for assertions on what the model reads. */
export const detailText = (e: AppError): string => JSON.stringify(e.detail);
