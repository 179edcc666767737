// TikTok's privacy levels, most public first: the order Herald picks from when the body sets none. Followers of the
// creator are more people than mutual followers (friends), who are a subset of them; a private account is offered
// FOLLOWER_OF_CREATOR, MUTUAL_FOLLOW_FRIENDS and SELF_ONLY, and gets the first.
export const TIKTOK_PRIVACY = [
  'PUBLIC_TO_EVERYONE',
  'FOLLOWER_OF_CREATOR',
  'MUTUAL_FOLLOW_FRIENDS',
  'SELF_ONLY',
] as const;
export type TikTokPrivacy = (typeof TIKTOK_PRIVACY)[number];
