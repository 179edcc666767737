// Vite builds the app from web/ into web/dist. `npm run dev:web` serves it with hot reload and proxies the API's
// paths to a running Herald (HERALD_URL, default http://127.0.0.1:8080, Herald's default port).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const herald = process.env.HERALD_URL ?? 'http://127.0.0.1:8080';

// The first path segments the API (and the sandbox's simulated networks) answer under; page paths such as
// /compose or /settings stay with the dev server, which answers them with index.html.
export const API_PREFIXES = [
  '/auth',
  '/unified',
  '/media',
  '/storage',
  '/workspaces',
  '/invitations',
  '/billing',
  '/admin',
  '/user-agent-chats',
  '/workspace-agent',
  '/sandbox',
  '/oauth',
  '/mcp',
  '/openapi',
  '/openapi.json',
  '/docs',
  '/healthz',
  '/readyz',
  '/metrics',
  '/.well-known',
];

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    host: '127.0.0.1',
    proxy: Object.fromEntries(
      [
        // A prefix followed by the end of the path, a slash or a query: /mediax is not /media.
        ...API_PREFIXES.map((p) => `^${p.replace(/\./g, '\\.')}(?:$|[/?])`),
        // The networks' OAuth callbacks (/linkedin/oauth/callback, …), for a Herald whose public URL is this server.
        '^/[a-z]+/oauth/callback',
      ].map((pattern) => [pattern, { target: herald, changeOrigin: false, xfwd: true }]),
    ),
  },
});
