// What counts as a date-time on Herald's wire: ISO 8601 with an offset, naming an instant that exists.
// Used by request validation (publishing) and by scheduling, so it sits below both.

// Date, 'T', time with optional seconds and fraction, then Z or ±hh:mm (±hhmm accepted too).
const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/i;

export const DATE_TIME_RULE =
  'must be an ISO 8601 date-time with a UTC offset that exists on the calendar (e.g. 2026-01-31T09:00:00Z or 2026-01-31T10:00:00+01:00)';

/**
 * Whether `value` is an ISO 8601 date-time with an offset naming a real instant. `Date` would roll
 * 2027-02-30 over to March 2 and 24:00 to the next day, so every field is checked against the calendar.
 */
export function isRealDateTime(value: string): boolean {
  const m = ISO_WITH_OFFSET.exec(value.trim());
  if (!m) return false;
  const [year, month, day, hour, minute, second = 0, offH = 0, offM = 0] = m
    .slice(1)
    .map((g) => (g === undefined ? undefined : Number(g))) as number[];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour! <= 23 &&
    minute! <= 59 &&
    second <= 59 &&
    offH <= 23 &&
    offM <= 59
  );
}
