// OpenID Connect id_tokens for the networks that issue them (LinkedIn, Google). Signed with one RS256 key per sandbox
// instance, published as a JWKS by the simulator, so adapters that verify id_tokens can do so against the sandbox.
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWK, JWTPayload } from 'jose';
import type { SandboxContext } from './context.ts';

interface SigningKey {
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
}

const keys = new WeakMap<SandboxContext, Promise<SigningKey>>();

function signingKey(ctx: SandboxContext): Promise<SigningKey> {
  let key = keys.get(ctx);
  if (!key) {
    key = (async () => {
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
      const jwk = { ...(await exportJWK(publicKey)), kid: 'sandbox-1', alg: 'RS256', use: 'sig' };
      return { privateKey, jwk };
    })();
    keys.set(ctx, key);
  }
  return key;
}

export async function signIdToken(
  ctx: SandboxContext,
  claims: JWTPayload & { iss: string; aud: string; sub: string },
  ttlSec: number,
): Promise<string> {
  const { privateKey } = await signingKey(ctx);
  const iat = Math.floor(ctx.nowMs() / 1000);
  return new SignJWT({ ...claims, iat, exp: iat + ttlSec })
    .setProtectedHeader({ alg: 'RS256', kid: 'sandbox-1', typ: 'JWT' })
    .sign(privateKey);
}

export async function jwks(ctx: SandboxContext): Promise<{ keys: JWK[] }> {
  return { keys: [(await signingKey(ctx)).jwk] };
}
