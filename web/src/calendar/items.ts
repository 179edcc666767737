// What the calendar shows, from the API's three lists: queue entries (scheduled, publishing, published, failed),
// drafts, and posts published outside the queue (GET /unified/posts). Times become wall-clock times of the
// workspace's zone, written as if UTC, for a calendar told to run in UTC: the zone conversion stays in one tested
// module (zoned-time.ts) instead of a calendar time-zone plugin. Pure: no DOM.
import { TEXT_OVERRIDE } from '../compose/post.ts';
import { fromZonedLocal, toZonedLocal } from '../compose/zoned-time.ts';

export type CalendarStatus = 'scheduled' | 'publishing' | 'published' | 'failed' | 'cancelled' | 'draft';

export interface CalendarItem {
  /** Unique across the three lists. */
  id: string;
  source: 'queue' | 'draft' | 'post';
  status: CalendarStatus;
  platform: string;
  /** ISO 8601 instant. */
  at: string;
  text: string;
  error: string | null;
  permalink: string | null;
  /** The queue entry's id, for rescheduling and retrying. */
  queueId: string | null;
  publishedPostId: string | null;
  /** How many times publishing was started (queue entries). */
  attempts: number | null;
  /** The page or organization a published post is on (to delete it there). */
  pageId: string | null;
}

export interface QueueEntry {
  scheduled_post_id: string;
  platform: string;
  status: string;
  scheduled_time: string;
  published_at: string | null;
  post_data: Record<string, unknown>;
  error_message: string | null;
  published_post_url: string | null;
  published_post_id: string | null;
  attempts?: number;
}

export interface DraftEntry {
  id: string;
  platform: string;
  status: string;
  default_text: string | null;
  post_data: Record<string, unknown>;
  updated_at: string;
}

export interface PublishedPost {
  post_id: string;
  commentary: string | null;
  permalink: string | null;
  published_at: string | null;
  source_page_id?: string | null;
}

/** The text a stored body publishes on its network: the network's own field, else the common text. */
export function textOf(platform: string, data: Record<string, unknown>): string {
  const o = TEXT_OVERRIDE[platform];
  const own = o && (data[o.object] as Record<string, unknown> | undefined)?.[o.field];
  if (typeof own === 'string' && own.trim()) return own;
  if (own && typeof own === 'object') {
    const first = Object.values(own as Record<string, unknown>).find((v) => typeof v === 'string');
    if (typeof first === 'string') return first;
  }
  return typeof data.default_text === 'string' ? data.default_text : '';
}

export function queueItems(entries: QueueEntry[]): CalendarItem[] {
  return entries
    .filter((e) => e.status !== 'cancelled')
    .map((e) => ({
      id: `queue:${e.scheduled_post_id}`,
      source: 'queue',
      status: e.status as CalendarStatus,
      platform: e.platform,
      at: e.status === 'published' && e.published_at ? e.published_at : e.scheduled_time,
      text: textOf(e.platform, e.post_data),
      error: e.error_message,
      permalink: e.published_post_url,
      queueId: e.scheduled_post_id,
      publishedPostId: e.published_post_id,
      attempts: e.attempts ?? null,
      pageId: null,
    }));
}

export function draftItems(drafts: DraftEntry[]): CalendarItem[] {
  return drafts.map((d) => ({
    id: `draft:${d.id}`,
    source: 'draft',
    status: 'draft',
    platform: d.platform,
    at: d.updated_at,
    text: d.default_text ?? textOf(d.platform, d.post_data),
    error: null,
    permalink: null,
    queueId: null,
    publishedPostId: null,
    attempts: null,
    pageId: null,
  }));
}

/** Published posts not already in the queue (a queue entry that published names its post). */
export function postItems(byNetwork: Record<string, PublishedPost[]>, queue: CalendarItem[]): CalendarItem[] {
  const known = new Set(queue.map((q) => q.publishedPostId).filter(Boolean));
  return Object.entries(byNetwork).flatMap(([platform, posts]) =>
    posts
      .filter((p) => p.published_at && !known.has(p.post_id))
      .map((p) => ({
        id: `post:${platform}:${p.post_id}`,
        source: 'post' as const,
        status: 'published' as const,
        platform,
        at: p.published_at!,
        text: p.commentary ?? '',
        error: null,
        permalink: p.permalink,
        queueId: null,
        publishedPostId: p.post_id,
        attempts: null,
        pageId: p.source_page_id ?? null,
      })),
  );
}

/** An instant as the calendar's start: the zone's wall time, read by a calendar running in UTC. */
export const calendarStart = (iso: string, timeZone: string): string => toZonedLocal(new Date(iso), timeZone);

/** The instant a calendar date (a wall time of the zone, carried as UTC) names. */
export function instantOfCalendarDate(date: Date, timeZone: string): Date | undefined {
  return fromZonedLocal(date.toISOString().slice(0, 19), timeZone);
}

/** An item placed on the calendar: its start as the zone's wall time, and that wall time read as UTC, in ms. */
export interface PlacedItem {
  item: CalendarItem;
  start: string;
  startMs: number;
}

/** The items placed in the workspace's zone, sorted by start (for `itemsInRange`). */
export function placeItems(items: CalendarItem[], timeZone: string): PlacedItem[] {
  return items
    .map((item) => {
      const start = calendarStart(item.at, timeZone);
      return { item, start, startMs: Date.parse(`${start.length === 16 ? `${start}:00` : start}Z`) };
    })
    .sort((a, b) => a.startMs - b.startMs);
}

/** The first index of `placed` (sorted by start) whose start is at or after `ms`. */
function firstAtOrAfter(placed: PlacedItem[], ms: number): number {
  let lo = 0;
  let hi = placed.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (placed[mid]!.startMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The items of `placed` (sorted by start) starting in [from, to), calendar time in ms: what a view's range shows. */
export function itemsInRange(placed: PlacedItem[], from: number, to: number): PlacedItem[] {
  return placed.slice(firstAtOrAfter(placed, from), firstAtOrAfter(placed, to));
}
