// Who may act on /workspaces/{id}/… routes: members, and owners for changes. A workspace the caller
// is not a member of and one that does not exist answer alike (403), so ids cannot be probed.
import type { AppContext } from '../../../app-context.ts';
import { AppError } from '../../../errors.ts';

export const OWNERS_ONLY = 'Only workspace owners can do this.';

export async function workspaceMember(
  ctx: AppContext,
  userId: string,
  workspaceId: string,
  ownerOnly: boolean,
  why = OWNERS_ONLY,
) {
  const m = await ctx.workspaces.membership(workspaceId, userId);
  if (!m) throw new AppError('forbidden', 'You are not a member of this workspace.');
  if (ownerOnly && m.role !== 'owner') throw new AppError('forbidden', why);
  return m;
}
