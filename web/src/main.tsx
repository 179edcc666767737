import './styles/base.css';
import './styles/shell.css';
import './styles/ui.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/errors.ts';
import { AppRoutes, preloadPage } from './app/routes.tsx';
import { prefetchSession } from './app/session.tsx';
import { applyTheme, storedTheme } from './app/theme.ts';

applyTheme(storedTheme());

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A client error (4xx) will not change by asking again; network and server errors get one more try.
      retry: (failures, err) => failures < 1 && !(err instanceof ApiError && err.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

prefetchSession(queryClient);
preloadPage(window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
