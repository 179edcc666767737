// A Google account owning one YouTube channel with one playlist (plus the channel's "uploads" playlist).
import type { AccountDraft } from '../core/accounts.ts';
import { displayName, seededDigits, seededUrlSafe } from '../core/ids.ts';

export function buildYouTubeAccount(userKey: string, avatar: (id: string) => string, createdAt: string): AccountDraft {
  const seed = `youtube:${userKey}`;
  const sub = `1${seededDigits(`${seed}:sub`, 20)}`;
  const channelKey = `${seededUrlSafe(`${seed}:channel`, 21)}A`;
  const channelId = `UC${channelKey}`;
  const name = displayName(userKey);
  const [given = 'Sandbox', family = 'User'] = name.split(' ');
  return {
    id: sub,
    username: userKey,
    name,
    email: `${userKey}@sandbox.example`,
    avatarUrl: avatar(sub),
    fields: { given_name: given, family_name: family },
    assets: [
      {
        type: 'channel',
        id: channelId,
        name: `${name} Videos`,
        fields: {
          customUrl: `@${userKey.replace(/-/g, '')}`,
          description: `The ${name} channel on the Herald sandbox.`,
          publishedAt: createdAt,
          uploads: `UU${channelKey}`,
          thumbnail: avatar(channelId),
          viewCount: '48213',
          subscriberCount: '1290',
          videoCount: '37',
        },
      },
      {
        type: 'playlist',
        id: `PL${seededUrlSafe(`${seed}:playlist`, 32)}`,
        name: 'Sandbox Favourites',
        parentId: channelId,
        fields: {
          description: 'A playlist created by the sandbox.',
          itemCount: 0,
          privacyStatus: 'public',
          publishedAt: createdAt,
        },
      },
    ],
  };
}
