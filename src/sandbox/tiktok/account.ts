// A TikTok creator as Login Kit exposes it.
import type { AccountDraft } from '../core/accounts.ts';
import { displayName, seededAlnum, seededUuid } from '../core/ids.ts';

export function buildTikTokAccount(userKey: string, avatar: (id: string) => string): AccountDraft {
  const seed = `tiktok:${userKey}`;
  const openId = seededUuid(`${seed}:open`);
  const username = userKey.replace(/-/g, '.');
  return {
    id: openId,
    username,
    name: displayName(userKey),
    email: `${userKey}@sandbox.example`,
    avatarUrl: avatar(openId),
    fields: {
      union_id: seededUuid(`${seed}:union`),
      bio_description: 'Short videos from the Herald sandbox.',
      profile_deep_link: `https://vm.tiktok.com/ZM${seededAlnum(`${seed}:link`, 7)}/`,
      is_verified: false,
      follower_count: 4821,
      following_count: 97,
      likes_count: 30412,
      video_count: 58,
    },
    assets: [],
  };
}
