// Online backups of the embedded database. PGlite admits one process, and the process that runs it (the server)
// holds the data directory (lock.ts); another process must never open it. What another process may do is read its
// files while nothing writes them: this module lets `herald backup` ask the running process to hold still.
//
// The process that opens an embedded database on disk listens on a unix socket, <data dir>/run/backup.sock, in a
// directory only its user can enter (0700): whoever can connect can already read the data directory, so the socket
// gives nobody anything new, and nothing of it is reachable from another host. The protocol is one JSON object a
// line:
//
//   backup → {"op":"hold"}      the server takes PGlite's transaction lock (every query and transaction of the
//                               process waits behind it), writes a checkpoint and reads the row counts, the schema
//                               version and the media rows, then answers
//   server → {"held":true,"facts":{…},"limit_ms":n}
//   backup copies the database's files, then
//   backup → {"op":"release"}
//   server → {"released":true,"held_ms":n}  (the copy was made while nothing wrote: it is the state the facts describe)
//
// The server lets go when the backup disconnects, and after `limit_ms` even if it does not (it then answers
// {"expired":true,…} instead of "released", and the backup, whose copy may be torn, fails). A copy made under the
// hold is the data directory of a stopped server at the checkpoint's instant; opening it replays nothing committed
// later.
import { chmodSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { type DatabaseFacts, databaseFacts } from './facts.ts';

/** Where the process holding the data directory's embedded database listens for backups. */
export const holdSocketPath = (dataDir: string): string => join(dataDir, 'run', 'backup.sock');

/** How long the server holds still for one backup at most, unless told otherwise. */
export const DEFAULT_HOLD_LIMIT_MS = 60_000;
/** Linux's longest unix socket path (sun_path holds 108 bytes with the terminating NUL). */
const MAX_SOCKET_PATH = 107;
/** A connection that asks nothing within this time is closed. */
const IDLE_MS = 10_000;
const MAX_LINE = 1024;

export type HoldAnswer =
  | { held: true; facts: DatabaseFacts; limit_ms: number }
  | { released: true; held_ms: number }
  | { expired: true; limit_ms: number }
  | { error: string };

export interface HoldServer {
  /** The socket's path. */
  path: string;
  /** Stops listening and lets go of a hold in progress (its backup fails). */
  close(): Promise<void>;
}

export interface HoldOptions {
  limitMs?: number | undefined;
}

type Ending = 'released' | 'expired' | 'gone' | 'closing';

/**
 * Listens for backups of `client`'s data directory; undefined when it cannot (a path longer than a unix socket's,
 * or a `run` directory that is not this user's): the backup then says the server must be stopped.
 */
export async function serveHolds(
  client: PGlite,
  dataDir: string,
  o: HoldOptions = {},
): Promise<HoldServer | undefined> {
  const path = holdSocketPath(dataDir);
  const limitMs = o.limitMs ?? DEFAULT_HOLD_LIMIT_MS;
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) return undefined;
  const run = join(dataDir, 'run');
  mkdirSync(run, { recursive: true, mode: 0o700 });
  const st = lstatSync(run);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) return undefined;
  chmodSync(run, 0o700);
  // The caller holds the data directory's lock: a socket file left there is a dead process's.
  rmSync(path, { force: true });

  const holds = new Set<(why: Ending) => void>();
  const pending = new Set<Promise<void>>();
  const sockets = new Set<Socket>();
  let closing = false;
  const server = createServer((sock) => {
    sockets.add(sock);
    let state: 'idle' | 'waiting' | 'held' | 'done' = 'idle';
    let end: ((why: Ending) => void) | undefined;
    let buf = '';
    const send = (a: HoldAnswer) => {
      if (!sock.destroyed) sock.write(`${JSON.stringify(a)}\n`);
    };
    const idle = setTimeout(() => sock.destroy(), IDLE_MS);
    sock.setEncoding('utf8');
    sock.on('error', () => {});
    sock.on('close', () => {
      clearTimeout(idle);
      sockets.delete(sock);
      end?.('gone');
    });

    const hold = async () => {
      try {
        // PGlite's transaction lock: every query and transaction of this process waits until the callback returns.
        await client.transaction(async (tx) => {
          if (closing) send({ error: 'the server is stopping' });
          if (sock.destroyed || closing) return;
          await tx.exec('checkpoint');
          const facts = await databaseFacts(tx);
          // The backup left, or the server began to stop, while it got ready: nobody to hold still for.
          if (closing) send({ error: 'the server is stopping' });
          if (sock.destroyed || closing) return;
          const ended = new Promise<Ending>((resolve) => {
            end = resolve;
          });
          holds.add(end!);
          const timer = setTimeout(() => end?.('expired'), limitMs);
          const t0 = performance.now();
          state = 'held';
          send({ held: true, facts, limit_ms: limitMs });
          const why = await ended;
          clearTimeout(timer);
          holds.delete(end!);
          end = undefined;
          state = 'done';
          if (why === 'released') send({ released: true, held_ms: Math.round(performance.now() - t0) });
          else if (why === 'expired') send({ expired: true, limit_ms: limitMs });
          else if (why === 'closing') send({ error: 'the server is stopping' });
        });
      } catch (err) {
        send({ error: `the server could not hold the database: ${(err as Error).message}` });
      }
      state = 'done';
      sock.end();
    };

    const handle = (line: string) => {
      let op: unknown;
      try {
        op = (JSON.parse(line) as { op?: unknown } | null)?.op;
      } catch {
        op = undefined;
      }
      if (op === 'hold' && state === 'idle') {
        clearTimeout(idle);
        state = 'waiting';
        const done = hold();
        pending.add(done);
        void done.finally(() => pending.delete(done));
      } else if (op === 'release' && state === 'held') {
        end?.('released');
      } else {
        send({ error: `unexpected request in state ${state}` });
        end?.('gone');
        sock.end();
      }
    };

    sock.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_LINE) {
        sock.destroy();
        return;
      }
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        handle(line);
      }
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch {
    return undefined;
  }
  // The directory already keeps other users out; the socket itself says the same.
  chmodSync(path, 0o600);
  server.unref();

  return {
    path,
    async close() {
      closing = true;
      // A hold in progress answers that the server stops, then lets go; one still waiting gives up.
      for (const end of holds) end('closing');
      await Promise.all(pending);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.end();
      // Connections the clients keep open end with their holds; the listening socket is gone at once.
      await Promise.race([closed, new Promise((r) => setTimeout(r, 1000).unref())]);
      for (const s of sockets) s.destroy();
      rmSync(path, { force: true });
    },
  };
}
