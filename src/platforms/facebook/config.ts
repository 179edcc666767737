// Facebook's hosts, pinned Graph version and the permissions Herald asks for.
import { resolveHosts } from '../hosts.ts';
import type { AdapterDeps } from '../types.ts';

/** v26.0 is the newest release (2026-07); pinning the newest buys the longest support window (two years). */
export const FACEBOOK_GRAPH_VERSION = 'v26.0';

export interface FacebookUrls {
  authBase: string;
  graphBase: string;
  graphVideoBase: string;
  ruploadBase: string;
  /** The public web site, where a post's permalink points (the sandbox serves its simulated posts' pages). */
  webBase: string;
}

export const DEFAULT_URLS: Readonly<Record<keyof FacebookUrls, string>> = {
  authBase: 'https://www.facebook.com',
  graphBase: 'https://graph.facebook.com',
  graphVideoBase: 'https://graph-video.facebook.com',
  ruploadBase: 'https://rupload.facebook.com',
  webBase: 'https://www.facebook.com',
};

export function facebookUrls(deps: AdapterDeps): FacebookUrls {
  return resolveHosts(DEFAULT_URLS, deps.config.urls);
}

/**
 * Facebook Login permissions (comma-separated in the dialog):
 * - pages_show_list: list the Pages the user manages (/me/accounts) and get their Page tokens;
 * - pages_manage_posts: create, edit and delete Page posts, photos, videos and reels;
 * - publish_video: video publishing to Pages (named in the Pages posts guide);
 * - pages_read_engagement: read Page posts, metadata and engagement counts;
 * - pages_read_user_content: read visitors' comments on Page posts;
 * - pages_manage_engagement: reply to, hide and delete comments as the Page;
 * - read_insights: Page and post insights.
 * Instagram is connected through its own login (see ../instagram), so no instagram_* permission is asked here;
 * business_management is left out until Herald lists Business-Manager-only Pages.
 */
export const FACEBOOK_SCOPES = [
  'pages_show_list',
  'pages_manage_posts',
  'publish_video',
  'pages_read_engagement',
  'pages_read_user_content',
  'pages_manage_engagement',
  'read_insights',
] as const;

/** Key of a Page access token in TokenSet.extra. */
export const pageTokenKey = (pageId: string): string => `page_token:${pageId}`;
