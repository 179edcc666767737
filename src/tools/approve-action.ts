// Approving a held tool action (pending-actions.ts): a member signed in to Herald approves it with
// POST /unified/drafts/{id}/approve, as a held post. The row is claimed first (pending_approval → approved in one
// conditional update), so two approvals at once run it once: the other gets 409, as does any later approval. The
// tool then runs as the approver — their key scope and plan checked again by the tool's own checks — and its answer
// (or its failure) is recorded on the row, which stays listed as approved or failed. A rejection is a DELETE.
import type { Principal } from '../auth/authenticate.ts';
import type { ToolServices } from './services.ts';
import type { Db } from '../db/client.ts';
import { and, eq } from '../db/orm.ts';
import { drafts } from '../db/schema-publishing.ts';
import { AppError } from '../errors.ts';
import {
  actionToWire,
  isMemberSession,
  PENDING_APPROVAL,
  type ActionWire,
  type DraftRow,
  type StoredAction,
} from '../publishing/index.ts';
import { TOOLS } from './index.ts';
import { invokeTool, resultOf } from './invoke.ts';
import { argumentsOf } from './pending-actions.ts';
import type { Surface, ToolResult } from './tool.ts';

export interface ApprovedAction {
  success: boolean;
  message: string;
  approved: true;
  kind: 'action';
  draft_id: string;
  action: ActionWire;
}

async function runAs(app: ToolServices, approver: Principal, row: DraftRow, stored: StoredAction): Promise<ToolResult> {
  const tool = TOOLS.find((t) => t.name === stored.tool);
  if (!tool) return { success: false, message: `This server has no tool named ${stored.tool} any more.` };
  const surface = (row.requestedVia ?? 'agent') as Surface;
  let args: Record<string, unknown>;
  try {
    args = argumentsOf(app, row.workspaceId, stored);
  } catch (err) {
    app.logger.error({ err, tool: stored.tool }, 'approved tool action: its sealed arguments do not open');
    return { success: false, error: 'internal', message: 'Internal error: the action failed unexpectedly.' };
  }
  return resultOf(
    await invokeTool(app, tool, args, {
      principal: approver,
      surface,
      oauthGrantId: null,
      approvedBy: approver.user!.id,
    }),
  );
}

/** Runs a held action once, as the approving member, and records what it answered. */
export async function approveAction(app: ToolServices, p: Principal, row: DraftRow): Promise<ApprovedAction> {
  if (!isMemberSession(p)) {
    throw new AppError(
      'forbidden',
      'Only a member of the workspace, signed in to Herald, can approve an action: not an API key or a chat connector.',
    );
  }
  const db: Db = app.database.db;
  const mine = and(eq(drafts.id, row.id), eq(drafts.workspaceId, p.workspaceId));
  const decided: StoredAction = {
    ...(row.action as StoredAction),
    decided_by: p.user!.id,
    decided_at: app.clock().toISOString(),
  };
  const [claimed] = await db
    .update(drafts)
    .set({ status: 'approved', action: decided, updatedAt: app.clock() })
    .where(and(mine, eq(drafts.kind, 'action'), eq(drafts.status, PENDING_APPROVAL)))
    .returning({ id: drafts.id });
  if (!claimed)
    throw new AppError(
      'conflict',
      'This action is not waiting for approval: it was approved already (see its result with GET /unified/drafts/{id}).',
    );
  const result = await runAs(app, p, row, decided);
  const done: StoredAction = { ...decided, result };
  await db
    .update(drafts)
    .set({ status: result.success ? 'approved' : 'failed', action: done })
    .where(mine);
  const message = result.success
    ? 'Approved: the action was carried out.'
    : `Approved, but the action failed: ${String(result.message ?? 'no details')}`;
  return {
    success: result.success,
    message,
    approved: true,
    kind: 'action',
    draft_id: row.id,
    action: actionToWire(done),
  };
}
