// A tap on every SQL statement Herald sends, for tests that count round trips (and, later, tracing).
// Drizzle's logger sees each query; transactions are wrapped here so BEGIN and COMMIT count the same on
// both back ends (node-postgres sends them as queries Drizzle logs, PGlite inside its own client call).
import type { Logger as DrizzleLogger } from 'drizzle-orm';

export type StatementListener = (sql: string) => void;

const TX_CONTROL = /^\s*(begin|commit|rollback)\b/i;

export class StatementTap implements DrizzleLogger {
  readonly #listeners = new Set<StatementListener>();
  /** Statements sent so far (BEGIN and COMMIT/ROLLBACK included), and transactions: /metrics and the benchmarks. */
  readonly counts = { statements: 0, transactions: 0 };

  /** Calls `fn` with every statement until the returned function is called. */
  watch(fn: StatementListener): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  logQuery(query: string): void {
    if (TX_CONTROL.test(query)) return;
    this.counts.statements++;
    if (this.#listeners.size) this.#emit(query);
  }

  #emit(sql: string): void {
    for (const l of this.#listeners) l(sql);
  }

  /** Wraps a Drizzle database's transaction() so BEGIN and COMMIT/ROLLBACK reach the listeners. */
  wrapTransactions<T extends { transaction: (...args: never[]) => Promise<unknown> }>(db: T): T {
    const original = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
    const wrapped = async (...args: unknown[]) => {
      this.counts.transactions++;
      this.counts.statements += 2;
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
