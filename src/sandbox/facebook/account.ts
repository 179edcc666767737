// A Facebook user managing two Pages; the first has an Instagram professional account linked.
import type { AccountDraft } from '../core/accounts.ts';
import { displayName, seededDigits } from '../core/ids.ts';

export const PAGE_TASKS = ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'];

export function buildFacebookAccount(userKey: string, avatar: (id: string) => string): AccountDraft {
  const seed = `facebook:${userKey}`;
  const id = seededDigits(seed, 17);
  const name = displayName(userKey);
  const [first = 'Sandbox', last = 'User'] = name.split(' ');
  const pages = [
    {
      id: seededDigits(`${seed}:page:0`, 15),
      name: `${last} Bakery`,
      category: 'Bakery',
      username: `${userKey}.bakery`,
    },
    {
      id: seededDigits(`${seed}:page:1`, 15),
      name: `${first} ${last} Studio`,
      category: 'Artist',
      username: `${userKey}.studio`,
    },
  ];
  const igId = `17841${seededDigits(`${seed}:ig`, 12)}`;
  const firstPage = pages[0];
  return {
    id,
    username: userKey,
    name,
    email: `${userKey}@sandbox.example`,
    avatarUrl: avatar(id),
    fields: { first_name: first, last_name: last },
    assets: [
      ...pages.map((p, i) => ({
        type: 'page',
        id: p.id,
        name: p.name,
        fields: {
          category: p.category,
          username: p.username,
          tasks: PAGE_TASKS,
          followers_count: 1200 + i * 345,
          fan_count: 1100 + i * 321,
          picture: avatar(p.id),
          ...(i === 0 ? { instagram_business_account: igId } : {}),
        },
      })),
      {
        type: 'instagram_business_account',
        id: igId,
        name: `${last} Bakery`,
        parentId: firstPage?.id ?? '',
        fields: {
          ig_id: Number(seededDigits(`${seed}:igid`, 10)),
          username: `${userKey.replace(/-/g, '_')}_bakery`,
          biography: 'Fresh bread every morning (sandbox).',
          followers_count: 2345,
          follows_count: 123,
          media_count: 42,
          profile_picture_url: avatar(igId),
          website: `https://${userKey}-bakery.example`,
        },
      },
    ],
  };
}
