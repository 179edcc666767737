// The `queue` mode of a feed: each new item joins a posting queue (the feed's `queue`, else the default queue) and
// takes its next free slot, as a post into the queue does. A workspace that holds tools' posts for approval holds
// the item too, as drafts pending approval at the time of the slot it would take (a queue has no approval step).
import type { Principal } from '../auth/authenticate.ts';
import { AppError, validationField } from '../errors.ts';
import type { PostBody } from '../publishing/index.ts';

export const DEFAULT_QUEUE = 'default';

/** What queue mode needs of the posting queues and of the approval step. */
export interface FeedQueues {
  /** Why the queue cannot take posts for these networks (unknown, paused, no slots, other networks), or undefined. */
  refusal(workspaceId: string, name: string, platforms: readonly string[]): Promise<string | undefined>;
  /** The next free slot (nothing taken). */
  nextFree(workspaceId: string, name: string): Promise<Date | undefined>;
  /** A post into the queue's next free slot. */
  add(p: Principal, name: string, body: PostBody): Promise<{ status: number; body: object }>;
  /** Whether the workspace holds tools' posts for approval. */
  approvalRequired(workspaceId: string): Promise<boolean>;
}

/** A feed saved in queue mode names a queue that exists (422 at `queue` otherwise). */
export async function checkQueueMode(
  queues: FeedQueues | undefined,
  workspaceId: string,
  name: string,
  networks: readonly string[],
): Promise<void> {
  if (!queues) throw new AppError('bad_request', 'queues are not available');
  const why = await queues.refusal(workspaceId, name, networks);
  // A paused queue may be resumed before the next poll: only a queue that can never take the posts is refused.
  if (why && !/ is paused/.test(why)) throw validationField(['body', 'queue'], why);
}

/**
 * One item's post into the queue, or held for approval at the slot's time (through `hold`, the feed's usual post).
 * A queue that cannot take it (deleted, paused, other networks) fails the item with the reason.
 */
export async function postToQueue(
  queues: FeedQueues | undefined,
  p: Principal,
  name: string,
  body: PostBody,
  hold: (body: PostBody) => Promise<{ status: number; body: object }>,
): Promise<{ status: number; body: object }> {
  if (!queues) throw new AppError('bad_request', 'queues are not available');
  const why = await queues.refusal(p.workspaceId, name, body.platforms ?? []);
  if (why) throw new AppError('validation', why);
  if (await queues.approvalRequired(p.workspaceId)) {
    const at = await queues.nextFree(p.workspaceId, name);
    if (!at) throw new AppError('validation', `Queue '${name}' has no free slot.`);
    return hold({ ...body, scheduled_time: at.toISOString() });
  }
  return queues.add(p, name, body);
}
