// The inbox's read state, kept by Herald per member (GET/POST /unified/comments/read), so "unread first" holds in any
// browser the member signs in from. What is marked here shows as read at once; the server is told in the background.
// Ids an earlier version of the app kept in this browser (localStorage) are handed to the server once, then dropped.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { addRead, chunks, refOfKey, threadKey } from './threads.ts';

const MARK_MAX = 500;
const legacyKey = (workspaceId: string) => `herald.inbox.read.${workspaceId}`;

function takeLegacy(workspaceId: string): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(legacyKey(workspaceId)) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function useReadState(workspaceId: string) {
  const queryClient = useQueryClient();
  const queryKey = useMemo(() => ['inbox', 'read', workspaceId] as const, [workspaceId]);
  const server = useQuery({ queryKey, queryFn: () => must(api.GET('/unified/comments/read')) });
  // Marked on this page: read at once, whatever the server answers.
  const [marked, setMarked] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: async (keys: string[]) => {
      const refs = keys.map(refOfKey).filter((r) => r !== null);
      for (const part of chunks(refs, MARK_MAX))
        await must(api.POST('/unified/comments/read', { body: { comments: part } }));
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey }),
  });
  const { mutate } = save;
  const markRead = useCallback(
    (keys: string[]) => {
      if (!keys.length) return;
      setMarked((prev) => addRead(prev, keys));
      mutate(keys);
    },
    [mutate],
  );
  useEffect(() => {
    const legacy = takeLegacy(workspaceId);
    if (!legacy.length) return;
    markRead(legacy);
    try {
      localStorage.removeItem(legacyKey(workspaceId));
    } catch {
      // storage unavailable: nothing to drop
    }
  }, [workspaceId, markRead]);
  const read = useMemo(() => {
    const all = new Set(marked);
    for (const r of server.data?.read ?? []) all.add(threadKey(r.platform, r.comment_id));
    return all;
  }, [marked, server.data]);
  return { read, markRead, error: save.error };
}
