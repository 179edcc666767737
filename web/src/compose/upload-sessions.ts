// Chunked uploads survive a reload: the session of a file being sent in chunks is kept in localStorage (per workspace,
// by the file's name, size, type and modification time) until it completes. Choosing the same file again asks the
// server which chunks it already has (GET /media/storage/progress, `missing_chunks`) and sends only the others.
// A browser cannot reopen a file by itself after a reload: the person picks it again.

export interface SavedSession {
  upload_id: string;
  chunk_size: number;
  total_chunks: number;
  expires_at?: string | undefined;
}

const keyOf = (workspaceId: string) => `herald.uploads.${workspaceId}`;

/** What tells a file apart without reading it. */
export const fingerprint = (f: { name: string; size: number; type: string; lastModified: number }) =>
  `${f.name}|${f.size}|${f.type}|${f.lastModified}`;

function readAll(workspaceId: string): Record<string, SavedSession> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(keyOf(workspaceId)) ?? '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, SavedSession>) : {};
  } catch {
    return {};
  }
}

function writeAll(workspaceId: string, all: Record<string, SavedSession>): void {
  try {
    if (Object.keys(all).length) localStorage.setItem(keyOf(workspaceId), JSON.stringify(all));
    else localStorage.removeItem(keyOf(workspaceId));
  } catch {
    // storage full or unavailable: the upload resumes only within this page
  }
}

/** The saved session of this file, unless it has expired (`now`: ms). Expired ones are forgotten. */
export function savedSession(workspaceId: string, file: string, now = Date.now()): SavedSession | null {
  const all = readAll(workspaceId);
  for (const [k, s] of Object.entries(all))
    if (s.expires_at && Date.parse(s.expires_at) <= now) {
      delete all[k];
      writeAll(workspaceId, all);
    }
  const s = all[file];
  return s && typeof s.upload_id === 'string' && s.chunk_size > 0 && s.total_chunks > 0 ? s : null;
}

export function saveSession(workspaceId: string, file: string, s: SavedSession): void {
  writeAll(workspaceId, { ...readAll(workspaceId), [file]: s });
}

export function forgetSession(workspaceId: string, file: string): void {
  const all = readAll(workspaceId);
  if (!(file in all)) return;
  delete all[file];
  writeAll(workspaceId, all);
}

/** The chunk numbers (1-based) still to send, from the server's progress; null when the session cannot be resumed. */
export function chunksToSend(
  progress: { status: string; total_chunks: number; missing_chunks?: number[] | undefined },
  expectedTotal: number,
): number[] | null {
  if (progress.total_chunks !== expectedTotal) return null;
  if (progress.status === 'ready') return [];
  if (progress.status !== 'pending' && progress.status !== 'uploading') return null;
  return progress.missing_chunks ?? Array.from({ length: expectedTotal }, (_, i) => i + 1);
}
