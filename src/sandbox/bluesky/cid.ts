// Content identifiers and record keys as the AT Protocol writes them: CIDv1 (sha2-256) in base32 — `bafkrei…` for
// raw blobs, `bafyrei…` for records — and TIDs, 13 base32-sortable characters of microseconds plus a clock id.
import { createHash, randomInt } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const SORTABLE = '234567abcdefghijklmnopqrstuvwxyz';
const CODECS = { raw: 0x55, 'dag-cbor': 0x71 } as const;

function base32(bytes: Buffer): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

export function cid(codec: keyof typeof CODECS, data: Buffer | string): string {
  const digest = createHash('sha256').update(data).digest();
  return `b${base32(Buffer.concat([Buffer.from([0x01, CODECS[codec], 0x12, 0x20]), digest]))}`;
}

const clockId = BigInt(randomInt(1024));
let lastMicros = 0;

/** A fresh TID; strictly increasing even when the sandbox clock stands still. */
export function tid(nowMs: number): string {
  lastMicros = Math.max(nowMs * 1000, lastMicros + 1);
  const value = (BigInt(lastMicros) << 10n) | clockId;
  let out = '';
  for (let i = 12; i >= 0; i--) out += SORTABLE[Number((value >> BigInt(i * 5)) & 31n)];
  return out;
}

export const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
