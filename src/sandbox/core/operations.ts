// The catalogue of fault-injectable operations. Routes name the operations they belong to when they are registered;
// a later publishing route only has to name `publish`, `upload` or `status` to become targetable by `_faults`.
import type { SandboxContext } from './context.ts';
import type { Platform } from './types.ts';

export const OPERATION_DESCRIPTIONS: Record<string, string> = {
  authorize: 'the browser-facing authorize / consent endpoint',
  token:
    'the token endpoint: code exchange, refresh and long-lived token exchanges (Bluesky: createSession, refreshSession)',
  refresh: 'refresh / token-extension calls only',
  revoke: 'token revocation (Bluesky: deleteSession)',
  profile: 'identity and profile reads',
  pages: 'listing of pages, organizations, boards, channels and playlists',
  resolve: 'Bluesky handle and DID resolution',
  publish: 'creating posts (publishing simulators)',
  upload: 'media uploads (publishing simulators)',
  status: 'publish / upload status polling, reconciliation reads and reads of posts and their metrics',
  delete: 'deleting posts (publishing simulators)',
  comments: 'reads of comments and replies on a post',
  reply: 'creating a reply to a comment',
};

export function declareOperations(ctx: SandboxContext, platform: Platform, ops: readonly string[]): void {
  let set = ctx.operations.get(platform);
  if (!set) {
    set = new Set();
    ctx.operations.set(platform, set);
  }
  for (const op of ops) {
    if (!(op in OPERATION_DESCRIPTIONS))
      throw new Error(`sandbox: undeclared operation "${op}" (add it to OPERATION_DESCRIPTIONS)`);
    set.add(op);
  }
}

export function operationsOf(ctx: SandboxContext, platform: Platform): string[] {
  return [...(ctx.operations.get(platform) ?? [])].sort();
}

/** Operations whose calls present no credential, so expire_token / revoke faults cannot apply to them. */
export const CREDENTIAL_FREE_OPERATIONS: ReadonlySet<string> = new Set(['authorize', 'resolve']);
