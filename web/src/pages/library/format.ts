// Numbers of the media library shown to people: sizes, durations, dimensions, and the filters' query.

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB" (powers of 1024, one decimal under 10, none above). */
export function formatBytes(bytes: number): string {
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = u === 0 || v >= 10 ? 0 : 1;
  return `${v.toFixed(digits)} ${UNITS[u]}`;
}

/** 75.4 → "1:15", 3725 → "1:02:05". */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}

export function formatDimensions(width: number | null, height: number | null): string | null {
  return width && height ? `${width} × ${height}` : null;
}

export type DateFilter = 'all' | '7' | '30' | '90';

/** Items uploaded within the last `days` days (GET /media has no date filter: the page filters what it loaded). */
export function withinDays<T extends { uploaded_at: string }>(items: T[], filter: DateFilter, now: number): T[] {
  if (filter === 'all') return items;
  const since = now - Number(filter) * 86_400_000;
  return items.filter((m) => Date.parse(m.uploaded_at) >= since);
}
