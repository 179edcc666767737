// A key's scope string, parsed once into an allowlist that every route checks the same way.
import { AppError } from '../errors.ts';

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
  linkedin: 'LinkedIn', instagram: 'Instagram', facebook: 'Facebook', threads: 'Threads',
  tiktok: 'TikTok', youtube: 'YouTube', pinterest: 'Pinterest', bluesky: 'Bluesky',
};

export const isPlatform = (value: string): value is Platform => (PLATFORMS as readonly string[]).includes(value);

export interface Scope {
  raw: string;
  platforms: ReadonlySet<Platform>;
  /** `linkedin_posts`: may only read posts. */
  readOnlyPosts: boolean;
}

export const FULL_SCOPE: Scope = { raw: 'full', platforms: new Set(PLATFORMS), readOnlyPosts: false };

export class ScopeSyntaxError extends Error {}

export function parseScope(raw: string | null | undefined): Scope {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'full') return { ...FULL_SCOPE, raw: value === '' ? '' : 'full' };
  if (value === 'linkedin_only') return { raw: value, platforms: new Set(['linkedin']), readOnlyPosts: false };
  if (value === 'linkedin_posts') return { raw: value, platforms: new Set(['linkedin']), readOnlyPosts: true };
  const parts = value.split(',').map((p) => p.trim());
  // An empty entry (" , , ", "linkedin,") is a mistake, never "no restriction": only '' and 'full' mean full access.
  if (parts.some((p) => p === '')) {
    throw new ScopeSyntaxError(`The scope has an empty entry. Use linkedin_only, linkedin_posts, full, or a comma list of: ${PLATFORMS.join(', ')}`);
  }
  const unknown = parts.filter((p) => !isPlatform(p));
  if (unknown.length) {
    throw new ScopeSyntaxError(
      `Unknown platform(s) in scope: ${unknown.join(', ')}. Use linkedin_only, linkedin_posts, full, or a comma list of: ${PLATFORMS.join(', ')}`,
    );
  }
  return { raw: parts.join(','), platforms: new Set(parts as Platform[]), readOnlyPosts: false };
}

/** What a route declares about itself so the shared mechanism can enforce scopes. */
export interface RouteAccess {
  /** True only for GET /unified/posts, the one route a `linkedin_posts` key may call. */
  postsRead?: boolean;
}

export function assertRouteAllowed(scope: Scope, access: RouteAccess): void {
  if (scope.readOnlyPosts && !access.postsRead) {
    throw new AppError(
      'scope_denied',
      `This API key is read-only (scope: ${scope.raw}) and may only call GET /unified/posts.`,
    );
  }
}

export function assertPlatformsAllowed(scope: Scope, platforms: Iterable<string>): void {
  for (const p of platforms) {
    if (!isPlatform(p) || !scope.platforms.has(p)) {
      throw new AppError(
        'scope_denied',
        `This API key is not allowed for platform '${p}'. Key scope: ${scope.raw || 'full'}. Only platforms in the key's scope can be used.`,
      );
    }
  }
}
