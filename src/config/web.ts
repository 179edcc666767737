// The web app's settings (docs/web.md): where its build is, or that it is turned off.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { optionalString } from './env.ts';

export const webEnvSchema = z.object({
  HERALD_WEB_DIR: optionalString,
});

export interface WebConfig {
  /** The built app's folder (its index.html and assets/); undefined: the app is turned off (HERALD_WEB_DIR=off). */
  dir: string | undefined;
}

/** The build `npm run build:web` writes: web/dist of this package, wherever the server is started from. */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

export function toWebConfig(e: z.infer<typeof webEnvSchema>): WebConfig {
  const dir = e.HERALD_WEB_DIR;
  if (dir === 'off') return { dir: undefined };
  return { dir: dir ? resolve(dir) : DEFAULT_WEB_DIR };
}

export type WebAppState = { kind: 'built'; dir: string } | { kind: 'missing'; dir: string } | { kind: 'off' };

/** Whether the app is on, and built. */
export function webAppState(config: { web: WebConfig }): WebAppState {
  const dir = config.web.dir;
  if (!dir) return { kind: 'off' };
  return existsSync(join(dir, 'index.html')) ? { kind: 'built', dir } : { kind: 'missing', dir };
}

/** The one line `serve` prints when the app cannot be served (undefined when it can, or is turned off). */
export function webAppStartupMessage(state: WebAppState): string | undefined {
  if (state.kind !== 'missing') return undefined;
  return `Web app not built (no ${join(state.dir, 'index.html')}): run \`npm run build:web\` to serve it at /; the API works without it.`;
}

/** The page links Herald writes in mail (password reset, invitations) point here; undefined with the app off. */
export function appPageUrl(
  config: { web: WebConfig; publicUrl: string },
  page: string,
  token: string,
): string | undefined {
  if (!config.web.dir) return undefined;
  return `${config.publicUrl}/${page}?token=${encodeURIComponent(token)}`;
}
