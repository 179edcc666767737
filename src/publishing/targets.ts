// Shared by publishing now and the scheduling worker: what a planned target stores, and which
// connected account posts it.
import type { Platform } from '../platforms/slugs.ts';
import type { ConnectionRow } from '../connections/store.ts';
import type { Db } from '../db/client.ts';
import type { Ledger, NewTarget, TargetRow, TargetSpec } from './ledger.ts';
import type { MediaRef, PlannedTarget } from './plan.ts';

export const idOf = (m: MediaRef) => ('id' in m ? m.id : m.url);

export function specOf(t: PlannedTarget): TargetSpec {
  return {
    text: t.text,
    ...(t.title !== undefined ? { title: t.title } : {}),
    ...(t.description !== undefined ? { description: t.description } : {}),
    mediaIds: t.media.map(idOf),
    ...(t.thumbnail ? { thumbnailId: idOf(t.thumbnail) } : {}),
    ...(t.visibility ? { visibility: t.visibility } : {}),
    options: t.options,
    ...(t.firstComment ? { firstComment: t.firstComment } : {}),
  };
}

/** The connected account that can post to the target's destination (pages, organizations, boards). */
export function connectionFor(rows: ConnectionRow[], t: PlannedTarget): ConnectionRow | undefined {
  const mine = rows.filter((r) => r.platform === t.platform && r.status === 'connected');
  const dest = t.destination;
  if (dest && (dest.kind === 'page' || dest.kind === 'organization' || dest.kind === 'board')) {
    return (
      mine.find((r) =>
        (r.destinations as { id: string }[]).some((d) => d.id === dest.id || d.id.endsWith(`:${dest.id}`)),
      ) ?? mine[0]
    );
  }
  return mine[0];
}

/** A planned target and the account chosen for it (none: not connected, or a draft). */
export interface Placed {
  planned: PlannedTarget;
  conn: ConnectionRow | undefined;
}

/**
 * The ledger targets of the placed ones, for publishing now and the scheduling worker: drafts are recorded as
 * drafts, a target without an account fails as NOT_CONNECTED, the rest wait for their run. `startNow` records the
 * first attempt already (the caller runs them right after the commit, saving a write each).
 */
export function targetValues(o: {
  postId: string;
  workspaceId: string;
  placed: Placed[];
  startNow: boolean;
  displayName: (p: Platform) => string;
}): NewTarget[] {
  return o.placed.map(({ planned: t, conn }) => {
    const live = !t.draft;
    const base = {
      postId: o.postId,
      workspaceId: o.workspaceId,
      platform: t.platform,
      destinationKind: t.destination?.kind ?? null,
      destinationId: t.destination?.id ?? null,
      spec: specOf(t),
    };
    // A requirement of the network not met: failed before any network call, nothing spent.
    if (live && t.failure) {
      return {
        ...base,
        connectionId: conn?.id ?? null,
        platformUserId: conn?.accountId ?? null,
        state: 'failed',
        attempts: 0,
        creditSpent: false,
        errorCode: t.failure.code,
        errorMessage: t.failure.message,
      };
    }
    return {
      ...base,
      connectionId: live ? (conn?.id ?? null) : null,
      platformUserId: live ? (conn?.accountId ?? null) : null,
      state: !live ? 'draft' : !conn ? 'failed' : o.startNow ? 'processing' : 'pending',
      attempts: live && conn && o.startNow ? 1 : 0,
      creditSpent: live && Boolean(conn),
      ...(live && !conn
        ? {
            errorCode: 'NOT_CONNECTED',
            errorMessage: `${o.displayName(t.platform)} not connected for this workspace.`,
          }
        : {}),
    };
  });
}

/** The one writer of ledger targets inside a transaction (`targetValues` says what each row holds). */
export async function writeTargets(
  tx: Db,
  ledger: Ledger,
  o: { postId: string; workspaceId: string; placed: Placed[]; startNow: boolean; displayName: (p: Platform) => string },
): Promise<TargetRow[]> {
  const out: TargetRow[] = [];
  for (const t of targetValues(o)) out.push(await ledger.addTarget(tx, t));
  return out;
}
