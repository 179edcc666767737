// Held tool actions: with the workspace setting `tool_posts_need_approval`, a tool call that writes to a network or
// removes something (a reply, a disconnect — the tools whose effect is held 'action', tool.ts) is not run but saved as
// a pending action, next to the posts tools hold: a row of the drafts table with kind 'action' and status
// pending_approval, listed by GET /unified/drafts?status=pending_approval and approved with
// POST /unified/drafts/{id}/approve, as held posts are (approve-action.ts runs it then). Its `action` holds the tool,
// its arguments (secret ones sealed), the summary members read, and once decided who approved it and the result.
import { drafts } from '../db/schema-publishing.ts';
import type { ToolServices } from './services.ts';
import { HIDDEN, PENDING_APPROVAL, requesterOf, type StoredAction } from '../publishing/index.ts';
import type { HeldActionPlan, ToolContext, ToolResult } from './tool.ts';

const aad = (workspaceId: string, arg: string) => `pending-action:${workspaceId}:${arg}`;

/** The arguments a tool runs with on approval: the stored ones with their secrets opened. */
export function argumentsOf(app: ToolServices, workspaceId: string, a: StoredAction): Record<string, unknown> {
  const out = { ...a.arguments };
  for (const [k, v] of Object.entries(a.sealed ?? {})) out[k] = app.box.open(v, aad(workspaceId, k));
  return out;
}

const HELD_MESSAGE =
  'Not done yet: this workspace requires approval of what assistants do. The action is saved as pending approval; ' +
  'a member of the workspace must approve it in Herald (POST /unified/drafts/{id}/approve) before it happens.';

/**
 * ctx.hold for one tool call: null when it may run now (the setting is off, or this is the approved run); otherwise
 * the call is saved as a pending action and the answer says so (as publish's held answer does, with `drafts`).
 */
export async function holdAction(
  ctx: ToolContext,
  tool: string,
  args: Record<string, unknown>,
  plan: HeldActionPlan,
): Promise<ToolResult | null> {
  const { app, caller } = ctx;
  if (caller.approvedBy) return null;
  const workspaceId = caller.principal.workspaceId;
  if (!(await app.publishing.approvals.required(workspaceId))) return null;
  const shown: Record<string, unknown> = { ...args };
  const sealed: Record<string, string> = {};
  for (const k of plan.secretArgs ?? []) {
    if (typeof args[k] !== 'string') continue;
    sealed[k] = app.box.seal(args[k], aad(workspaceId, k));
    shown[k] = HIDDEN;
  }
  const action: StoredAction = {
    tool,
    summary: plan.summary,
    arguments: shown,
    ...(Object.keys(sealed).length ? { sealed } : {}),
  };
  const [row] = await app.database.db
    .insert(drafts)
    .values({
      workspaceId,
      platform: plan.platform,
      postType: 'action',
      kind: 'action',
      status: PENDING_APPROVAL,
      requestedVia: caller.surface,
      ...requesterOf(caller.principal),
      body: { platforms: [plan.platform] },
      action,
    })
    .returning({ id: drafts.id });
  return {
    success: true,
    pending_approval: true,
    message: HELD_MESSAGE,
    pending_action: { tool, summary: plan.summary },
    drafts: [{ platform: plan.platform, draft_id: row!.id, status: PENDING_APPROVAL }],
  };
}

/** A comment or reply text for a summary: its first 100 characters, on one line. */
export function quoted(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `'${line.length > 100 ? `${line.slice(0, 99)}…` : line}'`;
}
