// Named mutual exclusion across every Herald process on the database: a PostgreSQL session-level
// advisory lock on its own pooled connection; with embedded PGlite (one process) an in-process queue.
import { createHash } from 'node:crypto';
import type { Database } from './client.ts';

export interface Locks {
  /** Runs fn while holding the named lock. */
  withLock<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

/** Two 32-bit keys from a SHA-256 of the name (the two-argument advisory lock form). */
function lockKeys(name: string): [number, number] {
  const h = createHash('sha256').update(name).digest();
  return [h.readInt32BE(0), h.readInt32BE(4)];
}

export class ProcessLocks implements Locks {
  readonly #tails = new Map<string, Promise<unknown>>();

  async withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.#tails.get(name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = prev.then(() => mine);
    this.#tails.set(name, tail);
    await prev.catch(() => {});
    try {
      return await fn();
    } finally {
      release();
      if (this.#tails.get(name) === tail) this.#tails.delete(name);
    }
  }
}

export class PostgresLocks implements Locks {
  readonly #local = new ProcessLocks();
  readonly #database: Database;

  constructor(database: Database) {
    if (!database.pool) throw new Error('PostgresLocks needs a PostgreSQL pool');
    this.#database = database;
  }

  withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    // Queue locally first so one process holds at most one pooled connection per lock name.
    return this.#local.withLock(name, async () => {
      const client = await this.#database.pool!.connect();
      const [a, b] = lockKeys(name);
      try {
        await client.query('select pg_advisory_lock($1, $2)', [a, b]);
        try {
          return await fn();
        } finally {
          await client.query('select pg_advisory_unlock($1, $2)', [a, b]);
        }
      } finally {
        client.release();
      }
    });
  }
}

export function createLocks(database: Database): Locks {
  return database.kind === 'postgres' ? new PostgresLocks(database) : new ProcessLocks();
}
