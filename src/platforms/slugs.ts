// The built-in networks' slugs and names, at the bottom of the stack so that auth, config and the
// registry share one list. At run time the registry (registry.ts) is the authority: it may hold more.
export const PLATFORMS = [
  'linkedin',
  'instagram',
  'facebook',
  'threads',
  'tiktok',
  'youtube',
  'pinterest',
  'bluesky',
] as const;
export type Platform = (typeof PLATFORMS)[number];

/** How each network writes its own name, for messages. */
export const PLATFORM_NAMES: Record<Platform, string> = {
  linkedin: 'LinkedIn',
  instagram: 'Instagram',
  facebook: 'Facebook',
  threads: 'Threads',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  pinterest: 'Pinterest',
  bluesky: 'Bluesky',
};

/** Named scopes of API keys (older keys): a fixed set of networks, possibly read-only. */
export const SCOPE_ALIASES: Readonly<Record<string, { platforms: readonly Platform[]; readOnlyPosts: boolean }>> = {
  linkedin_only: { platforms: ['linkedin'], readOnlyPosts: false },
  linkedin_posts: { platforms: ['linkedin'], readOnlyPosts: true },
};
