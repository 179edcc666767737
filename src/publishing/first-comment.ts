// A post's first comment (`first_comment`): posted under the post once the network published it, before the target
// is recorded as published, and journaled like every other step. The journal says `sending` before the network is
// asked, so a run that stops in between (a crash, a lost answer) is resumed by looking for the comment under the post
// rather than by posting it again. A comment that fails is reported on the target; the post stays published.
import type { Logger } from 'pino';
import type { ConnectionRow } from '../connections/store.ts';
import type { TokenKeeper } from '../connections/tokens.ts';
import { sanitizeErrorText } from '../events/index.ts';
import type { Journal, PublishDestination } from '../platforms/publishing.ts';
import { type PlatformAdapter, PlatformError } from '../platforms/types.ts';
import { z } from 'zod';

/** The journal step of the first comment: a JSON string of `FirstCommentState`. */
export const FIRST_COMMENT_STEP = 'herald.first_comment';

/** How many of the post's newest comments a resumed run reads to find a comment an interrupted run posted. */
const LOOK_BACK = 50;

/** The first comment as a result's `post.first_comment` shows it. */
export const firstCommentSchema = z.object({
  status: z.enum(['pending', 'posted', 'failed']),
  /** The comment's id at the network, once posted. */
  id: z.string().optional(),
  /** The comment's web address, where the network gives one (Bluesky). */
  permalink: z.string().optional(),
  /** Why it was not posted. */
  error: z.string().optional(),
});
export type FirstCommentResult = z.infer<typeof firstCommentSchema>;

type Stored =
  | { status: 'sending' }
  | { status: 'posted'; id: string; permalink?: string | undefined }
  | { status: 'failed'; error: string };

function stored(value: string | undefined): Stored | undefined {
  if (!value) return undefined;
  try {
    const v = JSON.parse(value) as Stored;
    return typeof v === 'object' && v !== null && typeof v.status === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** What a target's result says of its first comment; undefined when it has none (or the post is not out yet). */
export function firstCommentOf(
  steps: Readonly<Record<string, string>>,
  wanted: boolean,
  published: boolean,
): FirstCommentResult | undefined {
  const s = stored(steps[FIRST_COMMENT_STEP]);
  if (s?.status === 'posted')
    return { status: 'posted', id: s.id, ...(typeof s.permalink === 'string' ? { permalink: s.permalink } : {}) };
  if (s?.status === 'failed') return { status: 'failed', error: s.error };
  return wanted && (published || s) ? { status: 'pending' } : undefined;
}

/** A stored target's first comment (its journal, whether its spec asks one, its state), as results and timelines show it. */
export function firstCommentOfTarget(row: {
  journal: unknown;
  spec: unknown;
  state: string;
}): FirstCommentResult | undefined {
  return firstCommentOf(
    (row.journal ?? {}) as Record<string, string>,
    Boolean((row.spec as { firstComment?: string } | null)?.firstComment),
    row.state === 'published',
  );
}

/** How a posted first comment's journal value starts (its status first). */
export const POSTED_PREFIX = JSON.stringify({ status: 'posted' }).slice(0, -1);

export interface FirstCommentDeps {
  tokens: TokenKeeper;
  /** Writes a final journal value unless the step already starts with `keep`; whether it was written. */
  settle(step: string, value: string, keep: string): Promise<boolean>;
  logger: Logger;
  /** Runs the network call within the runner's time budget (rejects with the runner's timeout). */
  bounded<T>(work: Promise<T>): Promise<T>;
  isTimeout(err: unknown): boolean;
}

export interface FirstCommentJob {
  adapter: PlatformAdapter;
  conn: ConnectionRow;
  journal: Journal;
  destination: PublishDestination | undefined;
  postId: string;
  text: string;
  target: string;
}

/** Posts the first comment once: never throws, its outcome is in the journal. */
export async function postFirstComment(d: FirstCommentDeps, job: FirstCommentJob): Promise<void> {
  const { adapter, conn, journal, destination, postId, text } = job;
  const prior = stored(journal.steps[FIRST_COMMENT_STEP]);
  if (prior?.status === 'posted' || prior?.status === 'failed') return;
  // `sending` is written as any step; the final state never replaces a comment another run recorded as posted.
  const record = async (s: Stored) => {
    const value = JSON.stringify(s);
    if (s.status === 'sending') return journal.record(FIRST_COMMENT_STEP, value);
    if (await d.settle(FIRST_COMMENT_STEP, value, POSTED_PREFIX))
      (journal.steps as Record<string, string>)[FIRST_COMMENT_STEP] = value;
  };
  const failed = async (error: string) => {
    d.logger.warn({ platform: adapter.platform, target: job.target, error }, 'first comment failed');
    await record({ status: 'failed', error: sanitizeErrorText(`${adapter.displayName}: ${error}`) });
  };
  const comments = adapter.engagement?.comments;
  const comment = comments?.comment?.bind(comments);
  if (!comments || !comment) return failed('this network takes no first comment.');
  try {
    if (prior?.status === 'sending') {
      // An earlier run asked the network and stopped before it heard back: the comment may be there already.
      let found: string | undefined;
      try {
        const page = await d.bounded(
          d.tokens.use(conn, (t) => comments.list(t, { destination, postId, limit: LOOK_BACK })),
        );
        found = page.comments.find((c) => c.text.trim() === text.trim())?.id;
      } catch (err) {
        if (!(err instanceof PlatformError) && !d.isTimeout(err)) throw err;
        const why = err instanceof PlatformError ? err.message : 'no answer in time';
        return failed(
          `an interrupted run may have posted it and Herald could not check (${why}), so it was not posted again.`,
        );
      }
      if (found) {
        await record({ status: 'posted', id: found });
        return;
      }
    }
    await record({ status: 'sending' });
    const { commentId, permalink } = await d.bounded(
      d.tokens.use(conn, (t) => comment(t, { destination, postId, text })),
    );
    await record({ status: 'posted', id: commentId, ...(permalink ? { permalink } : {}) });
    d.logger.info({ platform: adapter.platform, target: job.target }, 'first comment posted');
  } catch (err) {
    if (err instanceof PlatformError) return failed(err.message);
    if (d.isTimeout(err))
      return failed('the network did not answer in time; Herald does not post it again (it may still appear).');
    d.logger.error({ err, platform: adapter.platform, target: job.target }, 'first comment crashed');
    return failed('posting the first comment failed unexpectedly.');
  }
}
