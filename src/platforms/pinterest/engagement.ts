// The read side on Pinterest (API v5). Pins come from GET /v5/pins, or GET /v5/boards/{board_id}/pins for a board,
// with pin_metrics=true (newest first, page_size up to 250, bookmark paging); one pin from GET /v5/pins/{pin_id}.
// pin_metrics' lifetime figures give impressions, reactions (likes) and comments; saves — Pinterest's shares — come
// from GET /v5/pins/{pin_id}/analytics (metric SAVE), which only looks back 90 days: its lifetime figure when Pinterest
// gives one, else the sum of the last 90 days. The v5 API has no comment endpoints at all (only counts), so there is no
// comment inbox for Pinterest. DELETE /v5/pins/{pin_id} deletes a pin.
import type { Engagement, RemotePost, ReadTarget } from '../engagement.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { PinterestContext } from './context.ts';
import { readApi } from './errors.ts';
import { pinUrl } from './publish.ts';

type Obj = Record<string, unknown>;

/** The list endpoints' page maximum. */
const PAGE_MAX = 250;
/** How far back Pinterest's analytics answer (start_date at most 90 days before today, UTC). */
const ANALYTICS_DAYS = 90;
/** Analytics calls in flight at once while listing (they count against the org_analytics rate limit). */
const ANALYTICS_CONCURRENCY = 4;

export const PINTEREST_COMMENTS_UNAVAILABLE =
  "Pinterest's API (v5) offers no access to comments: Herald can show how many comments a pin has, but cannot list or answer them.";

const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The largest rendition of a pin image set ({ '150x150': {url, width, height}, … '1200x': … }). */
function largest(images: unknown): { url: string | null; width?: number | undefined; height?: number | undefined } {
  const sizes = Object.values(obj(images)).map(obj);
  const best = sizes.sort((a, b) => num(b.width) - num(a.width))[0];
  if (!best) return { url: null };
  return {
    url: str(best.url),
    ...(num(best.width) ? { width: num(best.width) } : {}),
    ...(num(best.height) ? { height: num(best.height) } : {}),
  };
}

function boardOf(p: ReadTarget): string | null {
  const d = p.destination;
  if (!d) return null;
  if (d.kind !== 'board' || !d.id)
    throw new PlatformError(
      'pinterest',
      'invalid_content',
      'Pinterest pins are read from a board (or the whole account)',
    );
  return d.id;
}

export function pinterestEngagement(ctx: PinterestContext): Engagement {
  const get = (tokens: TokenSet, path: string, query: Record<string, string | number | null | undefined> = {}) =>
    ctx.deps.http.request('pinterest', { url: `${ctx.apiBase}${path}`, query, headers: bearer(tokens.accessToken) });

  /** Saves of a pin: the analytics' lifetime SAVE, else the last 90 days'. */
  async function saves(tokens: TokenSet, pinId: string): Promise<number> {
    const today = ctx.deps.clock();
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const res = await get(tokens, `/v5/pins/${encodeURIComponent(pinId)}/analytics`, {
      start_date: day(new Date(today.getTime() - ANALYTICS_DAYS * 86_400_000)),
      end_date: day(today),
      metric_types: 'IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK',
      app_types: 'ALL',
      split_field: 'NO_SPLIT',
    });
    const all = obj(readApi(res, 'pin analytics').all);
    const lifetime = obj(all.lifetime_metrics);
    return typeof lifetime.SAVE === 'number' ? num(lifetime.SAVE) : num(obj(all.summary_metrics).SAVE);
  }

  function fromPin(pin: Obj, saved: number): RemotePost {
    const id = String(pin.id);
    const media = obj(pin.media);
    const kind = str(media.media_type);
    const lifetime = obj(obj(pin.pin_metrics).lifetime_metrics);
    const shape: Pick<RemotePost, 'type' | 'images' | 'video'> =
      kind === 'video'
        ? {
            type: 'video',
            images: [],
            video: { videoUrl: str(media.video_url), thumbnailUrl: str(media.cover_image_url) },
          }
        : kind === 'multiple_images'
          ? {
              type: 'carousel',
              images: (Array.isArray(media.items) ? media.items : []).map((item) => largest(obj(item).images)),
              video: null,
            }
          : { type: 'image', images: [largest(media.images)], video: null };
    return {
      postId: id,
      // The description carries the post's words; a pin with only a title shows that.
      commentary: str(pin.description) ?? str(pin.title),
      publishedAt: str(pin.created_at),
      ...shape,
      permalink: pinUrl(ctx, id),
      sourcePageId: str(pin.board_id),
      metrics: {
        likes: num(lifetime.reaction),
        comments: num(lifetime.comment),
        shares: saved,
        impressions: num(lifetime.impression),
      },
    };
  }

  async function withSaves(tokens: TokenSet, pins: Obj[]): Promise<RemotePost[]> {
    const out: RemotePost[] = new Array(pins.length);
    let next = 0;
    const worker = async () => {
      while (next < pins.length) {
        const i = next++;
        const pin = pins[i]!;
        out[i] = fromPin(pin, await saves(tokens, String(pin.id)));
      }
    };
    await Promise.all(Array.from({ length: Math.min(ANALYTICS_CONCURRENCY, pins.length) }, worker));
    return out;
  }

  return {
    async listPosts(tokens, p) {
      const board = boardOf(p);
      const path = board ? `/v5/boards/${encodeURIComponent(board)}/pins` : '/v5/pins';
      const pins: Obj[] = [];
      let bookmark: string | null = null;
      do {
        const res = await get(tokens, path, {
          page_size: Math.min(PAGE_MAX, p.limit - pins.length),
          pin_metrics: 'true',
          bookmark,
        });
        const body = readApi(res, board ? 'board pin list' : 'pin list');
        for (const item of Array.isArray(body.items) ? body.items.map(obj) : [])
          if (typeof item.id === 'string' && pins.length < p.limit) pins.push(item);
        bookmark = str(body.bookmark);
      } while (bookmark && pins.length < p.limit);
      return withSaves(tokens, pins);
    },

    async getPost(tokens, p) {
      const res = await get(tokens, `/v5/pins/${encodeURIComponent(p.postId)}`, { pin_metrics: 'true' });
      if (res.status === 404) return null;
      const pin = readApi(res, 'pin read');
      return fromPin(pin, await saves(tokens, p.postId));
    },

    commentsUnavailable: PINTEREST_COMMENTS_UNAVAILABLE,

    async deletePost(tokens, p) {
      const res = await ctx.deps.http.request('pinterest', {
        method: 'DELETE',
        url: `${ctx.apiBase}/v5/pins/${encodeURIComponent(p.postId)}`,
        headers: bearer(tokens.accessToken),
      });
      // A pin that is already gone is what the caller wanted.
      if (res.status === 404 || res.status === 204) return;
      if (res.status >= 200 && res.status < 300) return;
      readApi(res, 'pin delete');
    },
  };
}
