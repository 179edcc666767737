// Record keys for posts. createRecord accepts a caller-chosen rkey, and a second create with the same key cannot
// succeed, so a key chosen once per Herald target (and journaled before the call) makes the create idempotent: a
// retry either finds the record under that key or creates it, never a second post.
import { createHash } from 'node:crypto';

const SORTABLE = '234567abcdefghijklmnopqrstuvwxyz';

/** The TID syntax: 13 base32-sortable characters, the first one with the top bit clear. */
export const TID_PATTERN = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;

/**
 * A TID (53 bits of microseconds since the epoch, 10 bits of clock id) for a target. The time is the first attempt's,
 * so keys sort like the PDS's own; the sub-millisecond digits and the clock id come from the target id, so two
 * targets created in the same millisecond still get different keys.
 */
export function tidFor(targetId: string, at: Date): string {
  const hash = createHash('sha256').update(targetId).digest();
  const micros = BigInt(at.getTime()) * 1000n + BigInt(hash.readUInt16BE(0) % 1000);
  const value = (micros << 10n) | BigInt(hash.readUInt16BE(2) & 0x3ff);
  let out = '';
  for (let i = 12; i >= 0; i--) out += SORTABLE[Number((value >> BigInt(i * 5)) & 31n)];
  return out;
}
