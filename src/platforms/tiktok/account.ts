// The connected TikTok creator: GET /v2/user/info/. TikTok posts only to the creator's own profile, so there are
// no destinations; the profile slice uses the field names of contract-gaps §5.
import type { AccountIdentity, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { TikTokContext } from './context.ts';
import { readApi } from './errors.ts';

// Each tier of fields needs its own scope, and asking for a field whose scope was not granted fails the whole call
// (scope_permission_missed), so only the tiers the user granted are asked for.
const FIELD_TIERS: readonly { scope: string; fields: readonly string[] }[] = [
  { scope: 'user.info.basic', fields: ['open_id', 'union_id', 'avatar_url', 'display_name'] },
  { scope: 'user.info.profile', fields: ['bio_description', 'profile_deep_link', 'is_verified', 'username'] },
  { scope: 'user.info.stats', fields: ['follower_count', 'following_count', 'likes_count', 'video_count'] },
];

export function userInfoFields(scopes: readonly string[] | undefined): string[] {
  const granted = scopes && scopes.length > 0 ? new Set(scopes) : null;
  // Basic is what connecting needs at all; when the grant is unknown, ask for everything.
  return FIELD_TIERS.filter((t, i) => i === 0 || !granted || granted.has(t.scope)).flatMap((t) => t.fields);
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const flag = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

export async function fetchTikTokAccount(ctx: TikTokContext, tokens: TokenSet): Promise<AccountIdentity> {
  const res = await ctx.deps.http.request('tiktok', {
    url: `${ctx.apiBase}/v2/user/info/`,
    query: { fields: userInfoFields(tokens.scopes).join(',') },
    headers: bearer(tokens.accessToken),
  });
  const data = readApi(res, 'user info');
  const user = (data.user && typeof data.user === 'object' ? data.user : {}) as Record<string, unknown>;
  const id = text(user.open_id) ?? text(tokens.extra?.open_id);
  if (!id) {
    throw new PlatformError('tiktok', 'transient', 'TikTok user info came back without an open_id', {
      status: res.status,
    });
  }
  const displayName = text(user.display_name);
  const username = text(user.username);
  const avatar = text(user.avatar_url);
  return {
    id,
    name: displayName ?? username ?? id,
    username,
    avatarUrl: avatar,
    destinations: [],
    slice: {
      profile: {
        display_name: displayName,
        username,
        bio_description: text(user.bio_description),
        is_verified: flag(user.is_verified),
        followers_count: count(user.follower_count),
        following_count: count(user.following_count),
        total_likes: count(user.likes_count),
        videos_count: count(user.video_count),
        profile_deep_link: text(user.profile_deep_link),
        avatar_url: avatar,
      },
    },
  };
}
