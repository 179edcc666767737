import { describe, expect, it } from 'vitest';
import { assertPlatformsAllowed, assertRouteAllowed, parseScope, PLATFORMS } from '../../src/auth/scopes.ts';
import { AppError } from '../../src/errors.ts';

describe('scope parsing', () => {
  it('maps the interface scopes to allowlists', () => {
    expect([...parseScope('linkedin_only').platforms]).toEqual(['linkedin']);
    expect(parseScope('linkedin_posts')).toMatchObject({ readOnlyPosts: true });
    expect([...parseScope('full').platforms]).toEqual([...PLATFORMS]);
    expect([...parseScope('').platforms]).toEqual([...PLATFORMS]);
    expect([...parseScope(' LinkedIn , instagram ').platforms]).toEqual(['linkedin', 'instagram']);
    expect(() => parseScope('linkedin,twitter')).toThrow(/twitter/);
  });

  it('refuses a platform outside the scope with a message naming platform and scope', () => {
    const scope = parseScope('linkedin,instagram');
    expect(() => assertPlatformsAllowed(scope, ['instagram'])).not.toThrow();
    try {
      assertPlatformsAllowed(scope, ['linkedin', 'facebook']);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(403);
      expect((err as AppError).detail).toBe(
        "This API key is not allowed for platform 'facebook'. Key scope: linkedin,instagram. Only platforms in the key's scope can be used.",
      );
    }
  });

  it('lets a linkedin_posts key call only the posts read route', () => {
    const scope = parseScope('linkedin_posts');
    expect(() => assertRouteAllowed(scope, { postsRead: true })).not.toThrow();
    expect(() => assertRouteAllowed(scope, {})).toThrow(AppError);
    expect(() => assertRouteAllowed(parseScope('linkedin_only'), {})).not.toThrow();
  });
});
