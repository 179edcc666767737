// PKCE (RFC 7636) checks for the networks that support it.
import { createHash } from 'node:crypto';

export type PkceMethod = 'S256' | 'plain';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isValidChallenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export function verifierMatches(challenge: string, method: string, verifier: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  return method === 'S256' ? s256(verifier) === challenge : verifier === challenge;
}
