// Vite builds the app from web/ into web/dist. `npm run dev:web` serves it with hot reload and proxies the API's
// paths to a running Herald (HERALD_URL, default http://127.0.0.1:8080, Herald's default port).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

/**
 * Brotli and gzip copies of the build's text files (index.html, scripts, styles, SVG) beside them: Herald serves the
 * copy a browser accepts (@fastify/static's preCompressed), compressed once at build time rather than per request.
 */
function precompress(): Plugin {
  const TEXT = /\.(?:html|js|css|svg|json|txt|webmanifest)$/;
  return {
    name: 'herald-precompress',
    apply: 'build',
    closeBundle() {
      const dist = join(import.meta.dirname, 'dist');
      for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !TEXT.test(entry.name)) continue;
        const path = join(entry.parentPath, entry.name);
        const bytes = readFileSync(path);
        if (bytes.length < 1024) continue;
        writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
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
