// Requests under an Idempotency-Key: their run holds the key's lease, and an earlier request whose lease passed (its
// process stopped) is resumed rather than run again.
import { randomUUID } from 'node:crypto';
import { keepLease, leaseExpired, replay, type ReplyParts } from './idempotency.ts';
import type { PostRow, TargetRow } from './ledger.ts';
import { publishReply, type PublishReply, type TargetOutcome } from './results.ts';
import { TargetRunner } from './runner.ts';
import type { Internals } from './service-types.ts';

const DEFAULT_LEASE_MS = 300_000;

/** How long a key's claim outlives its request's last renewal. */
export function leaseMs(d: Internals): number {
  return d.idempotencyLeaseMs ?? DEFAULT_LEASE_MS;
}

/** An earlier request under the same key: its answer, 422, 409 while it runs, or — its lease passed — resumed here. */
export async function answerPrior(d: Internals, prior: PostRow, hash: string): Promise<PublishReply<object>> {
  if (prior.requestHash !== hash || !leaseExpired(prior, d.clock())) return replay(prior, hash);
  const owner = randomUUID();
  const held = await d.ledger.takeOver(prior.id, owner, new Date(d.clock().getTime() + leaseMs(d)));
  // Another retry took it over first (409), or it finished meanwhile (its answer).
  if (!held) return replay(await d.ledger.postOf(prior.id), hash);
  d.logger.warn({ post: prior.id }, 'resuming a request whose Idempotency-Key lease passed (its process stopped)');
  const rows = await d.ledger.targetsOf(prior.id);
  const parts = (held.replyParts as ReplyParts | null) ?? legacyParts(rows);
  const byId = new Map(rows.map((r) => [r.id, r]));
  // Only targets the dead run left unfinished go to the network again, through their journal; none is created or
  // charged anew.
  const run = () =>
    Promise.all(
      parts.targets.map((id) => {
        const row = byId.get(id)!;
        return row.state === 'pending' || row.state === 'processing'
          ? d.runner.run(row)
          : TargetRunner.resultOf(row, d.registry);
      }),
    );
  return runHolding(d, prior.id, owner, parts, run);
}

/** Runs the targets while renewing the claim's lease (requests with a key), then records the answer to replay. */
export async function runHolding(
  d: Internals,
  postId: string | undefined,
  owner: string | undefined,
  parts: Omit<ReplyParts, 'targets'>,
  run: () => Promise<TargetOutcome[]>,
): Promise<PublishReply<object>> {
  const heartbeat =
    postId && owner
      ? keepLease({
          leaseMs: leaseMs(d),
          logger: d.logger,
          post: postId,
          renew: () => d.ledger.renewLease(postId, owner, new Date(d.clock().getTime() + leaseMs(d))),
        })
      : undefined;
  let outcomes: TargetOutcome[];
  try {
    outcomes = await run();
  } finally {
    heartbeat?.stop();
  }
  const reply = publishReply(parts.requested, outcomes, parts.drafts, parts.scheduled);
  if (postId) await d.ledger.finishPost(postId, reply.body, reply.status);
  return reply;
}

/** A request claimed before reply parts were stored: every network it named, its live targets in the order written. */
function legacyParts(rows: TargetRow[]): ReplyParts {
  return {
    requested: new Set(rows.map((r) => r.platform)).size,
    targets: rows.filter((r) => r.state !== 'draft').map((r) => r.id),
    drafts: [],
    scheduled: [],
  };
}
