// Grants, authorization codes and tokens: issuing, checking and revoking, with the armed expire/revoke faults applied
// to whichever credential the call presents first.
import type { Call } from './route.ts';
import type { SandboxContext } from './context.ts';
import { randomId } from './ids.ts';
import { verifierMatches } from './pkce.ts';
import type { PlatformSlice } from './store.ts';
import type { CodeRecord, GrantRecord, PendingAuthorization, TokenRecord } from './types.ts';

export type TokenProblem = 'missing' | 'invalid' | 'expired' | 'revoked';
export type TokenCheck = { ok: true; token: TokenRecord } | { ok: false; problem: TokenProblem; token?: TokenRecord };

export function createGrant(
  ctx: SandboxContext,
  slice: PlatformSlice,
  input: { clientId: string; accountId: string; scopes: string[] },
): GrantRecord {
  const grant: GrantRecord = {
    id: randomId(),
    ...input,
    createdAt: ctx.nowMs(),
    revokedAt: null,
    refreshIssued: false,
  };
  slice.grants.set(grant.id, grant);
  return grant;
}

export function revokeGrant(ctx: SandboxContext, slice: PlatformSlice, grantId: string): void {
  const grant = slice.grants.get(grantId);
  if (grant && grant.revokedAt === null) grant.revokedAt = ctx.nowMs();
}

export function revokeToken(ctx: SandboxContext, token: TokenRecord): void {
  if (token.revokedAt === null) token.revokedAt = ctx.nowMs();
}

export function isGrantRevoked(slice: PlatformSlice, grantId: string): boolean {
  return (slice.grants.get(grantId)?.revokedAt ?? null) !== null;
}

export interface MintInput {
  token: string;
  kind: string;
  clientId: string | null;
  accountId: string;
  grantId: string;
  scopes: string[];
  /** Seconds; null = never expires. */
  ttlSec: number | null;
  assetId?: string | null;
  /** Overrides the expiry computed from ttlSec (e.g. a page token that dies with its user token). */
  expiresAt?: number | null;
}

export function mintToken(ctx: SandboxContext, slice: PlatformSlice, input: MintInput): TokenRecord {
  const issuedAt = ctx.nowMs();
  const record: TokenRecord = {
    token: input.token,
    kind: input.kind,
    clientId: input.clientId,
    accountId: input.accountId,
    grantId: input.grantId,
    scopes: input.scopes,
    issuedAt,
    expiresAt:
      input.expiresAt !== undefined ? input.expiresAt : input.ttlSec === null ? null : issuedAt + input.ttlSec * 1000,
    revokedAt: null,
    rotatedAt: null,
    replacedBy: null,
    assetId: input.assetId ?? null,
  };
  slice.tokens.set(record.token, record);
  return record;
}

/** Applies the call's armed expire_token / revoke fault to this credential (once per call). */
function applyEffect(call: Call, grantId: string, expire: () => void): void {
  if (call.effect === 'expire_token') expire();
  if (call.effect === 'revoke') revokeGrant(call.ctx, call.slice, grantId);
  call.effect = null;
}

/** Checks a presented token. `kinds` restricts which token kinds this endpoint accepts. */
export function checkToken(call: Call, raw: string | undefined, kinds: readonly string[]): TokenCheck {
  if (!raw) return { ok: false, problem: 'missing' };
  const token = call.slice.tokens.get(raw);
  if (!token || !kinds.includes(token.kind)) return { ok: false, problem: 'invalid' };
  applyEffect(call, token.grantId, () => {
    token.expiresAt = call.ctx.nowMs();
  });
  if (token.revokedAt !== null || isGrantRevoked(call.slice, token.grantId))
    return { ok: false, problem: 'revoked', token };
  if (token.expiresAt !== null && token.expiresAt <= call.ctx.nowMs()) return { ok: false, problem: 'expired', token };
  return { ok: true, token };
}

export function expiresInSec(ctx: SandboxContext, token: TokenRecord): number {
  return token.expiresAt === null ? 0 : Math.max(0, Math.round((token.expiresAt - ctx.nowMs()) / 1000));
}

export function issueCode(
  ctx: SandboxContext,
  slice: PlatformSlice,
  pending: PendingAuthorization,
  input: { code: string; accountId: string; grantId: string; ttlSec: number },
): CodeRecord {
  const issuedAt = ctx.nowMs();
  const record: CodeRecord = {
    code: input.code,
    clientId: pending.clientId,
    redirectUri: pending.redirectUri,
    scopes: pending.scopes,
    accountId: input.accountId,
    grantId: input.grantId,
    codeChallenge: pending.codeChallenge,
    codeChallengeMethod: pending.codeChallengeMethod,
    extras: pending.extras,
    issuedAt,
    expiresAt: issuedAt + input.ttlSec * 1000,
    usedAt: null,
  };
  slice.codes.set(record.code, record);
  return record;
}

export type CodeProblem =
  | 'missing'
  | 'unknown'
  | 'used'
  | 'expired'
  | 'revoked'
  | 'client_mismatch'
  | 'redirect_mismatch'
  | 'verifier_missing'
  | 'verifier_mismatch';

/**
 * Redeems a code. Checks run in the order real servers report them; only a fully valid exchange consumes the code.
 * `redirectUri: undefined` skips the redirect check for networks that do not send it on exchange.
 */
export function redeemCode(
  call: Call,
  input: { code: string | undefined; clientId: string; redirectUri: string | undefined; verifier: string | undefined },
): { ok: true; code: CodeRecord } | { ok: false; problem: CodeProblem } {
  if (!input.code) return { ok: false, problem: 'missing' };
  const code = call.slice.codes.get(input.code);
  if (!code) return { ok: false, problem: 'unknown' };
  applyEffect(call, code.grantId, () => {
    code.expiresAt = call.ctx.nowMs();
  });
  if (code.usedAt !== null) return { ok: false, problem: 'used' };
  if (isGrantRevoked(call.slice, code.grantId)) return { ok: false, problem: 'revoked' };
  if (code.expiresAt <= call.ctx.nowMs()) return { ok: false, problem: 'expired' };
  if (code.clientId !== input.clientId) return { ok: false, problem: 'client_mismatch' };
  if (input.redirectUri !== undefined && code.redirectUri !== input.redirectUri) {
    return { ok: false, problem: 'redirect_mismatch' };
  }
  if (code.codeChallenge !== null) {
    if (!input.verifier) return { ok: false, problem: 'verifier_missing' };
    if (!verifierMatches(code.codeChallenge, code.codeChallengeMethod ?? 'plain', input.verifier)) {
      return { ok: false, problem: 'verifier_mismatch' };
    }
  }
  code.usedAt = call.ctx.nowMs();
  return { ok: true, code };
}

/** Marks a refresh token as replaced by a newer one (rotating networks). */
export function rotate(ctx: SandboxContext, old: TokenRecord, replacement: TokenRecord): void {
  old.rotatedAt = ctx.nowMs();
  old.replacedBy = replacement.token;
}
