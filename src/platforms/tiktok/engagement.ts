// The read side on TikTok: the Display API's POST /v2/video/list/ (the creator's public videos, newest first, 20 a
// page, a millisecond create_time cursor) and POST /v2/video/query/ (up to 20 video ids), scope video.list, with
// like_count, comment_count, share_count and view_count. What the Display API does not show, Herald cannot read:
// private (SELF_ONLY) and friends-only posts — every post of an app TikTok has not audited — and photo posts; a
// post TikTok has given no public id yet keeps its publish_id as Herald's id and has no numbers. TikTok's public APIs
// have no comment access (only the Research API, for approved researchers, reads comments) and no way to delete a post.
import type { Engagement, RemotePost } from '../engagement.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { TikTokContext } from './context.ts';
import { readApi } from './errors.ts';

/** video/list's max_count and video/query's id limit. */
const PAGE_MAX = 20;
const FIELDS =
  'id,create_time,cover_image_url,share_url,video_description,title,like_count,comment_count,share_count,view_count';

export const TIKTOK_COMMENTS_UNAVAILABLE =
  "TikTok's Display and Content Posting APIs offer no access to comments (only the Research API reads them, for approved researchers): Herald shows the comment count only.";
export const TIKTOK_DELETE_UNAVAILABLE = "TikTok's API offers no way to delete a post: delete it in the TikTok app.";

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Video ids are int64, sent as strings; a number is only trusted while it is exact. */
function idOf(video: Obj): string | null {
  const id = video.id;
  if (typeof id === 'string' && /^\d+$/.test(id)) return id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : null;
}

function fromVideo(video: Obj): RemotePost | null {
  const id = idOf(video);
  if (!id) return null;
  const created = num(video.create_time);
  return {
    postId: id,
    commentary: str(video.video_description) ?? str(video.title),
    publishedAt: created ? new Date(created * 1000).toISOString() : null,
    type: 'video',
    images: [],
    // The cover URL is signed and expires after about six hours; the share URL is the public page.
    video: { videoUrl: str(video.share_url), thumbnailUrl: str(video.cover_image_url) },
    permalink: str(video.share_url),
    sourcePageId: null,
    metrics: {
      likes: num(video.like_count),
      comments: num(video.comment_count),
      shares: num(video.share_count),
      impressions: num(video.view_count),
    },
  };
}

/** The scope the Display API's video reads need; connections made before Herald asked for it lack it. */
export const VIDEO_LIST_SCOPE = 'video.list';

export function tiktokEngagement(ctx: TikTokContext): Engagement {
  const post = (tokens: TokenSet, path: string, json: unknown) => {
    if (tokens.scopes && !tokens.scopes.includes(VIDEO_LIST_SCOPE)) {
      throw new PlatformError(
        'tiktok',
        'permission',
        'This TikTok connection does not allow reading its videos (video.list): reconnect TikTok to grant it',
        { code: 'scope_not_authorized' },
      );
    }
    return ctx.deps.http.request('tiktok', {
      method: 'POST',
      url: `${ctx.apiBase}${path}`,
      query: { fields: FIELDS },
      headers: bearer(tokens.accessToken),
      json,
    });
  };

  return {
    async listPosts(tokens, p) {
      const out: RemotePost[] = [];
      let cursor: number | undefined;
      for (;;) {
        const res = await post(tokens, '/v2/video/list/', {
          max_count: Math.min(PAGE_MAX, p.limit - out.length),
          ...(cursor !== undefined ? { cursor } : {}),
        });
        const data = readApi(res, 'video list');
        for (const v of Array.isArray(data.videos) ? data.videos.map(obj) : []) {
          const mapped = fromVideo(v);
          if (mapped && out.length < p.limit) out.push(mapped);
        }
        const next = typeof data.cursor === 'number' ? data.cursor : undefined;
        if (data.has_more !== true || next === undefined || next === cursor || out.length >= p.limit) return out;
        cursor = next;
      }
    },

    async getPost(tokens, p) {
      // Until TikTok gives a post a public id (a SELF_ONLY post never gets one), Herald's id is the publish_id.
      if (!/^\d+$/.test(p.postId)) {
        throw new PlatformError(
          'tiktok',
          'unsupported',
          'TikTok has given this post no public id (private posts never get one), so the Display API cannot read it',
        );
      }
      const res = await post(tokens, '/v2/video/query/', { filters: { video_ids: [p.postId] } });
      const data = readApi(res, 'video query');
      const found = (Array.isArray(data.videos) ? data.videos.map(obj) : []).find((v) => idOf(v) === p.postId);
      // Left out: deleted, or no longer public (made private in the app).
      return found ? fromVideo(found) : null;
    },

    commentsUnavailable: TIKTOK_COMMENTS_UNAVAILABLE,
    deleteUnavailable: TIKTOK_DELETE_UNAVAILABLE,
  };
}
