// Shared by publishing now and the scheduling worker: what a planned target stores, and which
// connected account posts it.
import type { ConnectionRow } from '../connections/store.ts';
import type { TargetSpec } from './ledger.ts';
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
  };
}

/** The connected account that can post to the target's destination (pages, organizations, boards). */
export function connectionFor(rows: ConnectionRow[], t: PlannedTarget): ConnectionRow | undefined {
  const mine = rows.filter((r) => r.platform === t.platform && r.status === 'connected');
  const dest = t.destination;
  if (dest && (dest.kind === 'page' || dest.kind === 'organization' || dest.kind === 'board')) {
    return mine.find((r) => (r.destinations as { id: string }[]).some((d) => d.id === dest.id || d.id.endsWith(`:${dest.id}`))) ?? mine[0];
  }
  return mine[0];
}
