// A Threads profile (one per token; no pages concept).
import type { AccountDraft } from '../core/accounts.ts';
import { displayName, seededDigits } from '../core/ids.ts';

export function buildThreadsAccount(userKey: string, avatar: (id: string) => string): AccountDraft {
  // 16 digits starting with 3 stays below 2^53: the token response carries user_id as a JSON number.
  const id = `3${seededDigits(`threads:${userKey}`, 15)}`;
  const name = displayName(userKey);
  return {
    id,
    username: userKey.replace(/-/g, '_'),
    name,
    email: `${userKey}@sandbox.example`,
    avatarUrl: avatar(id),
    fields: { threads_biography: `${name} posting from the Herald sandbox.`, is_verified: false },
    assets: [],
  };
}
