// Idempotency-Key, shared by publishing now and scheduling. The claim is a `posts` row carrying the
// key: the unique index (workspace_id, idempotency_key) lets exactly one request of a key commit, in
// the same transaction as whatever that request creates (ledger targets, queue entries); the loser of
// a race gets the unique violation, and with it the winner's answer.
//
// A request whose answer waits for networks commits its claim `running` with a lease (`lease_until`,
// `lease_owner`) that it renews while it runs. A request whose process died stops renewing; once the
// lease has passed, a retry with the same key and body takes the lease over (one guarded UPDATE, so
// one retry wins) and resumes the same ledger post: targets already published or failed are answered
// from the ledger, the others run again through the runner, whose adapters continue from their
// journal. Nothing is created or charged a second time: no new post, targets or credits.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError } from '../errors.ts';
import type { PostRow } from './ledger.ts';
import type { DraftRef, PublishReply, ScheduledRef } from './results.ts';

export interface IdempotencyClaim {
  key: string;
  /** SHA-256 of the canonical request (route and body): tells a retry from another request under the same key. */
  requestHash: string;
  /** What the `posts` row records as the request. */
  request: unknown;
}

const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, x]) => [k, canonical(x)]),
        )
      : v;

export function requestHash(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * What a resumed run needs to answer besides its targets' results, stored with a running claim: the
 * number of networks requested, the targets to answer for in order, and what the request saved and
 * scheduled (already committed with the claim).
 */
export interface ReplyParts {
  requested: number;
  targets: string[];
  drafts: DraftRef[];
  scheduled: ScheduledRef[];
}

/** Whether a running claim's lease has passed (its request died): a retry may then take it over. */
export const leaseExpired = (prior: Pick<PostRow, 'status' | 'leaseUntil'>, now: Date): boolean =>
  prior.status === 'running' && (prior.leaseUntil === null || prior.leaseUntil.getTime() <= now.getTime());

/**
 * Renews a running request's lease every third of it until stopped, so the lease only bounds how long
 * a retry waits after a crash. A renewal that finds the lease taken over (the process stalled past it)
 * stops and says so; the request still finishes its own answer.
 */
export function keepLease(o: { leaseMs: number; renew: () => Promise<boolean>; logger: Logger; post: string }): {
  stop: () => void;
} {
  let stopped = false;
  const timer = setInterval(
    () => {
      o.renew().then(
        (held) => {
          if (held || stopped) return;
          clearInterval(timer);
          o.logger.warn({ post: o.post }, 'the Idempotency-Key lease of a running request was taken over by a retry');
        },
        (err: unknown) => o.logger.warn({ err, post: o.post }, 'could not renew an Idempotency-Key lease'),
      );
    },
    Math.max(Math.floor(o.leaseMs / 3), 100),
  );
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/**
 * The first answer again; 422 for another request under the same key, 409 while the first still runs (its lease is
 * live).
 */
export function replay(
  prior: Pick<PostRow, 'requestHash' | 'status' | 'response' | 'responseStatus'>,
  hash: string,
): PublishReply<object> {
  if (prior.requestHash !== hash) {
    throw new AppError('validation', 'This Idempotency-Key was already used with a different request body.');
  }
  if (prior.status !== 'completed' || !prior.response)
    throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
  return { status: prior.responseStatus ?? 200, body: prior.response as object };
}
