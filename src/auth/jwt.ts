import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors } from 'jose';

export interface SessionClaims {
  userId: string;
  /** The token's jti (for tokens issued before jti existed, a hash of the token): what logout revokes. */
  sessionId: string;
  /** The user's session version at issue; a later logout-all or password change bumps it. */
  version: number;
  expiresAt: Date;
}

const ISSUER = 'herald';
const AUDIENCE = 'herald-api';

export class JwtService {
  readonly #key: Uint8Array;
  readonly #ttlSeconds: number;
  readonly #now: () => Date;

  constructor(key: Uint8Array, ttlSeconds: number, now: () => Date = () => new Date()) {
    this.#key = key;
    this.#ttlSeconds = ttlSeconds;
    this.#now = now;
  }

  async issue(userId: string, version = 0): Promise<string> {
    const iat = Math.floor(this.#now().getTime() / 1000);
    return new SignJWT({ typ: 'session', ver: version })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setJti(randomUUID())
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.#ttlSeconds)
      .sign(this.#key);
  }

  /** Returns the claims, or null for any invalid, tampered or expired token. */
  async verify(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: this.#now(),
      });
      if (payload.typ !== 'session' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
      const version = payload.ver ?? 0;
      if (typeof version !== 'number' || !Number.isInteger(version)) return null;
      const sessionId =
        typeof payload.jti === 'string' && payload.jti
          ? payload.jti
          : createHash('sha256').update(token).digest('base64url');
      return { userId: payload.sub, sessionId, version, expiresAt: new Date(payload.exp * 1000) };
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
  }
}

/** A JWT has three dot-separated base64url parts; API keys never contain a dot. */
export const looksLikeJwt = (token: string) => token.split('.').length === 3;
