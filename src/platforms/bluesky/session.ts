// App-password sessions: createSession on the account's own PDS, refreshSession with rotation, deleteSession.
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { blueskyFailure } from './errors.ts';
import { resolveIdentity } from './identity.ts';
import type { IdentityUrls } from './identity.ts';
import { stringField, xrpc } from './xrpc.ts';
import type { JsonObject, XrpcClient } from './xrpc.ts';

/** The claims of a JWT, read without verifying it: only our own bookkeeping (expiry, scope) depends on them. */
export function jwtClaims(token: string): JsonObject | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as JsonObject) : null;
  } catch {
    return null;
  }
}

function expiryOf(token: string): Date | null {
  const exp = jwtClaims(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? new Date(exp * 1000) : null;
}

function inactiveError(out: JsonObject): PlatformError | null {
  if (out.active !== false) return null;
  const status = stringField(out, 'status');
  const what =
    status === 'takendown' ? 'has been taken down' : status === 'suspended' ? 'is suspended' : 'is deactivated';
  return blueskyFailure('reauth_required', `This Bluesky account ${what}`);
}

/** A TokenSet from a createSession / refreshSession output. */
export function tokenSetOf(
  out: JsonObject,
  pds: string,
  expected?: { did: string; handle?: string | undefined },
): TokenSet {
  const accessJwt = stringField(out, 'accessJwt');
  const refreshJwt = stringField(out, 'refreshJwt');
  const did = stringField(out, 'did');
  if (!accessJwt || !refreshJwt || !did)
    throw blueskyFailure('transient', 'Bluesky answered the session call without tokens');
  // A session for another account would mean the DID document sent us to the wrong server.
  if (expected && did !== expected.did)
    throw blueskyFailure('invalid_content', 'The Bluesky server answered for a different account');
  const handle = stringField(out, 'handle') ?? expected?.handle ?? did;
  const scope = jwtClaims(accessJwt)?.scope;
  return {
    accessToken: accessJwt,
    refreshToken: refreshJwt,
    expiresAt: expiryOf(accessJwt),
    refreshExpiresAt: expiryOf(refreshJwt),
    ...(typeof scope === 'string' && scope ? { scopes: scope.split(' ') } : {}),
    extra: { did, handle, pds },
  };
}

export async function login(
  client: XrpcClient,
  urls: IdentityUrls,
  p: { handle: string; appPassword: string },
): Promise<TokenSet> {
  if (!p.appPassword) throw blueskyFailure('invalid_content', 'An app password is required');
  const identity = await resolveIdentity(client, urls, p.handle);
  // The DID, not the handle: it is what we resolved, and it cannot be pointed elsewhere by a handle change meanwhile.
  const out = await xrpc(client, {
    base: identity.pds,
    nsid: 'com.atproto.server.createSession',
    method: 'POST',
    context: 'login',
    input: { identifier: identity.did, password: p.appPassword },
  });
  const inactive = inactiveError(out);
  if (inactive) throw inactive;
  return tokenSetOf(out, identity.pds, { did: identity.did });
}

/** Where the session lives: the PDS recorded at login, else the configured service (older token sets). */
export function pdsOf(tokens: TokenSet, fallback: string): string {
  return tokens.extra?.pds ?? fallback;
}

export async function refresh(client: XrpcClient, service: string, tokens: TokenSet): Promise<TokenSet> {
  if (!tokens.refreshToken) throw blueskyFailure('reauth_required', 'No Bluesky refresh token; reconnect the account');
  const pds = pdsOf(tokens, service);
  const out = await xrpc(client, {
    base: pds,
    nsid: 'com.atproto.server.refreshSession',
    method: 'POST',
    context: 'refresh',
    bearer: tokens.refreshToken,
  });
  const inactive = inactiveError(out);
  if (inactive) throw inactive;
  const did = tokens.extra?.did;
  return tokenSetOf(out, pds, did ? { did, handle: tokens.extra?.handle } : undefined);
}

/** Ends the session; a session that is already over counts as ended. */
export async function revoke(client: XrpcClient, service: string, tokens: TokenSet): Promise<void> {
  if (!tokens.refreshToken) return;
  try {
    await xrpc(client, {
      base: pdsOf(tokens, service),
      nsid: 'com.atproto.server.deleteSession',
      method: 'POST',
      context: 'refresh',
      bearer: tokens.refreshToken,
    });
  } catch (err) {
    if (err instanceof PlatformError && (err.kind === 'reauth_required' || err.kind === 'auth_expired')) return;
    throw err;
  }
}
