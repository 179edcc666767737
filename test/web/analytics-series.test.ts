import { describe, expect, it } from 'vitest';
import {
  customRange,
  dayEnds,
  networkSeries,
  postSeries,
  postsInRange,
  presetRange,
  type Snapshot,
  tableRows,
  totalsOf,
} from '../../web/src/pages/analytics/series.ts';

const snap = (at: string, likes: number, impressions = 0): Snapshot => ({
  at,
  like_count: likes,
  comment_count: 0,
  share_count: 0,
  impression_count: impressions,
  reach: null,
});

const range = customRange('2026-11-01', '2026-11-03')!;

describe('analytics series', () => {
  it('builds ranges of whole UTC days', () => {
    expect(range).toEqual({ from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-11-04T00:00:00Z') - 1 });
    expect(customRange('2026-11-03', '2026-11-01')).toBeNull();
    expect(customRange('', '2026-11-01')).toBeNull();
    const now = Date.parse('2026-11-27T16:30:00Z');
    expect(presetRange(7, now)).toEqual({ from: Date.parse('2026-11-21T00:00:00Z'), to: now });
    expect(dayEnds(presetRange(7, now))).toHaveLength(7);
    expect(dayEnds(presetRange(7, now)).at(-1)).toBe(now);
  });

  it("sums each network's posts at the end of each day, carrying the last known number forward", () => {
    const data = networkSeries(
      [
        {
          platform: 'bluesky',
          postId: 'a',
          series: [snap('2026-11-01T10:00:00Z', 2), snap('2026-11-03T09:00:00Z', 5)],
        },
        { platform: 'bluesky', postId: 'b', series: [snap('2026-11-02T10:00:00Z', 1)] },
        { platform: 'linkedin', postId: 'c', series: [snap('2026-10-20T10:00:00Z', 7)] },
      ],
      'like_count',
      range,
    );
    expect(data.xs).toEqual([
      Date.parse('2026-11-02T00:00:00Z') / 1000 - 1,
      Date.parse('2026-11-03T00:00:00Z') / 1000 - 1,
      Date.parse('2026-11-04T00:00:00Z') / 1000 - 1,
    ]);
    expect(data.series).toEqual([
      { label: 'bluesky', values: [2, 3, 6] },
      { label: 'linkedin', values: [7, 7, 7] },
    ]);
  });

  it('sorts snapshots that arrive out of order', () => {
    const data = networkSeries(
      [{ platform: 'x', postId: 'a', series: [snap('2026-11-02T10:00:00Z', 9), snap('2026-11-01T10:00:00Z', 1)] }],
      'like_count',
      range,
    );
    expect(data.series[0]?.values).toEqual([1, 9, 9]);
  });

  it("gives one post's metrics at its snapshots inside the range", () => {
    const data = postSeries(
      [snap('2026-10-31T10:00:00Z', 1), snap('2026-11-02T10:00:00Z', 3, 40), snap('2026-11-01T10:00:00Z', 2, 20)],
      range,
    );
    expect(data.xs).toHaveLength(2);
    expect(data.series.map((s) => [s.label, s.values])).toEqual([
      ['impression_count', [20, 40]],
      ['like_count', [2, 3]],
      ['comment_count', [0, 0]],
      ['share_count', [0, 0]],
    ]);
    expect(tableRows(data, (x) => String(x))[1]).toEqual([String(data.xs[1]), '40', '3', '0', '0']);
  });

  it('selects posts published in the range and sums their numbers', () => {
    const posts = [
      { post_id: 'a', published_at: '2026-11-02T10:00:00Z', like_count: 2, impression_count: 10 },
      { post_id: 'b', published_at: '2026-10-02T10:00:00Z', like_count: 5 },
      { post_id: 'c', published_at: null, like_count: 5 },
      { post_id: 'd', published_at: '2026-11-03T23:59:00Z', comment_count: 4 },
    ];
    const inside = postsInRange(posts, range);
    expect(inside.map((p) => p.post_id)).toEqual(['a', 'd']);
    expect(totalsOf(inside)).toEqual({
      posts: 2,
      like_count: 2,
      impression_count: 10,
      comment_count: 4,
      share_count: 0,
    });
  });
});
