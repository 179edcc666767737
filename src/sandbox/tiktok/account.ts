// A TikTok creator as Login Kit exposes it.
import type { AccountDraft } from '../core/accounts.ts';
import { displayName, seededAlnum, seededUuid } from '../core/ids.ts';

/**
 * creator_info's privacy_level_options by user key, so a test can connect a creator TikTok narrows: a key with
 * `unaudited` is a creator of an app TikTok has not audited (SELF_ONLY only), `private` a private account (no
 * PUBLIC_TO_EVERYONE), `friends-only` one that shares with friends at most. Any other key gets all four levels.
 */
export function privacyLevelOptions(userKey: string): string[] | undefined {
  if (userKey.includes('unaudited')) return ['SELF_ONLY'];
  if (userKey.includes('private')) return ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
  if (userKey.includes('friends-only')) return ['MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
  return undefined;
}

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
      ...(privacyLevelOptions(userKey) ? { privacy_level_options: privacyLevelOptions(userKey)! } : {}),
      // A private account (strict tiktok_privacy_options offers it TikTok's private-account levels).
      ...(userKey.includes('private') ? { private_account: true } : {}),
    },
    assets: [],
  };
}
