// The frame of every page behind login: header (workspace switcher, theme, logout), navigation, sandbox banner.
import { Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { t } from '../i18n/index.ts';
import { Button } from '../ui/Button.tsx';
import { ErrorText, Loading } from '../ui/States.tsx';
import { useServerInfo } from './server-info.ts';
import { useLogout, useWorkspace } from './session.tsx';
import { applyTheme, nextTheme, storedTheme, type Theme } from './theme.ts';

const NAV: { to: string; label: string }[] = [
  { to: '/compose', label: t.nav.compose },
  { to: '/calendar', label: t.nav.calendar },
  { to: '/posts', label: t.nav.posts },
  { to: '/import', label: t.nav.import },
  { to: '/library', label: t.nav.library },
  { to: '/inbox', label: t.nav.inbox },
  { to: '/analytics', label: t.nav.analytics },
  { to: '/approvals', label: t.nav.approvals },
  { to: '/agent', label: t.nav.agent },
  { to: '/connections', label: t.nav.connections },
  { to: '/keys', label: t.nav.keys },
  { to: '/webhooks', label: t.nav.webhooks },
  { to: '/feeds', label: t.nav.feeds },
  { to: '/queues', label: t.nav.queues },
  { to: '/notifications', label: t.nav.notifications },
  { to: '/settings', label: t.nav.settings },
];

export function Shell() {
  const { workspace, workspaces, switchTo } = useWorkspace();
  const server = useServerInfo();
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [theme, setTheme] = useState<Theme>(storedTheme);
  const [logoutError, setLogoutError] = useState<unknown>();

  // A page change closes the phone menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => setMenuOpen(false), [location.pathname]);

  const themeLabel = theme === 'system' ? t.theme.system : theme === 'light' ? t.theme.light : t.theme.dark;
  return (
    <div className={`shell${menuOpen ? ' menu-open' : ''}`}>
      <a className="skip-link" href="#main">
        {t.app.skipToContent}
      </a>
      {server.data?.sandbox && (
        <p className="sandbox-banner" role="note">
          {t.app.sandboxBanner}
        </p>
      )}
      <header className="topbar">
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((o) => !o)}
        >
          <span aria-hidden="true">☰</span>
          <span className="visually-hidden">{menuOpen ? t.app.closeMenu : t.app.menu}</span>
        </button>
        <NavLink to="/compose" className="brand">
          {t.app.name}
        </NavLink>
        <label className="workspace-switcher">
          <span className="visually-hidden">{t.workspace.label}</span>
          <select value={workspace.id} onChange={(e) => switchTo(e.target.value)}>
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <div className="topbar-actions">
          <Button
            variant="ghost"
            aria-label={`${t.theme.label}: ${themeLabel}`}
            title={themeLabel}
            onClick={() => {
              const next = nextTheme(theme);
              applyTheme(next);
              setTheme(next);
            }}
          >
            <span aria-hidden="true">{theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'}</span>
          </Button>
          <Button
            variant="ghost"
            onClick={() =>
              logout().then(
                () => navigate('/login'),
                (err: unknown) => setLogoutError(err),
              )
            }
          >
            {t.nav.logout}
          </Button>
        </div>
      </header>
      <ErrorText error={logoutError} />
      <nav id="main-nav" className="sidenav" aria-label={t.nav.label}>
        <ul>
          {NAV.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to}>{item.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
