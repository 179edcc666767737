// A tap on every SQL statement Herald sends, for tests that count round trips (and, later, tracing).
// Drizzle's logger sees each query; transactions are wrapped here so BEGIN and COMMIT count the same on
// both back ends (node-postgres sends them as queries Drizzle logs, PGlite inside its own client call).
import type { Logger as DrizzleLogger } from 'drizzle-orm';

export type StatementListener = (sql: string) => void;

const TX_CONTROL = /^\s*(begin|commit|rollback)\b/i;

export class StatementTap implements DrizzleLogger {
  readonly #listeners = new Set<StatementListener>();

  /** Calls `fn` with every statement until the returned function is called. */
  watch(fn: StatementListener): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  logQuery(query: string): void {
    if (!this.#listeners.size || TX_CONTROL.test(query)) return;
    this.#emit(query);
  }

  #emit(sql: string): void {
    for (const l of this.#listeners) l(sql);
  }

  /** Wraps a Drizzle database's transaction() so BEGIN and COMMIT/ROLLBACK reach the listeners. */
  wrapTransactions<T extends { transaction: (...args: never[]) => Promise<unknown> }>(db: T): T {
    const original = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
    const wrapped = async (...args: unknown[]) => {
      this.#emit('begin');
      try {
        const out = await original(...args);
        this.#emit('commit');
        return out;
      } catch (err) {
        this.#emit('rollback');
        throw err;
      }
    };
    (db as { transaction: unknown }).transaction = wrapped;
    return db;
  }
}
