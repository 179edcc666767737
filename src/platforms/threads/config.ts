// Threads API: hosts, pinned version and the scopes Herald asks for.
import { resolveHosts } from '../hosts.ts';
import type { AdapterDeps } from '../types.ts';

/** Threads has had one API version since launch; resource paths carry it, the token endpoints do not. */
export const THREADS_API_VERSION = 'v1.0';

export interface ThreadsUrls {
  authBase: string;
  graphBase: string;
  /** The public web site, where a post's permalink points (the sandbox serves its simulated posts' pages). */
  webBase: string;
}

export const DEFAULT_URLS: Readonly<Record<keyof ThreadsUrls, string>> = {
  authBase: 'https://threads.net',
  graphBase: 'https://graph.threads.net',
  webBase: 'https://www.threads.net',
};

export function threadsUrls(deps: AdapterDeps): ThreadsUrls {
  return resolveHosts(DEFAULT_URLS, deps.config.urls);
}

/**
 * Comma-separated in the authorize URL:
 * - threads_basic: every call, profile reads, token refresh;
 * - threads_content_publish: containers and threads_publish;
 * - threads_read_replies: read replies and conversations (comments);
 * - threads_manage_replies: reply management (hide, reply_control) and the reply quota;
 * - threads_manage_insights: post and account insights, including the follower count;
 * - threads_delete: delete published posts.
 */
export const THREADS_SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_read_replies',
  'threads_manage_replies',
  'threads_manage_insights',
  'threads_delete',
] as const;
