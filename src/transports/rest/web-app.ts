// The web app (web/, built by `npm run build:web` into web/dist) served at `/`, same origin as the API. A browser
// opening one of the app's pages, or any path that is no API route, gets index.html (the app routes on the client);
// /assets/* are the build's content-hashed files, cached for good. Every app answer carries a strict
// Content-Security-Policy: scripts and styles from this origin only, nothing inline. Without a build, `/` says how
// to make one instead of answering the API's JSON 404; HERALD_WEB_DIR=off turns the app off.
import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { type WebAppState, webAppState } from '../../config/web.ts';
import type { Charge } from './rate-limit.ts';

/**
 * The app's page paths (their first segment). A browser navigation to one of them gets the app even where the API
 * has a GET route of the same path (/webhooks): the API answers programs, which do not ask for text/html.
 */
export const APP_PAGES: readonly string[] = [
  'login',
  'signup',
  'forgot-password',
  'reset-password',
  'accept-invitation',
  'compose',
  'calendar',
  'posts',
  'library',
  'inbox',
  'analytics',
  'connections',
  'keys',
  'agent',
  'approvals',
  'settings',
  'notifications',
  'webhooks',
  'queues',
  'import',
];

/** The app's Content-Security-Policy: this origin only (and the media storage's, for images and videos). */
export function appContentSecurityPolicy(config: Pick<Config, 'publicUrl' | 'media'>): string {
  const self = new URL(config.publicUrl).origin;
  let media = '';
  try {
    const origin = new URL(config.media.storage.publicBaseUrl).origin;
    if (origin !== self) media = ` ${origin}`;
  } catch {
    // A relative or unset media URL is this origin.
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${media}`,
    `media-src 'self' blob:${media}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const ASSETS_CACHE = 'public, max-age=31536000, immutable';

function explanation(state: WebAppState): string {
  if (state.kind === 'off')
    return 'This is Herald. The web app is turned off on this server (HERALD_WEB_DIR=off); the API is described at /docs.\n';
  return `This is Herald. Its web app is not built on this server: run \`npm run build:web\` (npm ci does it) and restart. The API works meanwhile and is described at /docs.\n`;
}

const wantsHtml = (req: FastifyRequest) => /\btext\/html\b/i.test(String(req.headers.accept ?? ''));
const firstSegment = (url: string) => url.replace(/[?#].*$/, '').split('/')[1] ?? '';

/**
 * Serving files, and the hook that answers page loads (and the build's top-level files) from the build. Install it
 * before the access plugin: a page load is no API call, whatever its path, and must not meet the API's 401.
 */
export async function installWebApp(app: FastifyInstance, opts: { config: Config; charge: Charge }): Promise<void> {
  const state = webAppState(opts.config);
  const csp = appContentSecurityPolicy(opts.config);

  if (state.kind === 'built') {
    const assets = join(state.dir, 'assets') + sep;
    // No routes of its own (serve: false): reply.sendFile only, for the routes and the hook below. Headers are set
    // once a file is found, so a missing asset stays an uncached 404.
    await app.register(fastifyStatic, {
      root: state.dir,
      serve: false,
      index: false,
      cacheControl: false,
      // The build's .br and .gz copies (web/vite.config.ts), sent to browsers that accept them.
      preCompressed: true,
      setHeaders: (reply: FastifyReply, path: string) => {
        reply.header('content-security-policy', csp);
        reply.header('cache-control', path.startsWith(assets) ? ASSETS_CACHE : 'no-cache');
      },
    });
    const pages = new Set(APP_PAGES);
    // The build's top-level files (favicon, manifest…), copied from web/public.
    const topFiles = new Set(
      readdirSync(state.dir, { withFileTypes: true })
        .filter((e) => e.isFile() && e.name !== 'index.html')
        .map((e) => e.name),
    );
    app.addHook('onRequest', async (req, reply) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return;
      const segment = firstSegment(req.url);
      if (segment === 'assets' || segment === '') return;
      const topFile = req.is404 && topFiles.has(segment) && req.url.replace(/[?#].*$/, '') === `/${segment}`;
      if (!topFile && !(wantsHtml(req) && (pages.has(segment) || req.is404))) return;
      await opts.charge(req, reply, 'general');
      // The file is streamed asynchronously: the hook ends once the answer has gone, so that no later onRequest
      // hook (the access plugin's) runs for a request already answered.
      const done = new Promise<void>((resolve) => {
        reply.raw.once('finish', resolve);
        reply.raw.once('close', resolve);
      });
      reply.sendFile(topFile ? segment : 'index.html');
      await done;
      return reply;
    });
  }
}

/** `GET /` (the app, or why it is not there) and `GET /assets/*`. */
export async function webAppRoutes(app: FastifyInstance, opts: { config: Config }): Promise<void> {
  const state = webAppState(opts.config);
  const publicRoute = { access: { kind: 'public' as const } };
  app.get(
    '/',
    {
      config: publicRoute,
      schema: { hide: true },
    },
    async (_req, reply) => {
      if (state.kind === 'built') return reply.sendFile('index.html');
      return reply.type('text/plain; charset=utf-8').send(explanation(state));
    },
  );

  app.get(
    '/assets/*',
    {
      config: publicRoute,
      schema: { hide: true },
    },
    async (req, reply) => {
      if (state.kind !== 'built') return reply.callNotFound();
      const path = (req.params as { '*': string })['*'];
      return reply.sendFile(join('assets', path));
    },
  );
}
