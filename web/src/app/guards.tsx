// Pages behind login get the shell and a workspace; the login pages send a logged-in visitor to the app.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { t } from '../i18n/index.ts';
import { Empty, ErrorState, Loading } from '../ui/States.tsx';
import { useMe, useWorkspaces, WorkspaceProvider } from './session.tsx';
import { Shell } from './Shell.tsx';

export function RequireAuth() {
  const me = useMe();
  const location = useLocation();
  const workspaces = useWorkspaces(Boolean(me.data));
  if (me.isPending) return <Loading />;
  if (me.error) return <ErrorState error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  if (workspaces.isPending) return <Loading />;
  if (workspaces.error) return <ErrorState error={workspaces.error} onRetry={() => void workspaces.refetch()} />;
  if (!workspaces.data.length) return <Empty title={t.workspace.none} />;
  return (
    <WorkspaceProvider workspaces={workspaces.data}>
      <Shell />
    </WorkspaceProvider>
  );
}

/** Where to go after logging in: the page the visitor wanted (a path of this app only), else the composer. */
export function nextPath(search: URLSearchParams): string {
  const next = search.get('next');
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/compose';
}

export function PublicOnly({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Loading />;
  if (me.data) return <Navigate to={nextPath(new URLSearchParams(location.search))} replace />;
  return <>{children}</>;
}

export function RootRedirect() {
  const me = useMe();
  if (me.isPending) return <Loading />;
  return <Navigate to={me.data ? '/compose' : '/login'} replace />;
}
