// Scheduling's side of submit: publishing writes queue entries through this, inside its transaction,
// without knowing the table (src/publishing/submit.ts declares what it needs).
import type { Db } from '../db/client.ts';
import type { NewScheduledEntry, ScheduledEntryRef, ScheduleWriter } from '../publishing/index.ts';
import type { ScheduleQueue } from './queue.ts';
import type { ScheduledRow, ScheduledStore } from './store.ts';
import { parseScheduledTime } from './time.ts';

export class ScheduleEntries implements ScheduleWriter {
  readonly #store: ScheduledStore;
  readonly #queue: ScheduleQueue | undefined;

  constructor(store: ScheduledStore, queue: ScheduleQueue | undefined) {
    this.#store = store;
    this.#queue = queue;
  }

  parseTime(value: string, now: Date, field: string): Date {
    return parseScheduledTime(value, now, field);
  }

  async add(tx: Db, entries: NewScheduledEntry[]): Promise<ScheduledRow[]> {
    // Many at once (a bulk import): one statement per 2,000 entries.
    if (entries.length > 1) return this.#store.insertMany(tx, entries);
    const out: ScheduledRow[] = [];
    for (const e of entries)
      out.push(await this.#store.insert(tx, e, `scheduled for ${e.scheduledTime.toISOString()}`));
    return out;
  }

  /** Many entries whose rows the caller does not need (a bulk import): their ids, networks and times. */
  async addMany(tx: Db, entries: NewScheduledEntry[]): Promise<ScheduledEntryRef[]> {
    return this.#store.insertManyRefs(tx, entries);
  }

  /** Never inside a transaction: pg-boss has its own connection. */
  async wake(entries: { id: string; scheduledTime: Date }[]): Promise<void> {
    if (entries.length > 1) return this.#queue?.sendAll(entries);
    for (const e of entries) await this.#queue?.send(e.id, e.scheduledTime);
  }
}
