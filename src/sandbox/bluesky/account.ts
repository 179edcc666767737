// Bluesky identities: every handle ending in `.sandbox` exists, with a did:plc derived from the handle.
import type { AccountDraft } from '../core/accounts.ts';
import { ensureAccount } from '../core/accounts.ts';
import type { SandboxContext } from '../core/context.ts';
import { displayName, seededBase32 } from '../core/ids.ts';
import type { PlatformSlice } from '../core/store.ts';
import type { AccountRecord } from '../core/types.ts';

const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+sandbox$/;

export function normalizeHandle(raw: string): string {
  return raw.trim().replace(/^@/, '').toLowerCase();
}

export function isSandboxHandle(handle: string): boolean {
  return HANDLE.test(handle) && handle.length <= 253;
}

export function didForHandle(handle: string): string {
  return `did:plc:${seededBase32(`bluesky:${handle}`, 24)}`;
}

function build(handle: string, avatar: (id: string) => string): AccountDraft {
  const did = didForHandle(handle);
  const local = handle.slice(0, -'.sandbox'.length);
  return {
    id: did,
    username: handle,
    name: displayName(local.split('.')[0] ?? local),
    email: `${local.replace(/\./g, '-')}@sandbox.example`,
    avatarUrl: avatar(did),
    fields: {
      description: 'Skeeting from the Herald sandbox.',
      followersCount: 321,
      followsCount: 123,
      postsCount: 0,
      signingKey: `zQ3sh${seededBase32(`bluesky:${handle}:key`, 44)}`,
    },
    assets: [],
  };
}

/** The account of a `.sandbox` handle, created on first use. */
export function accountForHandle(
  ctx: SandboxContext,
  slice: PlatformSlice,
  handle: string,
  avatar: (id: string) => string,
): AccountRecord | null {
  const h = normalizeHandle(handle);
  if (!isSandboxHandle(h)) return null;
  return ensureAccount(ctx, slice, h, (key) => build(key, avatar));
}

/** Resolves a login identifier: handle, DID of a known account, or the email of a known account. */
export function accountForIdentifier(
  ctx: SandboxContext,
  slice: PlatformSlice,
  identifier: string,
  avatar: (id: string) => string,
): AccountRecord | null {
  const id = normalizeHandle(identifier);
  if (id.startsWith('did:')) return slice.accounts.get(id) ?? null;
  if (id.includes('@')) return [...slice.accounts.values()].find((a) => a.email === id) ?? null;
  return accountForHandle(ctx, slice, id, avatar);
}

export function didDocument(account: AccountRecord, serviceEndpoint: string) {
  return {
    '@context': [
      'https://www.w3.org/ns/did/v1',
      'https://w3id.org/security/multikey/v1',
      'https://w3id.org/security/suites/secp256k1-2019/v1',
    ],
    id: account.id,
    alsoKnownAs: [`at://${account.username}`],
    verificationMethod: [
      {
        id: `${account.id}#atproto`,
        type: 'Multikey',
        controller: account.id,
        publicKeyMultibase: String(account.fields.signingKey ?? ''),
      },
    ],
    service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint }],
  };
}
