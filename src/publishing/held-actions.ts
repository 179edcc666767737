// The stored and wire form of a tool action held for approval (a row of the drafts table with kind 'action'). The
// drafts list shows it; the tool layer (src/tools/pending-actions.ts) holds, and approve-action.ts runs, the action.
import { z } from 'zod';
import { PENDING_APPROVAL } from './approval.ts';

/** An action row's states: waiting, then approved (it ran; `result` says how it went) or failed (it ran and failed). */
export const ACTION_STATES = [PENDING_APPROVAL, 'approved', 'failed'] as const;

/** What a secret argument's value shows as. */
export const HIDDEN = '[hidden]';

/** The stored `action` of a drafts row of kind action. */
export interface StoredAction {
  tool: string;
  summary: string;
  /** The arguments as the tool parsed them; secret ones replaced by HIDDEN here, sealed in `sealed`. */
  arguments: Record<string, unknown>;
  /** Secret arguments, each sealed with the server's key (bound to the workspace). */
  sealed?: Record<string, string>;
  decided_by?: string | null;
  decided_at?: string | null;
  /** The tool's answer once it ran ({success: false, error, message} when it failed). */
  result?: ({ success: boolean } & Record<string, unknown>) | null;
}

export const actionWireSchema = z
  .object({
    tool: z.string(),
    summary: z.string().describe('What the action will do (or did), for members'),
    arguments: z
      .record(
        z.string(),
        z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]))]),
      )
      .describe('The tool\'s arguments; secret ones (an app password) show as "[hidden]"'),
    decided_by: z.string().nullable().describe('The member who approved it'),
    decided_at: z.string().nullable(),
    result: z
      .looseObject({ success: z.boolean() })
      .nullable()
      .describe("The tool's answer once it ran: {success: false, message} when it failed"),
  })
  .describe('For kind action: the tool call held for approval');
export type ActionWire = z.infer<typeof actionWireSchema>;

export function actionToWire(a: StoredAction): ActionWire {
  return {
    tool: a.tool,
    summary: a.summary,
    arguments: a.arguments as ActionWire['arguments'],
    decided_by: a.decided_by ?? null,
    decided_at: a.decided_at ?? null,
    result: a.result ?? null,
  };
}
