// Facebook's read side, all with the Page access token of the Page that owns the post (TokenSet.extra; a user token
// is refused by Graph for these): the Page's recent posts (GET /{page-id}/published_posts) with reaction, comment and
// share counts from field expansion, views and reach from GET /{post-id}/insights (post_media_view and
// post_total_media_view_unique: the post_impressions* metrics are retired), one post (GET /{post-id}), its top-level
// comments newest first (GET /{post-id}/comments?filter=toplevel&order=reverse_chronological), a comment's replies
// (GET /{comment-id}/comments), a reply as the Page (POST /{comment-id}/comments, pages_manage_engagement) and
// deletion (DELETE /{post-id}). Post ids are `{page-id}_{post-id}`, as publishing returns them.
import type { Comments, Engagement, ReadTarget, RemoteComment, RemotePost } from '../engagement.ts';
import type { AdapterDeps, TextLimit, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { isRecord, num, required, str } from '../meta/graph.ts';
import { INSIGHTS_WIDTH, insightValues, isoTime, listItems, mapBounded, summaryCount } from '../meta/read.ts';
import { FACEBOOK_GRAPH_VERSION, facebookUrls, pageTokenKey } from './config.ts';
import { facebookOk } from './errors.ts';

/**
 * Facebook documents no comment length for the Graph API; 8,000 characters is the limit its comment box enforces
 * and the one commonly cited, counted like post text (JavaScript string length).
 */
export const FACEBOOK_COMMENT_LIMIT: TextLimit = { max: 8000, unit: 'utf16' };

/** Graph's page size cap for these edges. */
const MAX_PAGE = 100;

const MEDIA = 'media{image{src,width,height},source}';
export const POST_FIELDS = [
  'id',
  'message',
  'created_time',
  'permalink_url',
  'status_type',
  `attachments{media_type,${MEDIA},subattachments{media_type,${MEDIA}}}`,
  'shares',
  'reactions.summary(total_count).limit(0)',
  'comments.summary(total_count).limit(0)',
].join(',');

/** Views (every time the post was on screen) and reach (unique viewers): the current names, since v23. */
export const INSIGHT_METRICS = ['post_media_view', 'post_total_media_view_unique'] as const;

export const COMMENT_FIELDS =
  'id,message,created_time,from{id,name,picture},like_count,comment_count,is_hidden,parent{id}';

interface Page {
  id: string;
  token: string;
}

/** The Page a read goes to: the destination, else the page part of a `{page-id}_{post-id}` id. */
function pageOf(tokens: TokenSet, p: ReadTarget & { postId?: string }): Page {
  const id =
    p.destination?.kind === 'page' ? p.destination.id : p.postId?.includes('_') ? p.postId.split('_')[0] : undefined;
  if (!id) throw new PlatformError('facebook', 'unsupported', 'facebook reads Page posts only: name the Page');
  const token = tokens.extra?.[pageTokenKey(id)];
  if (!token) {
    throw new PlatformError(
      'facebook',
      'permission',
      `Page ${id} is not managed by the connected account (no Page token); reconnect Facebook and select that Page`,
    );
  }
  return { id, token };
}

/** Graph answers some permalinks (videos) relative to the web site. */
const absolute = (webBase: string, link: string | null): string | null =>
  link?.startsWith('/') ? `${webBase}${link}` : link;

interface Attachment {
  type: string | null;
  image: { url: string | null; width?: number | undefined; height?: number | undefined } | null;
  source: string | null;
}

function attachment(a: Record<string, unknown>): Attachment {
  const media = isRecord(a.media) ? a.media : {};
  const image = isRecord(media.image) ? media.image : null;
  return {
    type: str(a.media_type),
    image: image
      ? { url: str(image.src), width: num(image.width) ?? undefined, height: num(image.height) ?? undefined }
      : null,
    source: str(media.source),
  };
}

function attachmentsOf(item: Record<string, unknown>): Attachment[] {
  const first = isRecord(item.attachments) ? listItems(item.attachments)[0] : undefined;
  if (!first) return [];
  const subs = isRecord(first.subattachments) ? listItems(first.subattachments) : [];
  return subs.length ? subs.map(attachment) : [attachment(first)];
}

export function toRemotePost(
  webBase: string,
  item: Record<string, unknown>,
  pageId: string,
  insights: Record<string, number>,
): RemotePost {
  const attachments = attachmentsOf(item);
  const video = attachments.find((a) => a.type === 'video' || a.type === 'video_inline' || a.type === 'video_autoplay');
  const photos = attachments
    .filter((a) => a.type === 'photo' || a.type === 'album')
    .map((a) => a.image ?? { url: null });
  const type: RemotePost['type'] = video
    ? 'video'
    : photos.length > 1
      ? 'carousel'
      : photos.length === 1
        ? 'image'
        : 'text';
  const views = insights.post_media_view ?? 0;
  const reach = insights.post_total_media_view_unique;
  return {
    postId: required('facebook', item.id, 'a post id'),
    commentary: str(item.message),
    publishedAt: isoTime(item.created_time),
    type,
    images: video ? [] : photos,
    video: video ? { videoUrl: video.source, thumbnailUrl: video.image?.url ?? null } : null,
    permalink: absolute(webBase, str(item.permalink_url)),
    sourcePageId: pageId,
    metrics: {
      // Facebook counts reactions (like, love, haha …); a like is one of them, and all of them are the post's likes
      // here.
      likes: summaryCount(item.reactions),
      comments: summaryCount(item.comments),
      shares: isRecord(item.shares) ? (num(item.shares.count) ?? 0) : 0,
      impressions: views,
      reach,
    },
  };
}

export function toRemoteComment(item: Record<string, unknown>, parentId: string | null): RemoteComment {
  const from = isRecord(item.from) ? item.from : {};
  const picture = isRecord(from.picture) && isRecord(from.picture.data) ? str(from.picture.data.url) : null;
  const parent = isRecord(item.parent) ? str(item.parent.id) : null;
  return {
    id: required('facebook', item.id, 'a comment id'),
    parentId: parent ?? parentId,
    text: str(item.message) ?? '',
    // Graph leaves `from` out for people who have not allowed the Page's app to show them.
    authorName: str(from.name) ?? 'Facebook user',
    authorId: str(from.id),
    authorAvatarUrl: picture,
    createdAt: isoTime(item.created_time),
    likeCount: num(item.like_count) ?? 0,
    replyCount: num(item.comment_count) ?? 0,
    hidden: item.is_hidden === true,
  };
}

export function facebookEngagement(deps: AdapterDeps): Engagement {
  const { graphBase, webBase } = facebookUrls(deps);
  const graph = `${graphBase}/${FACEBOOK_GRAPH_VERSION}`;
  const bearer = (page: Page) => ({ authorization: `Bearer ${page.token}` });

  async function get(page: Page, path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    return facebookOk(await deps.http.request('facebook', { url: `${graph}/${path}`, query, headers: bearer(page) }));
  }

  /**
   * A post's views and reach. Insights need read_insights and the ANALYZE task and exist only for Pages with 100
   * likes or more; without them the post keeps its counts and reads 0 views rather than failing the read.
   */
  async function insights(page: Page, postId: string): Promise<Record<string, number>> {
    try {
      return insightValues(
        await get(page, `${encodeURIComponent(postId)}/insights`, { metric: INSIGHT_METRICS.join(',') }),
      );
    } catch (err) {
      if (!(err instanceof PlatformError) || (err.kind !== 'permission' && err.kind !== 'invalid_content')) throw err;
      deps.logger.debug({ platform: 'facebook', kind: err.kind }, 'facebook post insights unavailable');
      return {};
    }
  }

  const withInsights = (page: Page, items: Record<string, unknown>[]): Promise<RemotePost[]> =>
    mapBounded(items, INSIGHTS_WIDTH, async (item) =>
      toRemotePost(webBase, item, page.id, await insights(page, required('facebook', item.id, 'a post id'))),
    );

  /** POST /{object-id}/comments with the Page's token: a comment under a post, or a reply under a comment. */
  async function commentOn(tokens: TokenSet, p: ReadTarget, objectId: string, message: string): Promise<string> {
    const page = pageOf(tokens, p);
    const res = await deps.http.request('facebook', {
      method: 'POST',
      url: `${graph}/${encodeURIComponent(objectId)}/comments`,
      headers: bearer(page),
      form: { message },
    });
    return required('facebook', facebookOk(res).id, 'a comment id');
  }

  const comments: Comments = {
    textLimit: FACEBOOK_COMMENT_LIMIT,
    async list(tokens, p) {
      const page = pageOf(tokens, p);
      const body = await get(page, `${encodeURIComponent(p.postId)}/comments`, {
        fields: COMMENT_FIELDS,
        filter: 'toplevel',
        order: 'reverse_chronological',
        summary: 'true',
        limit: String(Math.min(p.limit, MAX_PAGE)),
      });
      return {
        comments: listItems(body)
          .slice(0, p.limit)
          .map((c) => toRemoteComment(c, null)),
      };
    },
    async replies(tokens, p) {
      const page = pageOf(tokens, p);
      const body = await get(page, `${encodeURIComponent(p.commentId)}/comments`, {
        fields: COMMENT_FIELDS,
        order: 'chronological',
        limit: String(Math.min(p.limit, MAX_PAGE)),
      });
      return listItems(body)
        .slice(0, p.limit)
        .map((c) => toRemoteComment(c, p.commentId));
    },
    async reply(tokens, p) {
      return { replyId: await commentOn(tokens, p, p.commentId, p.text) };
    },
    // A top-level comment is the same call on the post itself, as the Page.
    async comment(tokens, p) {
      return { commentId: await commentOn(tokens, p, p.postId, p.text) };
    },
  };

  return {
    async listPosts(tokens, p) {
      const page = pageOf(tokens, p);
      const body = await get(page, `${encodeURIComponent(page.id)}/published_posts`, {
        fields: POST_FIELDS,
        limit: String(Math.min(p.limit, MAX_PAGE)),
      });
      return withInsights(page, listItems(body).slice(0, p.limit));
    },
    async getPost(tokens, p) {
      const page = pageOf(tokens, p);
      let item: Record<string, unknown>;
      try {
        item = await get(page, encodeURIComponent(p.postId), { fields: POST_FIELDS });
      } catch (err) {
        if (err instanceof PlatformError && err.kind === 'not_found') return null;
        throw err;
      }
      return (await withInsights(page, [item]))[0] ?? null;
    },
    comments,
    async deletePost(tokens, p) {
      const page = pageOf(tokens, p);
      const res = await deps.http.request('facebook', {
        method: 'DELETE',
        url: `${graph}/${encodeURIComponent(p.postId)}`,
        headers: bearer(page),
      });
      try {
        facebookOk(res);
      } catch (err) {
        // Already gone is what deleting wanted.
        if (err instanceof PlatformError && err.kind === 'not_found') return;
        throw err;
      }
    },
  };
}
