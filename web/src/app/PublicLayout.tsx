// The frame of the pages before login: a centred card, the sandbox banner when it applies.
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { t } from '../i18n/index.ts';
import { Loading } from '../ui/States.tsx';
import { useServerInfo } from './server-info.ts';

export function PublicLayout() {
  const server = useServerInfo();
  return (
    <div className="public-layout">
      {server.data?.sandbox && (
        <p className="sandbox-banner" role="note">
          {t.app.sandboxBanner}
        </p>
      )}
      <main id="main" className="auth-page">
        <p className="brand brand-large">{t.app.name}</p>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
