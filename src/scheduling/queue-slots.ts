// A posting queue's weekly slots as instants: weekday + HH:MM in an IANA time zone, turned into UTC with the zone's
// rules of that day. Pure: no database, no clock.
//
// Daylight saving time, decided once:
// - a wall time that does not exist (a 02:30 slot on a spring-forward day) runs at the first valid instant after it,
//   the instant the clocks jump (03:00 local in Europe/Paris); two slots in the same gap become one slot;
// - a wall time that happens twice (a 02:30 slot on a fall-back day) is the first of the two: it fires once.

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export interface WeeklySlot {
  day: Weekday;
  /** HH:MM, 24-hour clock. */
  time: string;
}

const DAY = 86_400_000;
const MINUTE = 60_000;
export const SLOT_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    offsetFormatters.set(timeZone, f);
  }
  return f;
}

/** The local wall clock of an instant, as if it were UTC (milliseconds). */
function wallOf(timeZone: string, at: number): number {
  const p: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(at))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!);
}

/** The zone's offset from UTC at an instant, in milliseconds. */
export function offsetAt(timeZone: string, at: number): number {
  const whole = Math.floor(at / 1000) * 1000;
  return wallOf(timeZone, whole) - whole;
}

/** The instant of a wall time (`wall`: the local time as if it were UTC) under the DST rules above. */
export function wallToInstant(timeZone: string, wall: number): number {
  const before = offsetAt(timeZone, wall - DAY);
  const after = offsetAt(timeZone, wall + DAY);
  const valid = (c: number) => offsetAt(timeZone, c) + c === wall;
  const a = wall - before;
  const b = wall - after;
  if (before === after && valid(a)) return a;
  const candidates = [a, b].filter(valid).sort((x, y) => x - y);
  if (candidates.length) return candidates[0]!;
  // A gap: the first instant whose offset is the later one (the jump), found to the minute.
  let lo = Math.min(a, b);
  let hi = Math.max(a, b);
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (offsetAt(timeZone, mid) === after) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The zone's offsets either side of a local day (14 hours before it starts and after it ends), remembered per zone:
 * every lookup of a queue walks the same days, and each offset costs an Intl formatting. Pure, so a bounded memo.
 */
const dayOffsetMemo = new Map<string, Map<number, number>>();
const DAY_MEMO_MAX = 100_000;
function dayOffsets(timeZone: string, day: number): number {
  let memo = dayOffsetMemo.get(timeZone);
  if (!memo) dayOffsetMemo.set(timeZone, (memo = new Map()));
  let both = memo.get(day);
  if (both === undefined) {
    const start = day * DAY;
    const o0 = offsetAt(timeZone, start - 14 * 3_600_000);
    const o1 = offsetAt(timeZone, start + DAY + 14 * 3_600_000);
    // NaN marks a day with a transition; otherwise the one offset of the whole day.
    both = o0 === o1 ? o0 : Number.NaN;
    if (memo.size >= DAY_MEMO_MAX) memo.clear();
    memo.set(day, both);
  }
  return both;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Slots sorted by weekday then time, repeats removed. */
export function normalizeSlots(slots: readonly WeeklySlot[]): WeeklySlot[] {
  const seen = new Set<string>();
  return [...slots]
    .sort((x, y) => WEEKDAYS.indexOf(x.day) - WEEKDAYS.indexOf(y.day) || minutesOf(x.time) - minutesOf(y.time))
    .filter((s) => {
      const key = `${s.day} ${s.time}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** A queue's weekly slots in its zone: the instants they fall on, counted and walked in order. */
export class SlotGrid {
  readonly timeZone: string;
  /** Minutes after midnight of each weekday's slots (Sunday 0), ascending. */
  readonly #byDay: number[][];
  readonly #perWeek: number;

  constructor(slots: readonly WeeklySlot[], timeZone: string) {
    this.timeZone = timeZone;
    this.#byDay = WEEKDAYS.map((d) =>
      [...new Set(slots.filter((s) => s.day === d).map((s) => minutesOf(s.time)))].sort((x, y) => x - y),
    );
    this.#perWeek = this.#byDay.reduce((n, d) => n + d.length, 0);
  }

  get empty(): boolean {
    return this.#perWeek === 0;
  }

  /** Local day number (days since 1970-01-01 on the zone's calendar) of an instant. */
  #dayOf(at: number): number {
    return Math.floor(wallOf(this.timeZone, at) / DAY);
  }

  /** The distinct instants of one local day's slots, ascending. */
  #instantsOfDay(day: number): number[] {
    const minutes = this.#byDay[(((day + 4) % 7) + 7) % 7]!;
    if (!minutes.length) return [];
    const start = day * DAY;
    // The offset is the same from well before the day to well after it: no transition that day, no per-slot work.
    const offset = dayOffsets(this.timeZone, day);
    const out: number[] = [];
    for (const m of minutes) {
      const wall = start + m * MINUTE;
      const at = Number.isNaN(offset) ? wallToInstant(this.timeZone, wall) : wall - offset;
      if (out[out.length - 1] !== at) out.push(at);
    }
    return out;
  }

  /** Every slot instant strictly after `from`, in order (endless unless the grid is empty). */
  *after(from: Date): Generator<Date> {
    if (this.empty) return;
    const t = from.getTime();
    for (let day = this.#dayOf(t) - 1; ; day++)
      for (const at of this.#instantsOfDay(day)) if (at > t) yield new Date(at);
  }

  /** The slot instants in (from, to], ascending, in milliseconds; the first `max` of them. */
  between(from: Date, to: Date, max = Number.POSITIVE_INFINITY): number[] {
    const f = from.getTime();
    const t = to.getTime();
    const out: number[] = [];
    if (this.empty || t <= f || max <= 0) return out;
    const last = this.#dayOf(t) + 1;
    for (let day = this.#dayOf(f) - 1; day <= last; day++)
      for (const at of this.#instantsOfDay(day)) if (at > f && at <= t && out.push(at) >= max) return out;
    return out;
  }

  /** The first `n` slot instants after `from`. */
  next(from: Date, n: number): Date[] {
    const out: Date[] = [];
    if (n <= 0) return out;
    for (const at of this.after(from)) {
      out.push(at);
      if (out.length >= n) break;
    }
    return out;
  }
}
