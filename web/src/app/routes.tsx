// Every page of the app by its path. A page is a module of pages/ with a default export, loaded on demand
// (React.lazy) so the first load carries only the page opened. The app uses React Router's declarative mode
// (<BrowserRouter> and useRoutes): it has no loaders or actions, and the data router's code (a third of the
// router) would be evaluated before the first paint for nothing.
import { lazy } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { PublicOnly, RequireAuth, RootRedirect } from './guards.tsx';
import { PublicLayout } from './PublicLayout.tsx';

const Login = lazy(() => import('../pages/auth/Login.tsx'));
const Signup = lazy(() => import('../pages/auth/Signup.tsx'));
const ForgotPassword = lazy(() => import('../pages/auth/ForgotPassword.tsx'));
const ResetPassword = lazy(() => import('../pages/auth/ResetPassword.tsx'));
const AcceptInvitation = lazy(() => import('../pages/auth/AcceptInvitation.tsx'));
const NotFound = lazy(() => import('../pages/NotFound.tsx'));
const loadComposer = () => import('../pages/compose/Composer.tsx');
const loadCalendar = () => import('../pages/calendar/Calendar.tsx');
const Composer = lazy(loadComposer);
const Calendar = lazy(loadCalendar);

/**
 * Starts loading the chunk of the page a first visit opens, alongside the session request, rather than after the
 * shell rendered (the usual landing pages; any other page loads when rendered).
 */
export function preloadPage(path: string) {
  if (path === '/' || path === '/compose') void loadComposer();
  else if (path === '/calendar') void loadCalendar();
}
const Posts = lazy(() => import('../pages/posts/Posts.tsx'));
const Connections = lazy(() => import('../pages/connections/Connections.tsx'));
const Library = lazy(() => import('../pages/library/LibraryPage.tsx'));
const Inbox = lazy(() => import('../pages/inbox/InboxPage.tsx'));
const Analytics = lazy(() => import('../pages/analytics/AnalyticsPage.tsx'));
const Keys = lazy(() => import('../pages/keys/KeysPage.tsx'));
const Approvals = lazy(() => import('../pages/approvals/ApprovalsPage.tsx'));
const Agent = lazy(() => import('../pages/agent/AgentPage.tsx'));
const Settings = lazy(() => import('../pages/settings/SettingsPage.tsx'));
const Notifications = lazy(() => import('../pages/notifications/NotificationsPage.tsx'));
const Webhooks = lazy(() => import('../pages/webhooks/WebhooksPage.tsx'));
const Feeds = lazy(() => import('../pages/feeds/FeedsPage.tsx'));
const Queues = lazy(() => import('../pages/queues/QueuesPage.tsx'));
const Import = lazy(() => import('../pages/import/ImportPage.tsx'));

/** The pages behind login, inside the shell. */
const appPages: RouteObject[] = [
  { path: '/compose', element: <Composer /> },
  { path: '/calendar', element: <Calendar /> },
  { path: '/posts', element: <Posts /> },
  { path: '/library', element: <Library /> },
  { path: '/inbox', element: <Inbox /> },
  { path: '/analytics', element: <Analytics /> },
  { path: '/connections', element: <Connections /> },
  { path: '/keys', element: <Keys /> },
  { path: '/agent', element: <Agent /> },
  { path: '/approvals', element: <Approvals /> },
  { path: '/settings', element: <Settings /> },
  { path: '/notifications', element: <Notifications /> },
  { path: '/webhooks', element: <Webhooks /> },
  { path: '/feeds', element: <Feeds /> },
  { path: '/queues', element: <Queues /> },
  { path: '/import', element: <Import /> },
];

const publicPage = (path: string, element: React.ReactNode, onlyLoggedOut = true): RouteObject => ({
  path,
  element: onlyLoggedOut ? <PublicOnly>{element}</PublicOnly> : element,
});

export const routes: RouteObject[] = [
  { path: '/', element: <RootRedirect /> },
  {
    element: <PublicLayout />,
    children: [
      publicPage('/login', <Login />),
      publicPage('/signup', <Signup />),
      publicPage('/forgot-password', <ForgotPassword />),
      publicPage('/reset-password', <ResetPassword />),
      publicPage('/accept-invitation', <AcceptInvitation />, false),
    ],
  },
  { element: <RequireAuth />, children: appPages },
  { path: '*', element: <NotFound /> },
];

/** The page of the current path. */
export const AppRoutes = () => useRoutes(routes);
