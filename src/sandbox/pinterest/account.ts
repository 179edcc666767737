// A Pinterest business account with two public boards.
import type { AccountDraft } from '../core/accounts.ts';
import { displayName, seededDigits } from '../core/ids.ts';

export function buildPinterestAccount(
  userKey: string,
  avatar: (id: string) => string,
  createdAt: string,
): AccountDraft {
  const seed = `pinterest:${userKey}`;
  const id = seededDigits(seed, 18);
  const name = displayName(userKey);
  const username = userKey.replace(/-/g, '');
  const boards = [
    { name: 'Recipes', description: 'Things worth baking.' },
    { name: 'Studio Ideas', description: 'Inspiration for the studio.' },
  ];
  return {
    id,
    username,
    name,
    email: `${userKey}@sandbox.example`,
    avatarUrl: avatar(id),
    fields: {
      account_type: 'BUSINESS',
      business_name: `${name} Co.`,
      about: 'Pinning from the Herald sandbox.',
      website_url: `https://${userKey}.example`,
      follower_count: 812,
      following_count: 64,
      pin_count: 0,
      monthly_views: 10450,
    },
    assets: boards.map((b, i) => ({
      type: 'board',
      id: seededDigits(`${seed}:board:${i}`, 18),
      name: b.name,
      fields: {
        description: b.description,
        privacy: 'PUBLIC',
        created_at: createdAt,
        follower_count: 10 + i,
        pin_count: 0,
      },
    })),
  };
}
