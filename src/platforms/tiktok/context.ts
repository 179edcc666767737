// What the TikTok adapter derives from its deps once: the hosts (the real ones unless config overrides a key, e.g. to
// point at the sandbox) and the app credentials, which TikTok calls client_key / client_secret.
import { resolveHosts } from '../hosts.ts';
import type { AdapterDeps } from '../types.ts';
import { PlatformError } from '../types.ts';

export const TIKTOK_HOSTS = {
  /** Login Kit's browser-facing authorize page. */
  authBase: 'https://www.tiktok.com',
  /** OAuth token/revoke endpoints and the v2 API. */
  apiBase: 'https://open.tiktokapis.com',
  /** The public web site, where a post's permalink points (the sandbox serves its simulated posts' pages). */
  webBase: 'https://www.tiktok.com',
} as const;

export interface TikTokContext {
  deps: AdapterDeps;
  authBase: string;
  apiBase: string;
  webBase: string;
  configured: boolean;
  /**
   * Whether TikTok has audited this app (HERALD_TIKTOK_AUDITED). An unaudited app's posts are private whatever it
   * asks, so Herald asks SELF_ONLY and says so; unset counts as not audited, the safe reading.
   */
  audited: boolean;
  /**
   * Whether the operator verified the domain of Herald's media URLs for this app in TikTok's developer portal
   * (HERALD_TIKTOK_MEDIA_DOMAIN_VERIFIED). TikTok pulls photo posts (and videos sent with PULL_FROM_URL) from those
   * URLs and refuses unverified ones, so without it Herald refuses them itself, before any call.
   */
  mediaDomainVerified: boolean;
  /**
   * When this process called status/fetch with each access token in the last minute (deps.clock ms): TikTok allows
   * 30 a minute per token, shared by every post of that creator that is being polled (see status.ts statusPace).
   */
  statusCalls: Map<string, number[]>;
}

export function tiktokContext(deps: AdapterDeps): TikTokContext {
  const hosts = resolveHosts(TIKTOK_HOSTS, deps.config.urls);
  return {
    deps,
    authBase: hosts.authBase,
    apiBase: hosts.apiBase,
    webBase: hosts.webBase,
    configured: Boolean(deps.config.clientId && deps.config.clientSecret),
    audited: /^(1|true|yes|on)$/i.test(deps.config.settings?.audited ?? ''),
    mediaDomainVerified: /^(1|true|yes|on)$/i.test(deps.config.settings?.mediaDomainVerified ?? ''),
    statusCalls: new Map(),
  };
}

export function appCredentials(ctx: TikTokContext): { client_key: string; client_secret: string } {
  const { clientId, clientSecret } = ctx.deps.config;
  if (!clientId || !clientSecret) {
    throw new PlatformError(
      'tiktok',
      'unsupported',
      'TikTok is not configured on this server (client key and secret are missing)',
    );
  }
  return { client_key: clientId, client_secret: clientSecret };
}

export function bearer(accessToken: string): Record<string, string> {
  return { authorization: `Bearer ${accessToken}` };
}
