// What the YouTube adapter derives from its deps once: Google's three hosts (the real ones unless config overrides a
// key, e.g. to point at the sandbox) and the OAuth client of the Google Cloud project.
import { resolveHosts } from '../hosts.ts';
import type { AdapterDeps } from '../types.ts';
import { PlatformError } from '../types.ts';

export const YOUTUBE_HOSTS = {
  /** The browser-facing consent page. */
  authBase: 'https://accounts.google.com',
  /** Token and revocation endpoints. */
  tokenBase: 'https://oauth2.googleapis.com',
  /** YouTube Data API v3, uploads included (under /upload/youtube/v3). */
  apiBase: 'https://www.googleapis.com',
  /** The public web site, where a post's permalink points (the sandbox serves its simulated posts' pages). */
  webBase: 'https://www.youtube.com',
} as const;

export interface YouTubeContext {
  deps: AdapterDeps;
  authBase: string;
  tokenBase: string;
  apiBase: string;
  webBase: string;
  configured: boolean;
  /**
   * When the project's daily quota is spent (a quotaExceeded answer), the time it resets (midnight Pacific): until
   * then uploads are refused here as rate-limited, without spending calls that YouTube would refuse anyway.
   */
  quotaSpentUntil: number;
  /**
   * The project's daily quota in units as the operator declares it (HERALD_YOUTUBE_DAILY_QUOTA, e.g. 10000), or null:
   * then Herald counts nothing and relies on YouTube's quotaExceeded. Declared, Herald counts the units its own
   * publishing spends in the Pacific day (per process) and refuses an upload the rest of the day does not cover
   * before calling YouTube.
   */
  dailyQuota: number | null;
  /** Units this process spent in the current Pacific day (`day` is its date there). */
  quotaUsed: { day: string; units: number };
}

export function youtubeContext(deps: AdapterDeps): YouTubeContext {
  const hosts = resolveHosts(YOUTUBE_HOSTS, deps.config.urls);
  return {
    deps,
    authBase: hosts.authBase,
    tokenBase: hosts.tokenBase,
    apiBase: hosts.apiBase,
    webBase: hosts.webBase,
    configured: Boolean(deps.config.clientId && deps.config.clientSecret),
    quotaSpentUntil: 0,
    dailyQuota: quotaSetting(deps.config.settings?.dailyQuota),
    quotaUsed: { day: '', units: 0 },
  };
}

function quotaSetting(raw: string | undefined): number | null {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : null;
}

export function appCredentials(ctx: YouTubeContext): { client_id: string; client_secret: string } {
  const { clientId, clientSecret } = ctx.deps.config;
  if (!clientId || !clientSecret) {
    throw new PlatformError(
      'youtube',
      'unsupported',
      'YouTube is not configured on this server (Google client id and secret are missing)',
    );
  }
  return { client_id: clientId, client_secret: clientSecret };
}

export function bearer(accessToken: string): Record<string, string> {
  return { authorization: `Bearer ${accessToken}` };
}
