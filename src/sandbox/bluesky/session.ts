// App-password sessions: real HS256 JWTs shaped like the reference PDS's (access 120 min, refresh 90 days, rotation on
// refresh with a 2-hour grace for the replaced refresh token). Validity is decided by the store, not the JWT alone,
// so faults and revocations apply.
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { SandboxContext } from '../core/context.ts';
import { randomUrlSafe } from '../core/ids.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../core/http.ts';
import { sendAnswer, type Call } from '../core/route.ts';
import { sessionError } from './errors.ts';
import { lifetimeSec } from '../core/store.ts';
import { checkToken, createGrant, mintToken } from '../core/tokens.ts';
import type { TokenCheck } from '../core/tokens.ts';
import type { AccountRecord, TokenRecord } from '../core/types.ts';

export const ACCESS_KIND = 'session_access';
export const REFRESH_KIND = 'session_refresh';
const ACCESS_TTL = 7200;
const REFRESH_TTL = 7_776_000;
export const REFRESH_GRACE_MS = 2 * 60 * 60 * 1000;
const CLIENT = 'app-password';

const secrets = new WeakMap<SandboxContext, Uint8Array>();

function secretOf(ctx: SandboxContext): Uint8Array {
  let secret = secrets.get(ctx);
  if (!secret) {
    secret = new Uint8Array(randomBytes(32));
    secrets.set(ctx, secret);
  }
  return secret;
}

export function serviceDid(ctx: SandboxContext): string {
  return `did:web:${new URL(ctx.publicUrl).hostname}`;
}

async function jwt(ctx: SandboxContext, typ: string, claims: Record<string, string>, ttlSec: number): Promise<string> {
  const iat = Math.floor(ctx.nowMs() / 1000);
  return new SignJWT({ ...claims, sub: claims.sub, aud: serviceDid(ctx), iat, exp: iat + ttlSec })
    .setProtectedHeader({ alg: 'HS256', typ })
    .sign(secretOf(ctx));
}

/** A service-auth JWT (getServiceAuth): issued by the account's DID for another service's DID and one method. */
export async function serviceJwt(
  ctx: SandboxContext,
  claims: { iss: string; aud: string; lxm?: string; exp: number },
): Promise<string> {
  const payload: Record<string, string | number> = {
    iss: claims.iss,
    aud: claims.aud,
    exp: claims.exp,
    iat: Math.floor(ctx.nowMs() / 1000),
    jti: randomUrlSafe(22),
  };
  if (claims.lxm) payload.lxm = claims.lxm;
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secretOf(ctx));
}

export interface SessionTokens {
  access: TokenRecord;
  refresh: TokenRecord;
}

/** Mints an access + refresh pair under a grant (one grant per createSession, i.e. per app-password login). */
export async function mintSession(call: Call, account: AccountRecord, grantId?: string): Promise<SessionTokens> {
  const { ctx, slice } = call;
  const grant =
    grantId ?? createGrant(ctx, slice, { clientId: CLIENT, accountId: account.id, scopes: ['com.atproto.appPass'] }).id;
  const accessTtl = lifetimeSec(ctx.store, 'bluesky', 'access', ACCESS_TTL);
  const refreshTtl = lifetimeSec(ctx.store, 'bluesky', 'refresh', REFRESH_TTL);
  const base = { clientId: CLIENT, accountId: account.id, grantId: grant };
  const access = mintToken(ctx, slice, {
    ...base,
    token: await jwt(ctx, 'at+jwt', { scope: 'com.atproto.appPass', sub: account.id }, accessTtl),
    kind: ACCESS_KIND,
    scopes: ['com.atproto.appPass'],
    ttlSec: accessTtl,
  });
  const refresh = mintToken(ctx, slice, {
    ...base,
    token: await jwt(
      ctx,
      'refresh+jwt',
      { scope: 'com.atproto.refresh', sub: account.id, jti: randomUrlSafe(43) },
      refreshTtl,
    ),
    kind: REFRESH_KIND,
    scopes: ['com.atproto.refresh'],
    ttlSec: refreshTtl,
  });
  return { access, refresh };
}

/** Like checkToken, but tells a token of the other kind apart (the PDS answers "Invalid token type"). */
export function checkSession(
  call: Call,
  raw: string | undefined,
  kind: string,
): TokenCheck | { ok: false; problem: 'wrong_type' } {
  const found = raw ? call.slice.tokens.get(raw) : undefined;
  if (found && found.kind !== kind && (found.kind === ACCESS_KIND || found.kind === REFRESH_KIND)) {
    return { ok: false, problem: 'wrong_type' };
  }
  return checkToken(call, raw, [kind]);
}

/** The account behind a valid access JWT, or null after answering the error. */
export function viewer(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  optional: boolean,
): AccountRecord | null | undefined {
  const raw = bearerToken(req);
  if (!raw && optional) return undefined;
  const checked = checkSession(call, raw, ACCESS_KIND);
  const account = checked.ok ? call.slice.accounts.get(checked.token.accountId) : undefined;
  if (!checked.ok || !account) {
    sendAnswer(reply, sessionError(checked.ok ? 'invalid' : checked.problem));
    return null;
  }
  return account;
}
