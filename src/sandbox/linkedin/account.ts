// A LinkedIn member with two organizations they administer.
import type { AccountDraft } from '../core/accounts.ts';
import { displayName, seededAlnum, seededDigits } from '../core/ids.ts';

export function buildLinkedInAccount(userKey: string, avatar: (id: string) => string): AccountDraft {
  const seed = `linkedin:${userKey}`;
  const sub = seededAlnum(seed, 10);
  const name = displayName(userKey);
  const [given = 'Sandbox', family = 'User'] = name.split(' ');
  const vanity = userKey;
  const orgs = [
    { id: seededDigits(`${seed}:org:0`, 8), name: `${family} Consulting`, vanity: `${vanity}-consulting` },
    { id: seededDigits(`${seed}:org:1`, 8), name: `${given} ${family} Foundation`, vanity: `${vanity}-foundation` },
  ];
  return {
    id: sub,
    username: vanity,
    name,
    email: `${userKey}@sandbox.example`,
    avatarUrl: avatar(sub),
    fields: { given_name: given, family_name: family, headline: `${given} at ${orgs[0]?.name ?? 'Sandbox'}` },
    assets: orgs.map((o) => ({
      type: 'organization',
      id: o.id,
      name: o.name,
      fields: {
        vanityName: o.vanity,
        role: 'ADMINISTRATOR',
        state: 'APPROVED',
        logo: `urn:li:digitalmediaAsset:${seededAlnum(`${seed}:logo:${o.id}`, 14)}`,
        website: `https://${o.vanity}.example`,
      },
    })),
  };
}
