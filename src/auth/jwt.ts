import { SignJWT, jwtVerify, errors } from 'jose';

export interface SessionClaims {
  userId: string;
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

  async issue(userId: string): Promise<string> {
    const iat = Math.floor(this.#now().getTime() / 1000);
    return new SignJWT({ typ: 'session' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
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
      if (payload.typ !== 'session' || typeof payload.sub !== 'string') return null;
      return { userId: payload.sub };
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
  }
}

/** A JWT has three dot-separated base64url parts; API keys never contain a dot. */
export const looksLikeJwt = (token: string) => token.split('.').length === 3;
