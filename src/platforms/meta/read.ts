// Pieces the three Meta read sides share (Facebook Pages, Instagram, Threads): the insights answer
// `{data: [{name, period, values: [{value}]}]}` (or `total_value: {value}`), Graph's timestamps, bounded fan-out of
// per-post calls, and the `{data, paging}` list envelope.
import type { RemotePost } from '../engagement.ts';
import { isRecord, num, str } from './graph.ts';

/**
 * Metric name → number from an insights answer. A value can be a number or an object of numbers by type
 * (`post_reactions_by_type_total`), which is summed; a series' last point is the current value.
 */
export function insightValues(body: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  const rows = isRecord(body) && Array.isArray(body.data) ? body.data.filter(isRecord) : [];
  for (const row of rows) {
    const name = str(row.name);
    if (!name) continue;
    let value: unknown;
    if (isRecord(row.total_value)) value = row.total_value.value;
    else if (Array.isArray(row.values)) value = row.values.filter(isRecord).at(-1)?.value;
    const n =
      num(value) ?? (isRecord(value) ? Object.values(value).reduce<number>((sum, v) => sum + (num(v) ?? 0), 0) : null);
    if (n !== null) out[name] = n;
  }
  return out;
}

/** Graph's `2026-11-21T12:00:00+0000` (or any Date.parse-able time) as ISO 8601; null when absent or unreadable. */
export function isoTime(value: unknown): string | null {
  const s = str(value);
  if (!s) return null;
  const ms = Date.parse(s.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/**
 * What an Instagram or Threads media item shows, by its type: a carousel's children (a video child by its
 * thumbnail), one image, or the video and its thumbnail.
 */
export function mediaOf(item: Record<string, unknown>, type: RemotePost['type']): Pick<RemotePost, 'images' | 'video'> {
  const children = isRecord(item.children) ? listItems(item.children) : [];
  const images =
    type === 'carousel'
      ? children.map((c) => ({ url: str(c.media_type) === 'VIDEO' ? str(c.thumbnail_url) : str(c.media_url) }))
      : type === 'image'
        ? [{ url: str(item.media_url) }]
        : [];
  return {
    images,
    video: type === 'video' ? { videoUrl: str(item.media_url), thumbnailUrl: str(item.thumbnail_url) } : null,
  };
}

/** The `data` items of a Graph list answer. */
export function listItems(body: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(body.data) ? body.data.filter(isRecord) : [];
}

/** `summary.total_count` of an edge read with `.summary(true)` (reactions, comments). */
export function summaryCount(edge: unknown): number {
  return isRecord(edge) && isRecord(edge.summary) ? (num(edge.summary.total_count) ?? 0) : 0;
}

/** Runs `fn` over `items` with at most `width` calls in flight; results in input order. */
export async function mapBounded<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

/** How many per-post insights reads run at once: Meta counts calls per app and account, so keep the burst small. */
export const INSIGHTS_WIDTH = 4;
