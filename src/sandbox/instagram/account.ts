// An Instagram professional (business) account reached through Instagram Login: `id` is the app-scoped user id,
// `fields.user_id` the professional account id that publishing targets.
import type { AccountDraft } from '../core/accounts.ts';
import { displayName, seededDigits } from '../core/ids.ts';

export function buildInstagramAccount(userKey: string, avatar: (id: string) => string): AccountDraft {
  const seed = `instagram:${userKey}`;
  // 16 digits starting with 2 stays below 2^53, so the numeric user_id of the token response survives JSON.parse.
  const appScopedId = `2${seededDigits(seed, 15)}`;
  const proId = `17841${seededDigits(`${seed}:pro`, 12)}`;
  const name = displayName(userKey);
  const username = userKey.replace(/-/g, '_');
  return {
    id: appScopedId,
    username,
    name,
    email: `${userKey}@sandbox.example`,
    avatarUrl: avatar(proId),
    fields: {
      user_id: proId,
      account_type: 'BUSINESS',
      biography: `${name} on the Herald sandbox.`,
      website: `https://${userKey}.example`,
      followers_count: 1534,
      follows_count: 210,
      media_count: 37,
    },
    assets: [],
  };
}
