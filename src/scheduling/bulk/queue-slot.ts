// Rows that name a queue instead of a time. While the rows are checked, each gets the slot it would take (a preview:
// the queue's next free slots, the n-th row naming a queue the n-th free one), so it is validated at that time and a
// validation reports it. The import takes the real slots inside its transaction, under the queue's lock, in row
// order: a rollback leaves no slot taken, and a slot another post took in between moves the row to the next free one.
import type { Db } from '../../db/client.ts';
import type { QueueSlotClaim } from '../../publishing/index.ts';

/** What bulk import needs of the posting queues (QueueService). */
export interface BulkQueues {
  /** Why the queue cannot take posts for these networks (unknown, paused, no slots, other networks), or undefined. */
  refusal(workspaceId: string, name: string, platforms: readonly string[]): Promise<string | undefined>;
  /** The next `count` free slots (nothing taken). */
  nextFree(workspaceId: string, name: string, count: number): Promise<Date[]>;
  /** Takes the next `count` free slots in `tx`, in order (`wsTz`: the workspace's zone). */
  takeSlots(tx: Db, workspaceId: string, name: string, count: number, wsTz: string): Promise<QueueSlotClaim[]>;
  /** The workspace's time zone. */
  timeZoneOf(workspaceId: string): Promise<string>;
}

/** A row placed in a queue by a validation: the slot it would take. */
export interface QueuedRow {
  row: number;
  queue: string;
  slot_time: string;
}

/** The queue slots of one import's rows: previewed while checking, taken when writing. */
export class QueuePlacer {
  readonly #queues: BulkQueues | undefined;
  readonly #workspaceId: string;
  /** Per queue: the free slots read so far, and how many rows were placed. */
  readonly #preview = new Map<string, { slots: Date[]; placed: number }>();
  /** The workspace's zone, read while checking: the import's transaction reads nothing outside itself. */
  #timeZone: string | undefined;

  constructor(queues: BulkQueues | undefined, workspaceId: string) {
    this.#queues = queues;
    this.#workspaceId = workspaceId;
  }

  /** The time of the slot the row would take (the next one after the rows placed before it), or why it cannot. */
  async place(queue: string, platforms: readonly string[]): Promise<Date | string> {
    if (!this.#queues) return 'queues are not available on this server: give the row a time instead.';
    this.#timeZone ??= await this.#queues.timeZoneOf(this.#workspaceId);
    const why = await this.#queues.refusal(this.#workspaceId, queue, platforms);
    if (why) return why;
    const at = (await this.#slots(queue, 1))[this.#preview.get(queue)!.placed];
    if (!at) return `Queue '${queue}' has no free slot.`;
    this.#preview.get(queue)!.placed++;
    return at;
  }

  /** The slots the valid rows would take: successive free slots of each queue, in row order. */
  async report(rows: readonly { row: number; queue?: string | undefined }[]): Promise<QueuedRow[]> {
    const used = new Map<string, number>();
    const out: QueuedRow[] = [];
    for (const r of rows) {
      if (!r.queue) continue;
      const i = used.get(r.queue) ?? 0;
      used.set(r.queue, i + 1);
      const at = (await this.#slots(r.queue, 0, i + 1))[i];
      if (at) out.push({ row: r.row, queue: r.queue, slot_time: at.toISOString() });
    }
    return out;
  }

  /** Takes the slots of the rows naming a queue, inside the import's transaction; undefined for the other rows. */
  async take(tx: Db, rows: readonly { queue?: string | undefined }[]): Promise<(QueueSlotClaim | undefined)[]> {
    const counts = new Map<string, number>();
    for (const r of rows) if (r.queue) counts.set(r.queue, (counts.get(r.queue) ?? 0) + 1);
    if (!counts.size) return rows.map(() => undefined);
    if (!this.#queues || !this.#timeZone) throw new Error('queue rows that were not placed');
    const taken = new Map<string, QueueSlotClaim[]>();
    // One queue after the other, in the order of their names: two imports lock the queues they share in one order.
    for (const name of [...counts.keys()].sort())
      taken.set(name, await this.#queues.takeSlots(tx, this.#workspaceId, name, counts.get(name)!, this.#timeZone));
    const next = new Map<string, number>();
    return rows.map((r) => {
      if (!r.queue) return undefined;
      const i = next.get(r.queue) ?? 0;
      next.set(r.queue, i + 1);
      return taken.get(r.queue)![i];
    });
  }

  /** At least `placed + extra` (or `atLeast`) free slots of the queue, read in growing pages. */
  async #slots(queue: string, extra: number, atLeast = 0): Promise<Date[]> {
    let p = this.#preview.get(queue);
    if (!p) this.#preview.set(queue, (p = { slots: [], placed: 0 }));
    const need = Math.max(p.placed + extra, atLeast);
    if (p.slots.length < need) {
      const count = Math.max(need, 2 * p.slots.length, 16);
      p.slots = await this.#queues!.nextFree(this.#workspaceId, queue, count);
    }
    return p.slots;
  }
}
