// A key's scope string, parsed once into an allowlist that every route checks the same way.
import { AppError } from '../errors.ts';
import { PLATFORMS, SCOPE_ALIASES, type Platform } from '../platforms/slugs.ts';

export { PLATFORMS, type Platform } from '../platforms/slugs.ts';

export interface Scope {
  raw: string;
  platforms: ReadonlySet<Platform>;
  /** Every network of the registry (an empty or `full` scope, or a list naming them all). */
  full: boolean;
  /** `linkedin_posts`: may only read posts. */
  readOnlyPosts: boolean;
}

/** Every network of the registry (`slugs`; the built-in ones by default). */
export const fullScope = (slugs: readonly string[] = PLATFORMS): Scope => ({
  raw: 'full',
  platforms: new Set(slugs as readonly Platform[]),
  full: true,
  readOnlyPosts: false,
});

export const FULL_SCOPE: Scope = fullScope();

export class ScopeSyntaxError extends Error {}

/** `slugs`: the networks the registry knows (a scope may name only those). */
export function parseScope(raw: string | null | undefined, slugs: readonly string[] = PLATFORMS): Scope {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'full') return { ...fullScope(slugs), raw: value === '' ? '' : 'full' };
  const alias = Object.hasOwn(SCOPE_ALIASES, value) ? SCOPE_ALIASES[value] : undefined;
  if (alias)
    return {
      raw: value,
      platforms: new Set(alias.platforms),
      full: slugs.every((s) => alias.platforms.includes(s as Platform)),
      readOnlyPosts: alias.readOnlyPosts,
    };
  const named = [...Object.keys(SCOPE_ALIASES), 'full'].join(', ');
  const parts = value.split(',').map((p) => p.trim());
  // An empty entry (" , , ", "linkedin,") is a mistake, never "no restriction": only '' and 'full' mean full access.
  if (parts.some((p) => p === '')) {
    throw new ScopeSyntaxError(`The scope has an empty entry. Use ${named}, or a comma list of: ${slugs.join(', ')}`);
  }
  const unknown = parts.filter((p) => !slugs.includes(p));
  if (unknown.length) {
    throw new ScopeSyntaxError(
      `Unknown platform(s) in scope: ${unknown.join(', ')}. Use ${named}, or a comma list of: ${slugs.join(', ')}`,
    );
  }
  return {
    raw: parts.join(','),
    platforms: new Set(parts as Platform[]),
    full: slugs.every((s) => parts.includes(s)),
    readOnlyPosts: false,
  };
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
    // Unknown slugs are in no scope's set, so they are refused here too.
    if (!scope.platforms.has(p as Platform)) {
      throw new AppError(
        'scope_denied',
        `This API key is not allowed for platform '${p}'. Key scope: ${scope.raw || 'full'}. Only platforms in the key's scope can be used.`,
      );
    }
  }
}
