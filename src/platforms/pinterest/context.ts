// What the Pinterest adapter derives from its deps once: the hosts (the real ones unless config overrides a key, e.g.
// to point at the sandbox or Pinterest's own api-sandbox host) and the app id and secret.
import { resolveHosts } from '../hosts.ts';
import type { AdapterDeps } from '../types.ts';
import { PlatformError } from '../types.ts';

export const PINTEREST_HOSTS = {
  /** The browser-facing consent page. */
  authBase: 'https://www.pinterest.com',
  /** API v5, token endpoint included (/v5/oauth/token). */
  apiBase: 'https://api.pinterest.com',
  /** The public web site, where a post's permalink points (the sandbox serves its simulated posts' pages). */
  webBase: 'https://www.pinterest.com',
} as const;

export interface PinterestContext {
  deps: AdapterDeps;
  authBase: string;
  apiBase: string;
  webBase: string;
  configured: boolean;
}

export function pinterestContext(deps: AdapterDeps): PinterestContext {
  const hosts = resolveHosts(PINTEREST_HOSTS, deps.config.urls);
  return {
    deps,
    authBase: hosts.authBase,
    apiBase: hosts.apiBase,
    webBase: hosts.webBase,
    configured: Boolean(deps.config.clientId && deps.config.clientSecret),
  };
}

function credentials(ctx: PinterestContext): { clientId: string; clientSecret: string } {
  const { clientId, clientSecret } = ctx.deps.config;
  if (!clientId || !clientSecret) {
    throw new PlatformError(
      'pinterest',
      'unsupported',
      'Pinterest is not configured on this server (app id and secret are missing)',
    );
  }
  return { clientId, clientSecret };
}

export function clientId(ctx: PinterestContext): string {
  return credentials(ctx).clientId;
}

/** The token endpoint authenticates the app with HTTP Basic only; credentials in the form are not accepted. */
export function basicAuth(ctx: PinterestContext): Record<string, string> {
  const { clientId: id, clientSecret } = credentials(ctx);
  return { authorization: `Basic ${Buffer.from(`${id}:${clientSecret}`).toString('base64')}` };
}

export function bearer(accessToken: string): Record<string, string> {
  return { authorization: `Bearer ${accessToken}` };
}
