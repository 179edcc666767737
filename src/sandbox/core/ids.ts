// Identifier helpers. Account-level ids are derived from a hash of (platform, user) so the same sandbox user always
// gets the same ids, even after a reset; secrets (codes, tokens) are random.
import { createHash, randomBytes } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const URLSAFE = `${ALNUM}-_`;

function draw(bytes: Buffer, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[(bytes[i % bytes.length] ?? 0) % alphabet.length];
  return out;
}

function seeded(seed: string, length: number): Buffer {
  const chunks: Buffer[] = [];
  let counter = 0;
  while (chunks.length * 32 < length) {
    chunks.push(createHash('sha256').update(`${seed}#${counter++}`).digest());
  }
  return Buffer.concat(chunks);
}

/** Numeric id of `length` digits that never starts with 0. */
export function seededDigits(seed: string, length: number): string {
  const digits = draw(seeded(seed, length), '0123456789', length);
  return `${String(1 + ((seeded(`${seed}/lead`, 1)[0] ?? 0) % 9))}${digits.slice(1)}`;
}

export function seededAlnum(seed: string, length: number): string {
  return draw(seeded(seed, length), ALNUM, length);
}

export function seededBase32(seed: string, length: number): string {
  return draw(seeded(seed, length), BASE32, length);
}

export function seededUrlSafe(seed: string, length: number): string {
  return draw(seeded(seed, length), URLSAFE, length);
}

export function seededUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function randomAlnum(length: number): string {
  return draw(randomBytes(length), ALNUM, length);
}

export function randomUrlSafe(length: number): string {
  return draw(randomBytes(length), URLSAFE, length);
}

/** Random decimal id of `length` digits that never starts with 0 (post, media and job ids). */
export function randomDigits(length: number): string {
  const digits = draw(randomBytes(length), '0123456789', length);
  return `${String(1 + ((randomBytes(1)[0] ?? 0) % 9))}${digits.slice(1)}`;
}

export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);
}

export function randomId(): string {
  return randomHex(16);
}

/** "alice-smith" → "Alice Smith": readable display names for sandbox users. */
export function displayName(userKey: string): string {
  const words = userKey.split(/[-_.\s]+/).filter(Boolean);
  const named = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  if (named.length === 0) return 'Sandbox User';
  if (named.length === 1) named.push('Sandbox');
  return named.join(' ');
}
