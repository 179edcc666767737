// The time column: an ISO 8601 date-time with an offset, or a wall-clock time (no offset) read in the workspace's
// time zone. A wall-clock time that the zone skips (a daylight saving gap) is refused rather than moved.
import { isRealDateTime } from '../../date-time.ts';
import { localIso } from '../time.ts';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Milliseconds the zone is ahead of UTC at instant `t`. */
function offsetAt(t: number, timeZone: string): number {
  const wall = localIso(new Date(t), timeZone).slice(0, 19);
  return Date.parse(`${wall}Z`) - t;
}

/** The instant of `value`, or a message saying what is wrong with it. */
export function parseCellTime(value: string, timeZone: string): Date | string {
  const v = value.trim();
  if (isRealDateTime(v)) return new Date(v);
  const m = LOCAL.exec(v);
  if (!m)
    return `time must be an ISO 8601 date-time, with an offset (2026-01-31T09:00:00+01:00) or without one for the workspace's time zone ${timeZone} (2026-01-31 09:00). Received '${value}'.`;
  const wall = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}`;
  if (!isRealDateTime(`${wall}Z`)) return `time is not a date on the calendar: '${value}'.`;
  const asUtc = Date.parse(`${wall}Z`);
  let t = asUtc - offsetAt(asUtc, timeZone);
  t = asUtc - offsetAt(t, timeZone);
  if (localIso(new Date(t), timeZone).slice(0, 19) !== wall)
    return `time ${wall} does not exist in ${timeZone} (the clocks skip it): give another time or an offset.`;
  return new Date(t);
}
