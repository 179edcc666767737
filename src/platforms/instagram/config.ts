// Instagram API with Instagram Login: hosts, pinned Graph version and the scopes Herald asks for.
import { resolveHosts } from '../hosts.ts';
import type { AdapterDeps } from '../types.ts';

/** graph.instagram.com refuses unversioned resource paths; it follows the Graph release train (v26.0, 2026-07). */
export const INSTAGRAM_GRAPH_VERSION = 'v26.0';

export interface InstagramUrls {
  authBase: string;
  tokenBase: string;
  graphBase: string;
}

export const DEFAULT_URLS: Readonly<Record<keyof InstagramUrls, string>> = {
  authBase: 'https://www.instagram.com',
  tokenBase: 'https://api.instagram.com',
  graphBase: 'https://graph.instagram.com',
};

export function instagramUrls(deps: AdapterDeps): InstagramUrls {
  return resolveHosts(DEFAULT_URLS, deps.config.urls);
}

/**
 * Business Login for Instagram scopes (comma-separated); the pre-2025 `business_*` names no longer work.
 * - instagram_business_basic: profile and media reads; also required for refreshing the token;
 * - instagram_business_content_publish: media containers and media_publish;
 * - instagram_business_manage_comments: read, reply to, hide and delete comments;
 * - instagram_business_manage_insights: media and account insights.
 * instagram_business_manage_messages (DMs) is not asked for: Herald has no inbox.
 */
export const INSTAGRAM_SCOPES = [
  'instagram_business_basic',
  'instagram_business_content_publish',
  'instagram_business_manage_comments',
  'instagram_business_manage_insights',
] as const;
