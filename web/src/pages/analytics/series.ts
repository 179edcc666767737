// Chart series from the stored metric history (GET /unified/posts/{id}/metrics: each refresh's numbers of a post,
// oldest first). A network's curve on a day is the sum, over its posts, of each post's last known number at the end
// of that day (a post not yet measured counts 0). Times are UTC milliseconds in, uPlot's seconds out.

export const METRICS = ['impression_count', 'like_count', 'comment_count', 'share_count'] as const;
export type Metric = (typeof METRICS)[number];

export interface Snapshot {
  at: string;
  like_count: number;
  comment_count: number;
  share_count: number;
  impression_count: number;
  reach: number | null;
}

export interface PostHistory {
  platform: string;
  postId: string;
  series: Snapshot[];
}

export interface PostNumbers {
  post_id: string;
  published_at: string | null;
  like_count?: number;
  comment_count?: number;
  share_count?: number;
  impression_count?: number;
}

export interface Range {
  from: number;
  to: number;
}

export const RANGE_PRESETS = [7, 30, 90] as const;
const DAY = 86_400_000;

/** The last `days` days up to `now` (the start at midnight UTC, so buckets are whole days). */
export function presetRange(days: number, now: number): Range {
  const today = Math.floor(now / DAY) * DAY;
  return { from: today - (days - 1) * DAY, to: now };
}

/** A range from two `YYYY-MM-DD` inputs (whole days, UTC); null when a date is missing or the order is wrong. */
export function customRange(from: string, to: string): Range | null {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b) || b < a) return null;
  return { from: a, to: b + DAY - 1 };
}

/** Ends of the daily buckets of a range: each day's last millisecond, the last one cut at the range's end. */
export function dayEnds(range: Range): number[] {
  const out: number[] = [];
  for (let start = Math.floor(range.from / DAY) * DAY; start <= range.to; start += DAY)
    out.push(Math.min(start + DAY - 1, range.to));
  return out;
}

/** A post's value of `metric` at `t`: its last snapshot at or before `t`, else 0. Snapshots are oldest first. */
function valueAt(series: Snapshot[], metric: Metric, t: number): number {
  let v = 0;
  for (const s of series) {
    if (Date.parse(s.at) > t) break;
    v = s[metric];
  }
  return v;
}

export interface ChartData {
  /** x values in seconds (uPlot's unit) */
  xs: number[];
  series: { label: string; values: number[] }[];
}

/** One curve per network: the daily sum of its posts' numbers. Networks are in first-seen order. */
export function networkSeries(histories: PostHistory[], metric: Metric, range: Range): ChartData {
  const ends = dayEnds(range);
  const byNetwork = new Map<string, number[]>();
  for (const h of histories) {
    const sorted = [...h.series].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const values = byNetwork.get(h.platform) ?? ends.map(() => 0);
    ends.forEach((t, i) => {
      values[i] = (values[i] ?? 0) + valueAt(sorted, metric, t);
    });
    byNetwork.set(h.platform, values);
  }
  return {
    xs: ends.map((t) => Math.floor(t / 1000)),
    series: [...byNetwork].map(([label, values]) => ({ label, values })),
  };
}

/** One post's curves, one per metric, at each of its snapshots inside the range. */
export function postSeries(history: Snapshot[], range: Range): ChartData {
  const inside = history
    .filter((s) => {
      const t = Date.parse(s.at);
      return t >= range.from && t <= range.to;
    })
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return {
    xs: inside.map((s) => Math.floor(Date.parse(s.at) / 1000)),
    series: METRICS.map((m) => ({ label: m, values: inside.map((s) => s[m]) })),
  };
}

/** Posts published inside the range (posts without a date are left out). */
export function postsInRange<T extends PostNumbers>(posts: T[], range: Range): T[] {
  return posts.filter((p) => {
    const t = p.published_at ? Date.parse(p.published_at) : Number.NaN;
    return t >= range.from && t <= range.to;
  });
}

export type Totals = Record<Metric, number> & { posts: number };

/** Sums of the posts' current numbers. */
export function totalsOf(posts: PostNumbers[]): Totals {
  const t: Totals = { posts: posts.length, impression_count: 0, like_count: 0, comment_count: 0, share_count: 0 };
  for (const p of posts) for (const m of METRICS) t[m] += p[m] ?? 0;
  return t;
}

/** Rows of the charts' text alternative: one per x value, the label and each series' value. */
export function tableRows(data: ChartData, formatX: (seconds: number) => string): string[][] {
  return data.xs.map((x, i) => [formatX(x), ...data.series.map((s) => String(s.values[i] ?? 0))]);
}
