// Scheduled times: strict parsing (an offset is required, so a time is never guessed in some zone) and
// rendering in the workspace's time zone with Intl, never the process TZ.
import { AppError } from '../errors.ts';
import { DATE_TIME_RULE, isRealDateTime } from '../date-time.ts';

/** Parses `scheduled_time`; 422 unless it is a real ISO 8601 date-time with an offset, later than `now`. */
export function parseScheduledTime(value: string, now: Date, field = 'scheduled_time'): Date {
  if (!isRealDateTime(value)) throw new AppError('validation', `${field} ${DATE_TIME_RULE}. Received '${value}'.`);
  const at = new Date(value.trim());
  if (Number.isNaN(at.getTime())) throw new AppError('validation', `${field} is not a valid date-time: '${value}'.`);
  if (at.getTime() <= now.getTime())
    throw new AppError(
      'validation',
      `${field} must be in the future (now is ${now.toISOString()}). Received '${value}'.`,
    );
  return at;
}

export function validTimeZone(tz: string | null | undefined): string {
  if (!tz) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return 'UTC';
  }
}

// Building an Intl formatter costs far more than using one: one per zone and purpose, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'iso' | 'text', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}:${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f =
      kind === 'iso'
        ? new Intl.DateTimeFormat('en-US', {
            timeZone,
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
            hourCycle: 'h23',
            timeZoneName: 'longOffset',
          })
        : new Intl.DateTimeFormat('en-US', {
            timeZone,
            weekday: 'short',
            year: 'numeric',
            month: 'short',
            day: 'numeric',
            hour: 'numeric',
            minute: '2-digit',
          });
    formatters.set(key, f);
  }
  return f;
}

/** `2026-11-21T15:00:00+01:00`: the wall-clock time in the zone with its offset. */
export function localIso(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    formatter('iso', timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const offset = (parts.timeZoneName ?? 'GMT').replace('GMT', '') || '+00:00';
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** `Sat, Nov 21, 2026, 3:00 PM (Europe/Paris)`. */
export function formatted(at: Date, timeZone: string): string {
  const text = formatter('text', timeZone).format(at);
  return `${text} (${timeZone})`;
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "in 2 hours", "5 minutes ago": the largest whole unit. */
export function timeUntil(at: Date, now: Date): string {
  const diff = at.getTime() - now.getTime();
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'second') return relative.format(Math.trunc(diff / ms), unit);
  }
  return relative.format(0, 'second');
}
