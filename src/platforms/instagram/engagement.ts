// Instagram's read side (Instagram API with Instagram Login, graph.instagram.com): the account's recent media
// (GET /{ig-user-id}/media) with like_count and comments_count, views, reach and shares from media insights
// (GET /{media-id}/insights; `impressions` is retired), one media (GET /{media-id}), top-level comments with their
// replies inline (GET /{media-id}/comments), a comment's replies (GET /{comment-id}/replies) and a reply
// (POST /{comment-id}/replies, instagram_business_manage_comments). Instagram replies are one level deep: a reply to
// a reply lands under the top-level comment. The API with Instagram Login cannot delete media.
import type { Comments, Engagement, RemoteComment, RemotePost } from '../engagement.ts';
import type { AdapterDeps, TextLimit, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { isRecord, num, required, str } from '../meta/graph.ts';
import { INSIGHTS_WIDTH, insightValues, isoTime, listItems, mapBounded, mediaOf } from '../meta/read.ts';
import type { ReadTarget } from '../engagement.ts';
import { INSTAGRAM_GRAPH_VERSION, instagramUrls } from './config.ts';
import { instagramOk } from './errors.ts';

/** A comment's text is limited like a caption: 2,200 characters (Instagram's app and Meta's moderation guides). */
export const INSTAGRAM_COMMENT_LIMIT: TextLimit = { max: 2200, unit: 'utf16' };

export const INSTAGRAM_DELETE_UNAVAILABLE =
  "Instagram's API with Instagram Login cannot delete published media (only Facebook Login apps with instagram_manage_contents can); delete the post in the Instagram app";

const MAX_PAGE = 100;
export const MEDIA_FIELDS =
  'id,caption,media_type,media_product_type,media_url,thumbnail_url,permalink,timestamp,like_count,comments_count,children{media_type,media_url,thumbnail_url}';
/** `views` replaced `impressions` and `plays` (v22.0, and every version since 2025-04-21). */
export const INSIGHT_METRICS = ['views', 'reach', 'shares'] as const;
const COMMENT_BASE = 'id,text,timestamp,username,from{id,username},like_count,hidden,parent_id';
export const COMMENT_FIELDS = `${COMMENT_BASE},replies{${COMMENT_BASE}}`;

const TYPES: Record<string, RemotePost['type']> = { IMAGE: 'image', VIDEO: 'video', CAROUSEL_ALBUM: 'carousel' };

function toRemotePost(item: Record<string, unknown>, insights: Record<string, number>): RemotePost {
  const type = TYPES[str(item.media_type) ?? ''] ?? 'image';
  return {
    postId: required('instagram', item.id, 'a media id'),
    commentary: str(item.caption),
    publishedAt: isoTime(item.timestamp),
    type,
    ...mediaOf(item, type),
    permalink: str(item.permalink),
    sourcePageId: null,
    metrics: {
      likes: num(item.like_count) ?? 0,
      comments: num(item.comments_count) ?? 0,
      shares: insights.shares ?? 0,
      impressions: insights.views ?? 0,
      reach: insights.reach,
    },
  };
}

function toRemoteComment(item: Record<string, unknown>, parentId: string | null): RemoteComment {
  const from = isRecord(item.from) ? item.from : {};
  const id = required('instagram', item.id, 'a comment id');
  const replies = isRecord(item.replies) ? listItems(item.replies).map((r) => toRemoteComment(r, id)) : [];
  return {
    id,
    parentId: str(item.parent_id) ?? parentId,
    text: str(item.text) ?? '',
    // Instagram shows commenters by username only, and gives no picture of them.
    authorName: str(item.username) ?? str(from.username) ?? 'Instagram user',
    authorId: str(from.id),
    authorAvatarUrl: null,
    createdAt: isoTime(item.timestamp),
    likeCount: num(item.like_count) ?? 0,
    replyCount: replies.length,
    hidden: item.hidden === true,
    ...(replies.length ? { replies } : {}),
  };
}

/** Newest first, whatever order the answer came in. */
const newestFirst = (a: RemoteComment, b: RemoteComment): number =>
  Date.parse(b.createdAt ?? '') - Date.parse(a.createdAt ?? '');

export function instagramEngagement(deps: AdapterDeps): Engagement {
  const api = `${instagramUrls(deps).graphBase}/${INSTAGRAM_GRAPH_VERSION}`;

  async function get(tokens: TokenSet, path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    return instagramOk(
      await deps.http.request('instagram', {
        url: `${api}/${path}`,
        query,
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      }),
    );
  }

  /**
   * A media's views, reach and shares. Insights need instagram_business_manage_insights, and Instagram refuses them
   * for media with too few viewers ((#10) Not enough viewers); the media then keeps its counts and reads 0 views.
   */
  async function insights(tokens: TokenSet, mediaId: string): Promise<Record<string, number>> {
    try {
      return insightValues(
        await get(tokens, `${encodeURIComponent(mediaId)}/insights`, { metric: INSIGHT_METRICS.join(',') }),
      );
    } catch (err) {
      if (!(err instanceof PlatformError) || (err.kind !== 'permission' && err.kind !== 'invalid_content')) throw err;
      deps.logger.debug({ platform: 'instagram', kind: err.kind }, 'instagram media insights unavailable');
      return {};
    }
  }

  const withInsights = (tokens: TokenSet, items: Record<string, unknown>[]): Promise<RemotePost[]> =>
    mapBounded(items, INSIGHTS_WIDTH, async (item) =>
      toRemotePost(item, await insights(tokens, required('instagram', item.id, 'a media id'))),
    );

  /** `me` or the professional account a destination names. */
  const userOf = (p: ReadTarget): string => (p.destination && p.destination.id !== 'me' ? p.destination.id : 'me');

  const comments: Comments = {
    textLimit: INSTAGRAM_COMMENT_LIMIT,
    async list(tokens, p) {
      const body = await get(tokens, `${encodeURIComponent(p.postId)}/comments`, {
        fields: COMMENT_FIELDS,
        limit: String(Math.min(p.limit, MAX_PAGE)),
      });
      return {
        comments: listItems(body)
          .map((c) => toRemoteComment(c, null))
          .sort(newestFirst)
          .slice(0, p.limit),
      };
    },
    async replies(tokens, p) {
      const body = await get(tokens, `${encodeURIComponent(p.commentId)}/replies`, {
        fields: COMMENT_BASE,
        limit: String(Math.min(p.limit, MAX_PAGE)),
      });
      return listItems(body)
        .slice(0, p.limit)
        .map((c) => toRemoteComment(c, p.commentId));
    },
    async reply(tokens, p) {
      const res = await deps.http.request('instagram', {
        method: 'POST',
        url: `${api}/${encodeURIComponent(p.commentId)}/replies`,
        headers: { authorization: `Bearer ${tokens.accessToken}` },
        form: { message: p.text },
      });
      return { replyId: required('instagram', instagramOk(res).id, 'a comment id') };
    },
    async comment(tokens, p) {
      const res = await deps.http.request('instagram', {
        method: 'POST',
        url: `${api}/${encodeURIComponent(p.postId)}/comments`,
        headers: { authorization: `Bearer ${tokens.accessToken}` },
        form: { message: p.text },
      });
      return { commentId: required('instagram', instagramOk(res).id, 'a comment id') };
    },
  };

  return {
    async listPosts(tokens, p) {
      const body = await get(tokens, `${encodeURIComponent(userOf(p))}/media`, {
        fields: MEDIA_FIELDS,
        limit: String(Math.min(p.limit, MAX_PAGE)),
      });
      return withInsights(tokens, listItems(body).slice(0, p.limit));
    },
    async getPost(tokens, p) {
      let item: Record<string, unknown>;
      try {
        item = await get(tokens, encodeURIComponent(p.postId), { fields: MEDIA_FIELDS });
      } catch (err) {
        if (err instanceof PlatformError && err.kind === 'not_found') return null;
        throw err;
      }
      return (await withInsights(tokens, [item]))[0] ?? null;
    },
    comments,
    deleteUnavailable: INSTAGRAM_DELETE_UNAVAILABLE,
  };
}
