// TikTok's privacy levels, most public first: the order Herald picks from when the body sets none.
export const TIKTOK_PRIVACY = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;
export type TikTokPrivacy = (typeof TIKTOK_PRIVACY)[number];
