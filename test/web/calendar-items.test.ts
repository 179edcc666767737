// The calendar's items: queue entries, drafts and published posts merged without doubles, each network's own text,
// and calendar dates carried as the workspace zone's wall time both ways.
import { describe, expect, it } from 'vitest';
import {
  calendarStart,
  draftItems,
  instantOfCalendarDate,
  itemsInRange,
  placeItems,
  postItems,
  queueItems,
  textOf,
} from '../../web/src/calendar/items.ts';

const entry = (o: Partial<Parameters<typeof queueItems>[0][number]>) => ({
  scheduled_post_id: 'q1',
  platform: 'threads',
  status: 'scheduled',
  scheduled_time: '2026-12-01T09:00:00.000Z',
  published_at: null,
  post_data: { default_text: 'common' },
  error_message: null,
  published_post_url: null,
  published_post_id: null,
  ...o,
});

describe('calendar items', () => {
  it('shows a queue entry at its time (a published one when it published) and leaves cancelled ones out', () => {
    const items = queueItems([
      entry({}),
      entry({
        scheduled_post_id: 'q2',
        status: 'published',
        published_at: '2026-12-01T09:00:05.000Z',
        published_post_id: 'p9',
      }),
      entry({ scheduled_post_id: 'q3', status: 'cancelled' }),
      entry({ scheduled_post_id: 'q4', status: 'failed', error_message: 'Threads said no' }),
    ]);
    expect(items.map((i) => [i.id, i.status, i.at])).toEqual([
      ['queue:q1', 'scheduled', '2026-12-01T09:00:00.000Z'],
      ['queue:q2', 'published', '2026-12-01T09:00:05.000Z'],
      ['queue:q4', 'failed', '2026-12-01T09:00:00.000Z'],
    ]);
    expect(items[2]!.error).toBe('Threads said no');
  });
  it("reads each network's own text from the stored body", () => {
    expect(textOf('threads', { default_text: 'common', threads: { threads_text: 'mine' } })).toBe('mine');
    expect(textOf('facebook', { default_text: 'c', facebook: { facebook_page_texts: { p1: 'page text' } } })).toBe(
      'page text',
    );
    expect(textOf('bluesky', { default_text: 'common' })).toBe('common');
  });
  it('adds published posts the queue does not already show', () => {
    const queue = queueItems([
      entry({ status: 'published', published_at: '2026-12-01T09:00:00Z', published_post_id: 'p1' }),
    ]);
    const posts = postItems(
      {
        threads: [
          { post_id: 'p1', commentary: 'dup', permalink: null, published_at: '2026-12-01T09:00:00Z' },
          { post_id: 'p2', commentary: 'now', permalink: 'https://t/p2', published_at: '2026-12-02T10:00:00Z' },
          { post_id: 'p3', commentary: 'no date', permalink: null, published_at: null },
        ],
      },
      queue,
    );
    expect(posts.map((p) => p.id)).toEqual(['post:threads:p2']);
    expect(posts[0]).toMatchObject({ status: 'published', permalink: 'https://t/p2', text: 'now' });
  });
  it('shows drafts as drafts', () => {
    const [d] = draftItems([
      {
        id: 'd1',
        platform: 'linkedin',
        status: 'draft',
        default_text: 'idea',
        post_data: {},
        updated_at: '2026-12-03T08:00:00Z',
      },
    ]);
    expect(d).toMatchObject({ id: 'draft:d1', status: 'draft', text: 'idea', at: '2026-12-03T08:00:00Z' });
  });
});

describe('calendar dates in the workspace zone', () => {
  it('places an instant at the wall time of the zone and reads a dropped date back to the instant', () => {
    expect(calendarStart('2026-12-01T09:00:00.000Z', 'Europe/Sarajevo')).toBe('2026-12-01T10:00');
    expect(calendarStart('2026-12-01T09:00:00.000Z', 'America/Los_Angeles')).toBe('2026-12-01T01:00');
    // Dropped on 3 December at 14:30 on a calendar running in UTC means 14:30 in Sarajevo.
    const dropped = new Date('2026-12-03T14:30:00Z');
    expect(instantOfCalendarDate(dropped, 'Europe/Sarajevo')?.toISOString()).toBe('2026-12-03T13:30:00.000Z');
  });
});

describe("a view's events", () => {
  const at = (iso: string, id: string) => queueItems([entry({ scheduled_post_id: id, scheduled_time: iso })])[0]!;
  const items = [
    at('2026-12-02T23:30:00.000Z', 'late'),
    at('2026-11-30T22:59:00.000Z', 'before'),
    at('2026-12-01T00:15:00.000Z', 'first'),
    at('2026-12-08T00:00:00.000Z', 'next-week'),
    at('2026-12-01T00:15:00.000Z', 'same-time'),
  ];
  const ms = (iso: string) => Date.parse(iso);

  it("places items at the zone's wall time, sorted by it", () => {
    const placed = placeItems(items, 'Europe/Sarajevo');
    expect(placed.map((p) => [p.item.queueId, p.start])).toEqual([
      ['before', '2026-11-30T23:59'],
      ['first', '2026-12-01T01:15'],
      ['same-time', '2026-12-01T01:15'],
      ['late', '2026-12-03T00:30'],
      ['next-week', '2026-12-08T01:00'],
    ]);
    expect(placed.every((p) => p.startMs === ms(`${p.start}:00Z`))).toBe(true);
  });

  it('gives the items starting in a range, start included and end excluded, on the wall time of the zone', () => {
    const placed = placeItems(items, 'Europe/Sarajevo');
    const ids = (from: string, to: string) => itemsInRange(placed, ms(from), ms(to)).map((p) => p.item.queueId);
    // The week of 1 December (Tuesday to Monday): 3 December 00:30 in Sarajevo is 2 December in UTC, and in.
    expect(ids('2026-12-01T00:00:00Z', '2026-12-08T00:00:00Z')).toEqual(['first', 'same-time', 'late']);
    expect(ids('2026-11-30T23:59:00Z', '2026-12-01T01:15:00Z')).toEqual(['before']);
    expect(ids('2026-12-08T01:00:00Z', '2026-12-08T01:01:00Z')).toEqual(['next-week']);
    expect(ids('2026-12-09T00:00:00Z', '2027-01-01T00:00:00Z')).toEqual([]);
    expect(ids('2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')).toHaveLength(5);
    expect(itemsInRange([], 0, Date.now())).toEqual([]);
  });
});
