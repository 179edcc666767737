// Idempotency-Key, shared by publishing now and scheduling. The claim is a `posts` row carrying the
// key: the unique index (workspace_id, idempotency_key) lets exactly one request of a key commit, in
// the same transaction as whatever that request creates (ledger targets, queue entries); the loser of
// a race gets the unique violation, and with it the winner's answer.
import { createHash } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { PostRow } from './ledger.ts';
import type { PublishReply } from './results.ts';

export interface IdempotencyClaim {
  key: string;
  /** SHA-256 of the canonical request (route and body): tells a retry from another request under the same key. */
  requestHash: string;
  /** What the `posts` row records as the request. */
  request: unknown;
}

const canonical = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, canonical(x)])) : v;

export function requestHash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical(value))).digest('hex');
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** The first answer again; 422 for another request under the same key, 409 while the first still runs. */
export function replay(prior: Pick<PostRow, 'requestHash' | 'status' | 'response' | 'responseStatus'>, hash: string): PublishReply<object> {
  if (prior.requestHash !== hash) {
    throw new AppError('validation', 'This Idempotency-Key was already used with a different request body.');
  }
  if (prior.status !== 'completed' || !prior.response) throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
  return { status: prior.responseStatus ?? 200, body: prior.response as object };
}
