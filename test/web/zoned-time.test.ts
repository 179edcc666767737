// The composer's schedule picker reads and writes wall-clock times in the workspace's time zone, whatever the
// browser's (and this process's) zone: conversions both ways, daylight-saving jumps, zones off the hour.
import { describe, expect, it } from 'vitest';
import {
  exactZonedParts,
  fromZonedLocal,
  isTimeZone,
  offsetMinutes,
  toZonedLocal,
  zonedParts,
} from '../../web/src/compose/zoned-time.ts';

const iso = (d: Date | undefined) => d?.toISOString();

describe('fromZonedLocal', () => {
  it('reads a wall time in the zone, not in the process zone', () => {
    expect(iso(fromZonedLocal('2026-01-15T09:00', 'Europe/Sarajevo'))).toBe('2026-01-15T08:00:00.000Z');
    expect(iso(fromZonedLocal('2026-07-15T09:00', 'Europe/Sarajevo'))).toBe('2026-07-15T07:00:00.000Z');
    expect(iso(fromZonedLocal('2026-07-15T09:00', 'UTC'))).toBe('2026-07-15T09:00:00.000Z');
  });
  it('handles zones off the whole hour and across the date line', () => {
    expect(iso(fromZonedLocal('2026-03-01T00:15', 'Asia/Kathmandu'))).toBe('2026-02-28T18:30:00.000Z');
    expect(iso(fromZonedLocal('2026-06-01T12:00', 'Pacific/Chatham'))).toBe('2026-05-31T23:15:00.000Z');
    expect(iso(fromZonedLocal('2026-06-01T12:00', 'Pacific/Honolulu'))).toBe('2026-06-01T22:00:00.000Z');
  });
  it('moves a time skipped by a spring-forward jump forward by the jump', () => {
    // New York, 8 March 2026: 02:00 EST becomes 03:00 EDT.
    expect(iso(fromZonedLocal('2026-03-08T02:30', 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
    expect(toZonedLocal(fromZonedLocal('2026-03-08T02:30', 'America/New_York')!, 'America/New_York')).toBe(
      '2026-03-08T03:30',
    );
  });
  it('takes the first of the two readings of a time repeated by a fall-back jump', () => {
    // New York, 1 November 2026: 01:00–02:00 happens in EDT (UTC−4) then in EST (UTC−5).
    expect(iso(fromZonedLocal('2026-11-01T01:30', 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
  });
  it('accepts seconds and refuses what is not a local date-time', () => {
    expect(iso(fromZonedLocal('2026-01-15T09:00:30', 'UTC'))).toBe('2026-01-15T09:00:30.000Z');
    expect(fromZonedLocal('2026-01-15 09:00', 'UTC')).toBeUndefined();
    expect(fromZonedLocal('', 'UTC')).toBeUndefined();
  });
});

describe('toZonedLocal', () => {
  it('writes an instant as the wall time of the zone', () => {
    expect(toZonedLocal(new Date('2026-01-15T08:00:00Z'), 'Europe/Sarajevo')).toBe('2026-01-15T09:00');
    expect(toZonedLocal(new Date('2026-05-31T23:15:00Z'), 'Pacific/Chatham')).toBe('2026-06-01T12:00');
    expect(toZonedLocal(new Date('2026-01-01T00:00:00Z'), 'America/Los_Angeles')).toBe('2025-12-31T16:00');
  });
  it('round-trips every quarter hour of a year that has both jumps', () => {
    const zone = 'Europe/London';
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 15 * 60_000 * 97) {
      const local = toZonedLocal(new Date(t), zone);
      const back = fromZonedLocal(local, zone)!;
      expect(toZonedLocal(back, zone)).toBe(local);
    }
  });
});

describe('offsetMinutes and isTimeZone', () => {
  it('gives the offset east of UTC at an instant', () => {
    expect(offsetMinutes(new Date('2026-01-15T12:00:00Z'), 'Europe/Sarajevo')).toBe(60);
    expect(offsetMinutes(new Date('2026-07-15T12:00:00Z'), 'America/New_York')).toBe(-240);
    expect(offsetMinutes(new Date('2026-07-15T12:00:00Z'), 'Asia/Kathmandu')).toBe(345);
  });
  it('knows IANA zones from made-up names', () => {
    expect(isTimeZone('Europe/Sarajevo')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});

describe('zonedParts (offset of the day, Intl on a day of change)', () => {
  // Zones with jumps at odd hours, half-hour daylight saving, a skipped day, an offset change of 15 minutes and a
  // local mean time with seconds: every instant reads as Intl reads it.
  const cases: [string, number, number][] = [
    ['Europe/London', Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)],
    ['America/Sao_Paulo', Date.UTC(2017, 0, 1), Date.UTC(2018, 0, 1)],
    ['Australia/Lord_Howe', Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)],
    ['Pacific/Apia', Date.UTC(2011, 11, 25), Date.UTC(2012, 0, 5)],
    ['Asia/Kathmandu', Date.UTC(1985, 11, 25), Date.UTC(1986, 0, 5)],
    ['Europe/Amsterdam', Date.UTC(1937, 5, 25), Date.UTC(1937, 6, 5)],
  ];
  for (const [zone, from, to] of cases)
    it(`matches Intl in ${zone}`, () => {
      const step = to - from > 30 * 86_400_000 ? 97 * 60_000 + 1234 : 7 * 60_000 + 321;
      for (let t = from; t < to; t += step)
        expect(zonedParts(new Date(t), zone)).toEqual(exactZonedParts(new Date(t), zone));
    });
  it('reads instants outside the years 1000–9999 with Intl', () => {
    const far = new Date(Date.UTC(12000, 0, 1, 10));
    expect(zonedParts(far, 'Europe/Paris')).toEqual(exactZonedParts(far, 'Europe/Paris'));
  });
});
