// Posting queues: named weekly slots per workspace, and posts that take the next free slot. A queued post is an
// ordinary scheduled post (the same entries, worker and ledger) whose entries name the slot they took; the slot is
// taken in the transaction that creates them (publishing's `slot` hook), under the queue row's lock and the unique
// index of live slots. Finding the free slots is queue-search.ts.
import type { Principal } from '../auth/authenticate.ts';
import type { Db } from '../db/client.ts';
import { AppError, conflict, notFound, validationField } from '../errors.ts';
import { parsePlatforms, splitPlatforms } from '../platforms/arguments.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { Networks } from '../platforms/registry.ts';
import {
  type PostBody,
  type PublishingService,
  type PublishReply,
  type QueueSlotClaim,
  requestHash,
  type ScheduledEntryRef,
} from '../publishing/index.ts';
import type { ScheduleQueue } from './queue.ts';
import { SlotSearch } from './queue-search.ts';
import { normalizeSlots, SlotGrid, type WeeklySlot } from './queue-slots.ts';
import type { MovedEntry, QueueRow, QueueStore, TakenSlot } from './queue-store.ts';
import type { ScheduledRow } from './store.ts';
import { localIso } from './time.ts';
import { toWire } from './wire.ts';

export const DEFAULT_QUEUE = 'default';
/** The default queue's slots until it is changed: weekdays at 09:00, 12:00 and 17:00. */
export const DEFAULT_SLOTS: WeeklySlot[] = (['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const).flatMap(
  (day) => ['09:00', '12:00', '17:00'].map((time) => ({ day, time })),
);
const PAGE = 1000;

export interface QueueInput {
  time_zone?: string | null | undefined;
  slots?: WeeklySlot[] | undefined;
  platforms?: string[] | null | undefined;
  paused?: boolean | undefined;
}

export interface QueueView {
  name: string;
  time_zone: string;
  time_zone_override: string | null;
  slots: WeeklySlot[];
  platforms: string[] | null;
  paused: boolean;
  paused_at: string | null;
  queued_posts: number;
  created_at: string | null;
  updated_at: string | null;
}

export interface QueueDeps {
  store: QueueStore;
  publishing: PublishingService;
  clock: () => Date;
  /** The workspace's time zone (a queue without its own uses it). */
  timeZoneOf: (workspaceId: string) => Promise<string>;
  /** Wake-ups at each entry's time (pg-boss), sent after the rows are committed. */
  queue?: ScheduleQueue | undefined;
  /** The registry: a queue's networks must be known ones. */
  networks: Pick<Networks, 'has' | 'slugs'>;
}

/** Whether `tz` is an IANA zone Intl knows; a 422 at `field` otherwise. */
export function checkTimeZone(tz: string, field: (string | number)[]): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw validationField(field, `Unknown time zone '${tz}': use an IANA name such as Europe/Paris.`);
  }
}

export class QueueService {
  readonly #d: QueueDeps;
  readonly #search: SlotSearch;

  constructor(deps: QueueDeps) {
    this.#d = deps;
    this.#search = new SlotSearch(deps.store);
  }

  get store(): QueueStore {
    return this.#d.store;
  }

  #view(name: string, row: QueueRow | undefined, wsTz: string, waiting: number): QueueView {
    const own = row?.timeZone ?? null;
    return {
      name,
      time_zone: own ?? wsTz,
      time_zone_override: own,
      slots: row ? (row.slots as WeeklySlot[]) : DEFAULT_SLOTS,
      platforms: (row?.platforms as string[] | null | undefined) ?? null,
      paused: row?.paused ?? false,
      paused_at: row?.pausedAt?.toISOString() ?? null,
      queued_posts: waiting,
      created_at: row?.createdAt.toISOString() ?? null,
      updated_at: row?.updatedAt.toISOString() ?? null,
    };
  }

  #grid(row: QueueRow | undefined, wsTz: string): SlotGrid {
    return new SlotGrid(row ? (row.slots as WeeklySlot[]) : DEFAULT_SLOTS, row?.timeZone ?? wsTz);
  }

  async #find(workspaceId: string, name: string, db?: Db): Promise<QueueRow | undefined> {
    const row = await this.#d.store.get(workspaceId, name, db);
    if (!row && name !== DEFAULT_QUEUE) throw notFound(`Queue '${name}' not found`);
    return row;
  }

  async list(p: Principal): Promise<QueueView[]> {
    const [rows, waiting, tz] = await Promise.all([
      this.#d.store.list(p.workspaceId),
      this.#d.store.waiting(p.workspaceId),
      this.#d.timeZoneOf(p.workspaceId),
    ]);
    const views = rows.map((r) => this.#view(r.name, r, tz, waiting.get(r.id) ?? 0));
    if (!rows.some((r) => r.name === DEFAULT_QUEUE)) views.unshift(this.#view(DEFAULT_QUEUE, undefined, tz, 0));
    return views.sort((a, b) => (a.name === DEFAULT_QUEUE ? -1 : b.name === DEFAULT_QUEUE ? 1 : 0));
  }

  async get(p: Principal, name: string): Promise<QueueView> {
    const row = await this.#find(p.workspaceId, name);
    const waiting = row ? ((await this.#d.store.waiting(p.workspaceId)).get(row.id) ?? 0) : 0;
    return this.#view(name, row, await this.#d.timeZoneOf(p.workspaceId), waiting);
  }

  async create(p: Principal, name: string, input: QueueInput): Promise<QueueView> {
    if (name === DEFAULT_QUEUE) throw conflict(`Queue '${name}' already exists; change it with PATCH.`);
    const row = await this.#d.store.insert(p.workspaceId, name, {
      timeZone: input.time_zone ? checkTimeZone(input.time_zone, ['body', 'time_zone']) : null,
      slots: normalizeSlots(input.slots ?? DEFAULT_SLOTS),
      platforms: this.#platforms(input.platforms) ?? null,
      paused: input.paused ?? false,
    });
    if (!row) throw conflict(`Queue '${name}' already exists`);
    return this.#view(name, row, await this.#d.timeZoneOf(p.workspaceId), 0);
  }

  /** Changes slots, zone, networks or pause. Resuming moves the posts whose slot passed while paused (see docs). */
  async update(p: Principal, name: string, input: QueueInput): Promise<QueueView> {
    const wsTz = await this.#d.timeZoneOf(p.workspaceId);
    const timeZone =
      input.time_zone === undefined
        ? undefined
        : input.time_zone === null
          ? null
          : checkTimeZone(input.time_zone, ['body', 'time_zone']);
    const moved: MovedEntry[] = [];
    const row = await this.#d.store.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const q = await this.#d.store.lock(tx, p.workspaceId, name, this.#defaults(name));
      if (!q) throw notFound(`Queue '${name}' not found`);
      const now = this.#d.clock();
      const set: Parameters<QueueStore['update']>[2] = {};
      if (timeZone !== undefined) set.timeZone = timeZone;
      if (input.slots !== undefined) set.slots = normalizeSlots(input.slots);
      if (input.platforms !== undefined) set.platforms = this.#platforms(input.platforms);
      // Other slots or another zone: the recorded run of taken slots was of the old grid.
      if (set.slots !== undefined || set.timeZone !== undefined)
        Object.assign(set, { filledFrom: null, filledTo: null, filledZone: null });
      if (input.paused === true && !q.paused) {
        Object.assign(set, { paused: true, pausedAt: now });
        await this.#d.store.hold(tx, q.id, true);
      }
      const resumed = input.paused === false && q.paused;
      if (resumed) Object.assign(set, { paused: false, pausedAt: null });
      const saved = await this.#d.store.update(tx, q.id, set);
      if (resumed) {
        await this.#d.store.hold(tx, q.id, false);
        moved.push(...(await this.#reslotPassed(tx, saved, this.#grid(saved, wsTz), now)));
      }
      return saved;
    });
    await this.#wake(moved);
    const waiting = (await this.#d.store.waiting(p.workspaceId)).get(row.id) ?? 0;
    return this.#view(name, row, wsTz, waiting);
  }

  /** Deletes a queue; its posts stay scheduled at their times. The default queue cannot be deleted. */
  async remove(p: Principal, name: string): Promise<void> {
    if (name === DEFAULT_QUEUE) throw conflict('The default queue cannot be deleted; change its slots instead.');
    await this.#d.store.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const q = await this.#d.store.lock(tx, p.workspaceId, name);
      if (!q) throw notFound(`Queue '${name}' not found`);
      await this.#d.store.remove(tx, q.id);
    });
  }

  /** The next `count` free slots, without the queue's view: the lookup a post into the queue makes. */
  async nextFree(workspaceId: string, name: string, count: number): Promise<Date[]> {
    const [row, wsTz] = await Promise.all([this.#find(workspaceId, name), this.#d.timeZoneOf(workspaceId)]);
    return this.#search.free(this.#d.store.db, row, this.#grid(row, wsTz), this.#d.clock(), count);
  }

  /** The next `count` free slots of the queue (a preview: nothing is taken). */
  async nextSlots(p: Principal, name: string, count: number): Promise<{ queue: QueueView; slots: Date[] }> {
    const queue = await this.get(p, name);
    const row = await this.#d.store.get(p.workspaceId, name);
    const grid = this.#grid(row, queue.time_zone);
    return { queue, slots: await this.#search.free(this.#d.store.db, row, grid, this.#d.clock(), count) };
  }

  /**
   * Why the queue cannot take posts for `platforms` now (bulk import rows, feed items): unknown, paused (its posts
   * would be held), without slots, or limited to other networks. Undefined when it can.
   */
  async refusal(workspaceId: string, name: string, platforms: readonly string[]): Promise<string | undefined> {
    const row = await this.#d.store.get(workspaceId, name);
    if (!row && name !== DEFAULT_QUEUE) return `Queue '${name}' not found.`;
    if (row?.paused) return `Queue '${name}' is paused: resume it, or give the post a time.`;
    if (row && !(row.slots as WeeklySlot[]).length) return `Queue '${name}' has no slots.`;
    const allowed = row?.platforms as string[] | null | undefined;
    const outside = allowed ? platforms.filter((pl) => !allowed.includes(pl)) : [];
    if (outside.length) return `Queue '${name}' only posts to ${allowed!.join(', ')}; not to ${outside.join(', ')}.`;
    return undefined;
  }

  /**
   * Takes the next `count` free slots of the queue inside the caller's transaction, under the queue's lock (as a post
   * into the queue does): bulk import's rows naming it, in order. A rollback frees them with the rest. Nothing in it
   * reads outside `tx`.
   */
  async takeSlots(
    tx: Db,
    workspaceId: string,
    name: string,
    count: number,
    /** The workspace's zone, read before the transaction (on PGlite a read outside it would wait for it). */
    wsTz: string,
  ): Promise<QueueSlotClaim[]> {
    const q = await this.#d.store.lock(tx, workspaceId, name, this.#defaults(name));
    if (!q) throw notFound(`Queue '${name}' not found`);
    const at = await this.#search.taking(tx, q, this.#grid(q, wsTz), this.#d.clock(), count);
    if (at.length < count) throw conflict(`Queue '${name}' has no slots`);
    const ids = await this.#d.store.takeMany(tx, q.id, at);
    return at.map((a, i) => ({ at: a, queueSlotId: ids[i]!, held: q.paused }));
  }

  /**
   * A post into the queue's next free slot, or with `shareNext` into its first slot, moving the posts of the slots
   * that follow down one slot each, up to the first free one. Answers like POST /unified/scheduled-posts plus `queue`.
   */
  async add(
    p: Principal,
    name: string,
    postType: PostType,
    body: PostBody,
    o: { shareNext?: boolean | undefined; idempotencyKey?: string | undefined },
  ): Promise<PublishReply<object>> {
    if (body.draft || body.draft_platforms?.length)
      throw new AppError('validation', 'draft and draft_platforms are not accepted in a queue.');
    if (body.scheduled_time) throw validationField(['body', 'scheduled_time'], 'The queue picks the time.');
    for (const [k, v] of Object.entries(body))
      if (v && typeof v === 'object' && 'scheduled_time' in v)
        throw validationField(['body', k, 'scheduled_time'], 'The queue picks the time.');
    const row = await this.#find(p.workspaceId, name);
    const wsTz = await this.#d.timeZoneOf(p.workspaceId);
    const allowed = row?.platforms as string[] | null | undefined;
    const outside = allowed ? (body.platforms ?? []).filter((pl) => !allowed.includes(pl)) : [];
    if (outside.length)
      throw validationField(
        ['body', 'platforms'],
        `Queue '${name}' only posts to ${allowed!.join(', ')}; not to ${outside.join(', ')}.`,
      );
    const now = this.#d.clock();
    const grid = this.#grid(row, wsTz);
    // A time for the checks before the transaction (it must be in the future); the slot itself is taken inside.
    const [provisional] = grid.next(now, 1);
    if (!provisional) throw conflict(`Queue '${name}' has no slots`);
    const moved: MovedEntry[] = [];
    const shareNext = o.shareNext === true;
    const request = { queue: name, share_next: shareNext, post_type: postType, body };
    const reply = await this.#d.publishing.schedule(
      p,
      postType,
      { ...body, scheduled_time: provisional.toISOString() },
      {
        idempotencyKey: o.idempotencyKey,
        claim: { requestHash: requestHash({ route: 'queue', ...request }), request },
        slot: async (tx) => {
          const q = await this.#d.store.lock(tx, p.workspaceId, name, this.#defaults(name));
          if (!q) throw notFound(`Queue '${name}' not found`);
          const g = this.#grid(q, wsTz);
          const now = this.#d.clock();
          const at = shareNext
            ? await this.#shareNext(tx, q, g, now, moved)
            : (await this.#search.taking(tx, q, g, now, 1))[0];
          if (!at) throw conflict(`Queue '${name}' has no slots`);
          return { at, queueSlotId: await this.#d.store.take(tx, q.id, at), held: q.paused };
        },
        respond: (entries) => this.#answer(name, wsTz, row?.timeZone ?? wsTz, entries),
      },
    );
    await this.#wake(moved);
    return reply;
  }

  /**
   * After a queued entry left its slot (cancelled): with `reflow`, once the slot is free, every later post of the
   * queue moves up one slot (the first into the freed one, the next into the first's, and so on).
   */
  async reflow(workspaceId: string, row: ScheduledRow): Promise<void> {
    if (!row.queueSlotId) return;
    const slot = await this.#d.store.queueOfSlot(row.queueSlotId);
    if (!slot?.releasedAt || slot.slotAt.getTime() <= this.#d.clock().getTime()) return;
    const moved: MovedEntry[] = [];
    await this.#d.store.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const q = await this.#d.store.lock(tx, workspaceId, slot.name);
      if (!q || q.id !== slot.queueId) return;
      let to = slot.slotAt;
      let after = slot.slotAt;
      for (;;) {
        const later = await this.#d.store.takenAfter(tx, q.id, after, PAGE);
        for (const s of later) {
          moved.push(...(await this.#d.store.move(tx, s.id, to, 'queue reflow: moved up one slot')));
          to = s.slotAt;
        }
        if (later.length < PAGE) break;
        after = later[later.length - 1]!.slotAt;
      }
    });
    await this.#wake(moved);
  }

  /** Known networks, lower-cased and without repeats (400 for an unknown one, as on every route). */
  #platforms(list: string[] | null | undefined): string[] | null | undefined {
    return list ? parsePlatforms(this.#d.networks, splitPlatforms(list)) : list;
  }

  #defaults(name: string) {
    return name === DEFAULT_QUEUE ? { slots: DEFAULT_SLOTS } : undefined;
  }

  #answer(name: string, wsTz: string, queueTz: string, entries: ScheduledEntryRef[]): PublishReply<object> {
    const now = this.#d.clock();
    const items = (entries as ScheduledRow[]).map((r) => toWire(r, wsTz, now));
    const at = entries[0]!.scheduledTime;
    return {
      status: 200,
      body: {
        success: true,
        message: 'Queued',
        scheduled: entries.map((e) => ({
          platform: e.platform,
          scheduled_post_id: e.id,
          scheduled_time: e.scheduledTime.toISOString(),
        })),
        data: { scheduled_posts: items, total: items.length },
        queue: { name, slot_time: at.toISOString(), slot_time_local: localIso(at, queueTz), time_zone: queueTz },
        error: null,
      },
    };
  }

  /** Share next: the first slot; the run of taken slots from it moves down one slot each, into the first free one. */
  async #shareNext(tx: Db, q: QueueRow, grid: SlotGrid, now: Date, moved: MovedEntry[]): Promise<Date | undefined> {
    const run: TakenSlot[] = [];
    let free: Date | undefined;
    await this.#search.walk(tx, q.id, grid, now, (at, taken) => {
      if (taken) run.push(taken);
      else free = at;
      return !taken;
    });
    if (!free) return undefined;
    for (let i = run.length - 1; i >= 0; i--) {
      const to = i === run.length - 1 ? free : run[i + 1]!.slotAt;
      moved.push(...(await this.#d.store.move(tx, run[i]!.id, to, 'share next: moved down one slot')));
    }
    return run[0]?.slotAt ?? free;
  }

  /** On resume: posts whose slot passed while paused take the next free slots, in their order. */
  async #reslotPassed(tx: Db, q: QueueRow, grid: SlotGrid, now: Date): Promise<MovedEntry[]> {
    const moved: MovedEntry[] = [];
    if (grid.empty) return moved;
    for (const s of await this.#d.store.passed(tx, q.id, now)) {
      const [at] = await this.#search.free(tx, q, grid, now, 1);
      if (at) moved.push(...(await this.#d.store.move(tx, s.id, at, 'queue resumed: its slot passed while paused')));
    }
    return moved;
  }

  async #wake(moved: MovedEntry[]): Promise<void> {
    for (const m of moved) await this.#d.queue?.send(m.id, m.scheduledTime);
  }
}
