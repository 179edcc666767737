// The free slots of a posting queue, in at most two statements. The weekly grid's instants are computed here
// (SlotGrid: the zone's rules, DST included). The first statement reads the live slots among the grid's next slots
// (as many as asked for, plus WINDOW) and the queue's latest live slot: the others among them are free, and after the
// latest every slot is free, by arithmetic. Only when that is not enough and live slots lie beyond does the second run:
// it sends the starts of the grid's runs of RUN slots up to the latest live one as one array parameter, and an ordered
// index read finds the first run with room (queue-store.ts, firstRunWithRoom), whose live slots come back to compare
// here. The search starts after the queue's recorded run of taken slots when that covers the first slot. Whoever takes
// the slots holds the queue's row lock (queues.ts) and the unique index of live slots; the search itself only reads.
import type { Db } from '../db/client.ts';
import type { SlotGrid } from './queue-slots.ts';
import type { QueueRow, QueueStore, TakenSlot } from './queue-store.ts';

/** Grid slots the first statement reads beyond the slots asked for. */
const WINDOW = 64;
/** At most this many grid slots in the first statement (a bulk import may ask for thousands). */
const FIRST_MAX = 1000;
/** Grid slots per run of the second statement (it compares the start of each run with the live slot of its rank). */
const RUN = 64;
/** At most this many grid slots in the second statement; past them the search goes on from there. */
const MAX_CANDIDATES = 100_000;
/** Taken slots read at once by a walk. */
const PAGE = 1000;

export class SlotSearch {
  readonly #store: QueueStore;

  constructor(store: QueueStore) {
    this.#store = store;
  }

  /** Whether the queue's recorded run of taken slots covers the first slot after `from` (see posting_queues). */
  inRun(q: QueueRow, grid: SlotGrid, from: Date): boolean {
    if (!q.filledFrom || !q.filledTo || q.filledZone !== grid.timeZone) return false;
    const [first] = grid.next(from, 1);
    return !!first && first >= q.filledFrom && first <= q.filledTo;
  }

  /** The first `n` free slots after `from` (a queue without a row has nothing taken). */
  async free(db: Db, q: QueueRow | undefined, grid: SlotGrid, from: Date, n: number): Promise<Date[]> {
    if (grid.empty || n <= 0) return [];
    if (!q) return grid.next(from, n);
    const out: Date[] = [];
    /** Adds the candidates not in `taken`; true once there are `n`. */
    const add = (candidates: readonly number[], taken: readonly number[]) => {
      const held = new Set(taken);
      for (const at of candidates) if (!held.has(at) && out.push(new Date(at)) >= n) return true;
      return false;
    };
    // The recorded run of taken slots, when it covers the first slot: the search starts at its end.
    let after = this.inRun(q, grid, from) ? q.filledTo! : from;
    for (;;) {
      // The next slots of the grid, beside the live slots among them (and the latest live slot).
      const window = grid.next(after, Math.min(n - out.length + WINDOW, FIRST_MAX)).map((d) => d.getTime());
      const end = window[window.length - 1]!;
      const { taken, last } = await this.#store.slotsUpTo(db, q.id, after, new Date(end));
      if (add(window, taken)) return out;
      // Nothing is taken after the window: the slots that follow are free too, by arithmetic.
      if (!last || last.getTime() <= end) return out.concat(grid.next(new Date(end), n - out.length));
      // Taken slots lie beyond it: the grid's slots up to the latest, in runs of RUN; one statement finds the first run
      // with room and reads its live slots.
      const rest = grid.between(new Date(end), last, MAX_CANDIDATES);
      if (!rest.length) return out.concat(grid.next(last, n - out.length));
      const starts: number[] = [];
      for (let i = 0; i < rest.length; i += RUN) starts.push(rest[i]!);
      const restEnd = rest[rest.length - 1]!;
      const found = await this.#store.firstRunWithRoom(db, q.id, starts, RUN, restEnd);
      const runEnd = Math.min(rest.length, (found.index + 1) * RUN);
      if (add(rest.slice(found.index * RUN, runEnd), found.taken)) return out;
      // The last run read without room (or too little) up to the latest live slot: the slots after it are free.
      if (runEnd === rest.length && rest.length < MAX_CANDIDATES)
        return out.concat(grid.next(new Date(restEnd), n - out.length));
      // More slots wanted, a slot off the grid in that run, or candidates short of the latest live slot: go on.
      after = new Date(rest[runEnd - 1]!);
    }
  }

  /**
   * The next `n` free slots, for posts taking them now (under the queue's lock): every slot from the first after
   * `from` to the last of them is then taken, and that run is recorded, so that the next lookup starts after it.
   */
  async taking(tx: Db, q: QueueRow, grid: SlotGrid, from: Date, n: number): Promise<Date[]> {
    const start = this.inRun(q, grid, from) ? q.filledFrom! : grid.next(from, 1)[0];
    const at = await this.free(tx, q, grid, from, n);
    const last = at[at.length - 1];
    if (start && last && at.length === n) await this.#store.setFilled(tx, q.id, start, last, grid.timeZone);
    return at;
  }

  /** Walks the slots after `from` beside the taken ones (read a page at a time) until `visit` says stop. */
  async walk(
    db: Db,
    queueId: string,
    grid: SlotGrid,
    from: Date,
    visit: (at: Date, taken: TakenSlot | undefined) => boolean,
  ): Promise<void> {
    let page = await this.#store.takenAfter(db, queueId, from, PAGE);
    let i = 0;
    for (const at of grid.after(from)) {
      const t = at.getTime();
      for (;;) {
        while (i < page.length && page[i]!.slotAt.getTime() < t) i++;
        if (i < page.length || page.length < PAGE) break;
        page = await this.#store.takenAfter(db, queueId, page[page.length - 1]!.slotAt, PAGE);
        i = 0;
      }
      const hit = page[i]?.slotAt.getTime() === t ? page[i] : undefined;
      if (visit(at, hit)) return;
    }
  }
}
