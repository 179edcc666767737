// LinkedIn's hosts, pinned API version and the scopes Herald asks for.
import { resolveHosts } from '../hosts.ts';
import type { AdapterDeps } from '../types.ts';

/**
 * The `LinkedIn-Version` of every /rest call. Each monthly release is served for at least a year, after which calls
 * fail with 426 NONEXISTENT_VERSION; move this forward at least yearly.
 */
export const LINKEDIN_VERSION = '202609';

export interface LinkedInUrls {
  authBase: string;
  apiBase: string;
  /** The public web site, where a post's permalink points (the sandbox serves its simulated posts' pages). */
  webBase: string;
}

export const DEFAULT_URLS: Readonly<Record<keyof LinkedInUrls, string>> = {
  authBase: 'https://www.linkedin.com',
  apiBase: 'https://api.linkedin.com',
  webBase: 'https://www.linkedin.com',
};

export function linkedinUrls(deps: AdapterDeps): LinkedInUrls {
  return resolveHosts(DEFAULT_URLS, deps.config.urls);
}

/**
 * Space-separated in the authorize URL. Needs the "Sign In with LinkedIn using OpenID Connect" and "Community
 * Management API" products on the app; asking for a scope the app lacks fails the whole consent.
 * - openid, profile: /v2/userinfo (member id `sub`, name, picture);
 * - r_basicprofile: /v2/me for the vanity name (public profile URL);
 * - w_member_social: post, comment and react as the member;
 * - w_organization_social: post, comment and react as an organization the member administers;
 * - r_organization_social: read organization posts, comments and reactions;
 * - rw_organization_admin: organization ACLs and lookups, page/share/follower statistics;
 * - r_member_postAnalytics: the member's own post statistics.
 * r_member_social (reading a member's posts and comments) is closed to new apps, so it is not asked for.
 */
export const LINKEDIN_SCOPES = [
  'openid',
  'profile',
  'r_basicprofile',
  'w_member_social',
  'w_organization_social',
  'r_organization_social',
  'rw_organization_admin',
  'r_member_postAnalytics',
] as const;

/**
 * The scopes this install asks for: HERALD_LINKEDIN_SCOPES (space- or comma-separated) when set, since an app
 * without the Community Management API product fails consent on the organization scopes; else LINKEDIN_SCOPES.
 */
export function linkedinScopes(deps: AdapterDeps): string[] {
  const configured = deps.config.scopes;
  return configured?.length ? [...configured] : [...LINKEDIN_SCOPES];
}

/** Headers every versioned /rest call needs. */
export function restHeaders(token: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'linkedin-version': LINKEDIN_VERSION,
    'x-restli-protocol-version': '2.0.0',
  };
}
