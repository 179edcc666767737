// Threads' read side (graph.threads.net/v1.0): the profile's recent threads (GET /me/threads) with their numbers from
// media insights (GET /{media-id}/insights: views, likes, replies, reposts, quotes; threads_manage_insights), one
// thread (GET /{media-id}), the top-level replies under it, newest first (GET /{media-id}/replies;
// threads_read_replies), the replies under a reply (the same edge on the reply), answering (a TEXT container with
// `reply_to_id` on POST /me/threads, then POST /me/threads_publish; threads_content_publish) and deletion
// (DELETE /{media-id}; threads_delete). On Threads a comment is itself a thread: its id is a media id.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Comments, Engagement, RemoteComment, RemotePost } from '../engagement.ts';
import type { AdapterDeps, TextLimit, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { isRecord, required, str } from '../meta/graph.ts';
import { INSIGHTS_WIDTH, insightValues, isoTime, listItems, mapBounded, mediaOf } from '../meta/read.ts';
import { THREADS_API_VERSION, threadsUrls } from './config.ts';
import { threadsOk } from './errors.ts';

/** A reply is a thread: 500 characters, counted like a post (see the network's capabilities). */
export const THREADS_REPLY_LIMIT: TextLimit = { max: 500, unit: 'graphemes' };

const MAX_PAGE = 100;
export const POST_FIELDS =
  'id,text,media_type,media_url,thumbnail_url,permalink,timestamp,is_reply,children{media_type,media_url,thumbnail_url}';
export const INSIGHT_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes'] as const;
export const REPLY_FIELDS =
  'id,text,username,permalink,timestamp,has_replies,replied_to,root_post,is_reply_owned_by_me,hide_status';

const TYPES: Record<string, RemotePost['type']> = {
  TEXT_POST: 'text',
  IMAGE: 'image',
  VIDEO: 'video',
  CAROUSEL_ALBUM: 'carousel',
  AUDIO: 'text',
};

/** Pauses before asking again when a just-made reply container is not publishable yet ("Media Not Found"). */
const PUBLISH_RETRY_MS = [1000, 3000] as const;

/** Threads' "Media Not Found" (code 24): a container not processed yet, or a thread that no longer exists. */
const mediaNotFound = (err: PlatformError): boolean => err.code === '24' && /not found/i.test(err.message);

function toRemotePost(item: Record<string, unknown>, insights: Record<string, number>): RemotePost {
  const type = TYPES[str(item.media_type) ?? ''] ?? 'text';
  return {
    postId: required('threads', item.id, 'a media id'),
    commentary: str(item.text),
    publishedAt: isoTime(item.timestamp),
    type,
    ...mediaOf(item, type),
    permalink: str(item.permalink),
    sourcePageId: null,
    metrics: {
      likes: insights.likes ?? 0,
      comments: insights.replies ?? 0,
      // Reposts and quotes both put the thread in front of other people's followers.
      shares: (insights.reposts ?? 0) + (insights.quotes ?? 0),
      impressions: insights.views ?? 0,
    },
  };
}

function toRemoteComment(item: Record<string, unknown>, parentId: string | null): RemoteComment {
  const repliedTo = isRecord(item.replied_to) ? str(item.replied_to.id) : null;
  const root = isRecord(item.root_post) ? str(item.root_post.id) : null;
  return {
    id: required('threads', item.id, 'a reply id'),
    // A top-level reply answers the root post itself: no parent comment.
    parentId: parentId ?? (repliedTo && repliedTo !== root ? repliedTo : null),
    text: str(item.text) ?? '',
    // Threads names repliers by username only, with no id or picture of them.
    authorName: str(item.username) ?? 'Threads user',
    authorId: null,
    authorAvatarUrl: null,
    createdAt: isoTime(item.timestamp),
    // Likes on someone else's reply are not readable; has_replies says "at least one", not how many.
    likeCount: 0,
    replyCount: item.has_replies === true ? 1 : 0,
    hidden: str(item.hide_status) === 'HIDDEN',
  };
}

export function threadsEngagement(deps: AdapterDeps): Engagement {
  const api = `${threadsUrls(deps).graphBase}/${THREADS_API_VERSION}`;
  const bearer = (tokens: TokenSet) => ({ authorization: `Bearer ${tokens.accessToken}` });

  async function get(tokens: TokenSet, path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    return threadsOk(await deps.http.request('threads', { url: `${api}/${path}`, query, headers: bearer(tokens) }));
  }

  async function post(tokens: TokenSet, path: string, form: Record<string, string>): Promise<Record<string, unknown>> {
    return threadsOk(
      await deps.http.request('threads', { method: 'POST', url: `${api}/${path}`, headers: bearer(tokens), form }),
    );
  }

  /** A thread's numbers; without threads_manage_insights they read 0 rather than failing the read. */
  async function insights(tokens: TokenSet, mediaId: string): Promise<Record<string, number>> {
    try {
      return insightValues(
        await get(tokens, `${encodeURIComponent(mediaId)}/insights`, { metric: INSIGHT_METRICS.join(',') }),
      );
    } catch (err) {
      if (!(err instanceof PlatformError) || (err.kind !== 'permission' && err.kind !== 'invalid_content')) throw err;
      deps.logger.debug({ platform: 'threads', kind: err.kind }, 'threads insights unavailable');
      return {};
    }
  }

  const withInsights = (tokens: TokenSet, items: Record<string, unknown>[]): Promise<RemotePost[]> =>
    mapBounded(items, INSIGHTS_WIDTH, async (item) =>
      toRemotePost(item, await insights(tokens, required('threads', item.id, 'a media id'))),
    );

  async function replies(
    tokens: TokenSet,
    mediaId: string,
    limit: number,
    newestFirst: boolean,
    parentId: string | null,
  ): Promise<RemoteComment[]> {
    const body = await get(tokens, `${encodeURIComponent(mediaId)}/replies`, {
      fields: REPLY_FIELDS,
      reverse: String(newestFirst),
      limit: String(Math.min(limit, MAX_PAGE)),
    });
    return listItems(body)
      .slice(0, limit)
      .map((r) => toRemoteComment(r, parentId));
  }

  /** threads_publish, asked again a little later while Threads has not finished the container ("Media Not Found"). */
  async function publish(tokens: TokenSet, creationId: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        return required(
          'threads',
          (await post(tokens, 'me/threads_publish', { creation_id: creationId })).id,
          'a reply id',
        );
      } catch (err) {
        const wait = PUBLISH_RETRY_MS[attempt];
        const notReady = err instanceof PlatformError && mediaNotFound(err);
        if (!notReady || wait === undefined) throw err;
        await sleep(wait);
      }
    }
  }

  /** A text reply to a post or a reply: a container with reply_to_id, then published. */
  async function replyTo(tokens: TokenSet, replyToId: string, text: string): Promise<string> {
    const container = await post(tokens, 'me/threads', { media_type: 'TEXT', text, reply_to_id: replyToId });
    return publish(tokens, required('threads', container.id, 'a container id'));
  }

  const comments: Comments = {
    textLimit: THREADS_REPLY_LIMIT,
    async list(tokens, p) {
      return { comments: await replies(tokens, p.postId, p.limit, true, null) };
    },
    replies: (tokens, p) => replies(tokens, p.commentId, p.limit, false, p.commentId),
    async reply(tokens, p) {
      return { replyId: await replyTo(tokens, p.commentId, p.text) };
    },
    // Threads has no comments apart from replies: the first comment is a reply to the post itself.
    async comment(tokens, p) {
      return { commentId: await replyTo(tokens, p.postId, p.text) };
    },
  };

  return {
    async listPosts(tokens, p) {
      const user = p.destination && p.destination.id !== 'me' ? p.destination.id : 'me';
      const body = await get(tokens, `${encodeURIComponent(user)}/threads`, {
        fields: POST_FIELDS,
        limit: String(Math.min(p.limit, MAX_PAGE)),
      });
      // Reposts of other people's threads show up as REPOST_FACADE, and the profile's replies are answers, not posts.
      const own = listItems(body).filter((item) => str(item.media_type) !== 'REPOST_FACADE' && item.is_reply !== true);
      return withInsights(tokens, own.slice(0, p.limit));
    },
    async getPost(tokens, p) {
      let item: Record<string, unknown>;
      try {
        item = await get(tokens, encodeURIComponent(p.postId), { fields: POST_FIELDS });
      } catch (err) {
        if (err instanceof PlatformError && err.kind === 'not_found') return null;
        throw err;
      }
      return (await withInsights(tokens, [item]))[0] ?? null;
    },
    comments,
    async deletePost(tokens, p) {
      const res = await deps.http.request('threads', {
        method: 'DELETE',
        url: `${api}/${encodeURIComponent(p.postId)}`,
        headers: bearer(tokens),
      });
      try {
        threadsOk(res);
      } catch (err) {
        // Already gone ("Media Not Found") is what deleting wanted.
        if (err instanceof PlatformError && (err.kind === 'not_found' || mediaNotFound(err))) return;
        throw err;
      }
    },
  };
}
