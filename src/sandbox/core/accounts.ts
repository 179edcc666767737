// Sandbox users and their per-network accounts. An account is created the first time its user authorizes (or, on
// Bluesky, first logs in) and is stable afterwards, ids included, because they derive from the user key.
import type { SandboxContext } from './context.ts';
import type { PlatformSlice } from './store.ts';
import type { AccountRecord, AssetRecord } from './types.ts';

export const DEFAULT_USER = 'sandbox-user';

export type AccountDraft = Omit<AccountRecord, 'userKey' | 'createdAt'>;

/** Lower-case letters, digits and dashes only, so the key can be embedded in handles, names and seeds. */
export function normalizeUserKey(raw: string | undefined): string {
  const key = (raw ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return key || DEFAULT_USER;
}

export function ensureAccount(
  ctx: SandboxContext,
  slice: PlatformSlice,
  userKey: string,
  build: (userKey: string) => AccountDraft,
): AccountRecord {
  for (const account of slice.accounts.values()) if (account.userKey === userKey) return account;
  const account: AccountRecord = { ...build(userKey), userKey, createdAt: ctx.now().toISOString() };
  slice.accounts.set(account.id, account);
  return account;
}

export function assetsOf(account: AccountRecord, type: string): AssetRecord[] {
  return account.assets.filter((a) => a.type === type);
}

export function findAsset(slice: PlatformSlice, id: string): { account: AccountRecord; asset: AssetRecord } | null {
  for (const account of slice.accounts.values()) {
    const asset = account.assets.find((a) => a.id === id);
    if (asset) return { account, asset };
  }
  return null;
}

export function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}
