// Random single-use tokens (invitations, password resets): 256 bits, URL-safe; only a SHA-256 is stored.
import { createHash, randomBytes } from 'node:crypto';

export const hashSecretToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function newSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSecretToken(token) };
}
