// Who is logged in (GET /auth/me) and which workspace the app acts on (X-Workspace-Id, chosen among GET /workspaces).
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { fetchPlatforms, platformsQuery } from '../api/platforms.ts';
import { api, currentWorkspaceId, must, resetCsrf, setWorkspaceId } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { paths } from '../api/schema.d.ts';

export type Me = paths['/auth/me']['get']['responses'][200]['content']['application/json'];
export type Workspace = paths['/workspaces']['get']['responses'][200]['content']['application/json'][number];

export const meKey = ['me'] as const;
export const workspacesKey = ['workspaces'] as const;

async function fetchMe(): Promise<Me | null> {
  try {
    return await must(api.GET('/auth/me'));
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

const fetchWorkspaces = () => must(api.GET('/workspaces'));

/** The logged-in user, or null when the browser has no session. */
export function useMe() {
  return useQuery({ queryKey: meKey, queryFn: fetchMe, staleTime: 60_000, retry: false });
}

export function useWorkspaces(enabled = true) {
  return useQuery({ queryKey: workspacesKey, queryFn: fetchWorkspaces, enabled, staleTime: 60_000 });
}

/**
 * Asks who is logged in, for their workspaces and for the networks' rules at once, before React renders, so the
 * shell does not wait for one answer after the other (the rules carry the sandbox flag the shell's banner shows, and
 * the composer needs them). The other answers enter the cache only for a logged-in visitor: without a session the
 * server refuses them, and that refusal means nothing.
 */
export function prefetchSession(queryClient: QueryClient) {
  const workspaces = fetchWorkspaces();
  const platforms = fetchPlatforms();
  for (const answer of [workspaces, platforms]) answer.catch(() => undefined);
  void queryClient.prefetchQuery({ queryKey: meKey, queryFn: fetchMe, staleTime: 60_000, retry: false }).then(() => {
    if (!queryClient.getQueryData(meKey)) return;
    void queryClient.prefetchQuery({ queryKey: workspacesKey, queryFn: () => workspaces, staleTime: 60_000 });
    void queryClient.prefetchQuery({ ...platformsQuery, queryFn: () => platforms });
  });
}

interface WorkspaceState {
  workspace: Workspace;
  workspaces: Workspace[];
  switchTo: (id: string) => void;
}

const WorkspaceContext = createContext<WorkspaceState | undefined>(undefined);

/** The current workspace; only inside the app shell (pages behind login). */
export function useWorkspace(): WorkspaceState {
  const state = useContext(WorkspaceContext);
  if (!state) throw new Error('useWorkspace outside WorkspaceProvider');
  return state;
}

export function WorkspaceProvider({ workspaces, children }: { workspaces: Workspace[]; children: ReactNode }) {
  const queryClient = useQueryClient();
  // The choice is state (for React) mirrored in the client (for the header it sends).
  const [chosen, setChosen] = useState(currentWorkspaceId);
  const workspace = workspaces.find((w) => w.id === chosen) ?? workspaces[0];
  if (workspace && workspace.id !== currentWorkspaceId()) setWorkspaceId(workspace.id);
  const switchTo = useCallback(
    (id: string) => {
      setWorkspaceId(id);
      setChosen(id);
      // Everything but who is logged in and the workspace list belongs to a workspace: fetch it again.
      queryClient.removeQueries({
        predicate: (q) => q.queryKey[0] !== meKey[0] && q.queryKey[0] !== workspacesKey[0],
      });
    },
    [queryClient],
  );
  const value = useMemo(
    () => (workspace ? { workspace, workspaces, switchTo } : undefined),
    [workspace, workspaces, switchTo],
  );
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

/** After a login or sign-up set the session cookie: fetch who is logged in and their workspaces again. */
export function useSessionStarted() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    resetCsrf();
    await queryClient.invalidateQueries({ queryKey: workspacesKey });
    await queryClient.refetchQueries({ queryKey: meKey });
  }, [queryClient]);
}

/** Ends the session: the server clears the cookie; every cached answer is dropped. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    try {
      await must(api.POST('/auth/logout'));
    } finally {
      resetCsrf();
      setWorkspaceId(undefined);
      queryClient.clear();
      queryClient.setQueryData(meKey, null);
    }
  }, [queryClient]);
}
