// The backup's side of an online backup of the embedded database (src/db/snapshot-hold.ts): asks the process that
// holds the data directory to hold the database still, copies its files meanwhile, and lets it go.
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import type { DatabaseFacts } from '../../db/facts.ts';
import type { HoldAnswer } from '../../db/snapshot-hold.ts';
import { UsageError } from '../errors.ts';

/** How long the backup waits for the server to hold still (it first finishes the transaction it is in). */
const WAIT_FOR_HOLD_MS = 120_000;

export interface Held {
  /** Rows per table, schema version, media rows: read by the server while it holds the database. */
  facts: DatabaseFacts;
  limitMs: number;
  /** Lets the server go; resolves with how long it held, throws when it had let go on its own before. */
  release(): Promise<number>;
  /** Lets the server go without a copy to vouch for (the copy failed). */
  abandon(): void;
}

/** Connects to the socket; undefined when nothing listens there (no server, or one that does not serve backups). */
async function open(path: string): Promise<Socket | undefined> {
  return new Promise((resolve, reject) => {
    const sock = connect(path);
    sock.once('connect', () => {
      sock.off('error', onError);
      resolve(sock);
    });
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve(undefined);
      else reject(err);
    };
    sock.once('error', onError);
  });
}

/** Asks the server listening at `path` to hold its database still; undefined when no server listens there. */
export async function askToHold(path: string): Promise<Held | undefined> {
  const sock = await open(path);
  if (!sock) return undefined;
  sock.on('error', () => {});
  // The server's answers, in order; `closed` once it has ended the connection (answers already sent stay readable).
  const answers: HoldAnswer[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  createInterface({ input: sock }).on('line', (line) => {
    try {
      answers.push(JSON.parse(line) as HoldAnswer);
    } catch {
      answers.push({ error: 'an answer that is not JSON' });
    }
    wake?.();
  });
  sock.once('close', () => {
    closed = true;
    wake?.();
  });
  const next = async (ms: number): Promise<HoldAnswer | undefined> => {
    const deadline = Date.now() + ms;
    while (!answers.length && !closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw new UsageError(`the running Herald did not answer the backup within ${ms / 1000} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
    return answers.shift();
  };
  try {
    sock.write(`${JSON.stringify({ op: 'hold' })}\n`);
    const first = await next(WAIT_FOR_HOLD_MS);
    if (!first || !('held' in first)) {
      throw new UsageError(
        `the running Herald did not hold its database for the backup: ${first && 'error' in first ? first.error : 'it closed the connection'}`,
      );
    }
    return {
      facts: first.facts,
      limitMs: first.limit_ms,
      async release() {
        // An answer already there is the server letting go on its own: nothing to release.
        if (!answers.length && !closed) sock.write(`${JSON.stringify({ op: 'release' })}\n`);
        try {
          const answer = await next(WAIT_FOR_HOLD_MS);
          if (answer && 'released' in answer) return answer.held_ms;
          if (answer && 'expired' in answer) {
            throw new UsageError(
              `the running Herald let go of its database after ${answer.limit_ms / 1000} s, before the copy was ` +
                'done: the copy may not be consistent and no backup was written. Try again when the disk is less busy.',
            );
          }
          throw new UsageError(
            `the running Herald let go of its database before the copy was done (${answer && 'error' in answer ? answer.error : 'it closed the connection'}): no backup was written`,
          );
        } finally {
          sock.destroy();
        }
      },
      abandon: () => sock.destroy(),
    };
  } catch (err) {
    sock.destroy();
    throw err;
  }
}
