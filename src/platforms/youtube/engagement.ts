// YouTube's read side through the Data API v3. Recent videos: channels.list (the uploads playlist, 1 unit),
// playlistItems.list of it (1 unit a page of 50; search.list would cost 100) and videos.list with snippet, statistics
// and status (1 unit per 50 videos). Comments: commentThreads.list (1 unit a page of up to 100 threads, a few replies
// inline), comments.list?parentId= (1 unit a page of replies) and comments.insert (50 units), which only takes a
// top-level comment as the parent, so Herald keeps the thread id of every comment in `refs.threadId`. Deleting is
// videos.delete (50 units). YouTube counts views, likes and comments, never shares.
import type { CommentsPage, Engagement, RemoteComment, RemotePost } from '../engagement.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { YouTubeContext } from './context.ts';
import { readApi } from './errors.ts';
import { watchUrl } from './publish.ts';

type Obj = Record<string, unknown>;

/** What comments.insert takes in snippet.textOriginal. */
export const YOUTUBE_COMMENT_MAX = 10_000;
const MAX_ITEMS_PAGE = 50;
const MAX_COMMENTS_PAGE = 100;
/** Bounds a runaway nextPageToken chain. */
const MAX_PAGES = 20;

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
// The Data API sends counts as int64 strings.
const count = (v: unknown): number => {
  const n = typeof v === 'string' && v !== '' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) ? n : 0;
};

function thumbnailUrl(snippet: Obj): string | null {
  const t = obj(snippet.thumbnails);
  return str(obj(t.maxres).url) ?? str(obj(t.high).url) ?? str(obj(t.medium).url) ?? str(obj(t.default).url);
}

function toPost(ctx: YouTubeContext, video: Obj): RemotePost {
  const id = String(video.id);
  const snippet = obj(video.snippet);
  const stats = obj(video.statistics);
  const title = str(snippet.title);
  const description = str(snippet.description);
  return {
    postId: id,
    // A video's words are its title and description.
    commentary: [title, description].filter(Boolean).join('\n\n') || null,
    publishedAt: str(snippet.publishedAt),
    type: 'video',
    images: [],
    video: { videoUrl: watchUrl(ctx, id), thumbnailUrl: thumbnailUrl(snippet) },
    permalink: watchUrl(ctx, id),
    sourcePageId: null,
    metrics: {
      likes: count(stats.likeCount),
      comments: count(stats.commentCount),
      shares: 0,
      impressions: count(stats.viewCount),
    },
  };
}

function toComment(c: Obj, threadId: string): RemoteComment {
  const s = obj(c.snippet);
  return {
    id: String(c.id),
    parentId: str(s.parentId),
    text: str(s.textOriginal) ?? str(s.textDisplay) ?? '',
    authorName: str(s.authorDisplayName) ?? '',
    authorId: str(obj(s.authorChannelId).value),
    authorAvatarUrl: str(s.authorProfileImageUrl),
    createdAt: str(s.publishedAt),
    likeCount: count(s.likeCount),
    replyCount: 0,
    refs: { threadId },
  };
}

function toThread(thread: Obj): RemoteComment {
  const s = obj(thread.snippet);
  const threadId = String(thread.id);
  const top = toComment(obj(s.topLevelComment), threadId);
  const replies = list(obj(thread.replies).comments).map((r) => toComment(r, threadId));
  return { ...top, parentId: null, replyCount: count(s.totalReplyCount), replies };
}

/** The top-level comment a reply must go under: the thread Herald recorded, else the id's own thread part. */
function threadOf(commentId: string, refs: Record<string, string> | undefined): string {
  // A reply's id is "<thread id>.<reply key>"; a top-level comment's id is its thread's id.
  return refs?.threadId ?? commentId.split('.')[0] ?? commentId;
}

export function youtubeEngagement(ctx: YouTubeContext): Engagement {
  const { http, clock } = ctx.deps;
  const api = `${ctx.apiBase}/youtube/v3`;

  async function get(
    tokens: TokenSet,
    path: string,
    query: Record<string, string | number | undefined>,
    what: string,
  ): Promise<Obj> {
    const res = await http.request('youtube', { url: `${api}/${path}`, query, headers: bearer(tokens.accessToken) });
    return readApi(res, what, clock());
  }

  /** The channel's uploads playlist ("UU…"), where every video it published is listed newest first. */
  async function uploadsPlaylist(tokens: TokenSet, channelId: string | undefined): Promise<string> {
    const body = await get(
      tokens,
      'channels',
      { part: 'contentDetails', ...(channelId ? { id: channelId } : { mine: 'true' }) },
      'channels.list',
    );
    const uploads = str(obj(obj(list(body.items)[0]?.contentDetails).relatedPlaylists).uploads);
    if (uploads) return uploads;
    if (channelId)
      throw new PlatformError('youtube', 'not_found', `YouTube has no channel ${channelId} for this connection`, {
        code: 'channelNotFound',
      });
    throw new PlatformError(
      'youtube',
      'unsupported',
      'This Google account has no YouTube channel to read videos from',
      { code: 'youtubeSignupRequired' },
    );
  }

  async function videos(tokens: TokenSet, ids: string[]): Promise<Obj[]> {
    const out: Obj[] = [];
    for (let i = 0; i < ids.length; i += MAX_ITEMS_PAGE) {
      const body = await get(
        tokens,
        'videos',
        {
          part: 'snippet,statistics,status',
          id: ids.slice(i, i + MAX_ITEMS_PAGE).join(','),
          maxResults: MAX_ITEMS_PAGE,
        },
        'videos.list',
      );
      out.push(...list(body.items));
    }
    return out;
  }

  /** Pages through a list call until `limit` items (or the end). */
  async function collect(
    tokens: TokenSet,
    path: string,
    query: Record<string, string | number>,
    limit: number,
    pageMax: number,
    what: string,
  ): Promise<Obj[]> {
    const items: Obj[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES && items.length < limit; page++) {
      const body = await get(
        tokens,
        path,
        { ...query, maxResults: Math.min(pageMax, limit - items.length), pageToken },
        what,
      );
      items.push(...list(body.items));
      pageToken = str(body.nextPageToken) ?? undefined;
      if (!pageToken) break;
    }
    return items.slice(0, limit);
  }

  return {
    async listPosts(tokens, p) {
      const channelId = p.destination?.kind === 'channel' ? p.destination.id : undefined;
      const playlistId = await uploadsPlaylist(tokens, channelId);
      const items = await collect(
        tokens,
        'playlistItems',
        { part: 'contentDetails', playlistId },
        Math.max(1, p.limit),
        MAX_ITEMS_PAGE,
        'playlistItems.list',
      );
      const ids = items.map((i) => str(obj(i.contentDetails).videoId)).filter((id): id is string => id !== null);
      const posts = (await videos(tokens, ids)).map((v) => toPost(ctx, v));
      return posts.sort((a, b) => Date.parse(b.publishedAt ?? '') - Date.parse(a.publishedAt ?? ''));
    },

    async getPost(tokens, p) {
      const [video] = await videos(tokens, [p.postId]);
      return video ? toPost(ctx, video) : null;
    },

    comments: {
      textLimit: { max: YOUTUBE_COMMENT_MAX, unit: 'utf16' },

      async list(tokens, p): Promise<CommentsPage> {
        try {
          const query = { part: 'snippet,replies', videoId: p.postId, order: 'time', textFormat: 'plainText' };
          const threads = await collect(
            tokens,
            'commentThreads',
            query,
            Math.max(1, p.limit),
            MAX_COMMENTS_PAGE,
            'commentThreads.list',
          );
          return { comments: threads.map(toThread) };
        } catch (err) {
          // The owner turned comments off: not a failure, the post simply has none to read.
          if (err instanceof PlatformError && err.code === 'commentsDisabled') return { comments: [], disabled: true };
          throw err;
        }
      },

      async replies(tokens, p) {
        const parentId = threadOf(p.commentId, p.refs);
        const query = { part: 'snippet', parentId, textFormat: 'plainText' };
        const items = await collect(
          tokens,
          'comments',
          query,
          Math.max(1, p.limit),
          MAX_COMMENTS_PAGE,
          'comments.list',
        );
        return items.map((c) => toComment(c, parentId));
      },

      async reply(tokens, p) {
        const res = await http.request('youtube', {
          method: 'POST',
          url: `${api}/comments`,
          query: { part: 'snippet' },
          headers: bearer(tokens.accessToken),
          json: { snippet: { parentId: threadOf(p.commentId, p.refs), textOriginal: p.text } },
        });
        const id = str(readApi(res, 'comments.insert', clock()).id);
        if (!id)
          throw new PlatformError('youtube', 'transient', 'YouTube comments.insert answered without the reply id');
        return { replyId: id };
      },

      // A new top-level comment is a new comment thread on the video; its id is the top-level comment's.
      async comment(tokens, p) {
        const res = await http.request('youtube', {
          method: 'POST',
          url: `${api}/commentThreads`,
          query: { part: 'snippet' },
          headers: bearer(tokens.accessToken),
          json: { snippet: { videoId: p.postId, topLevelComment: { snippet: { textOriginal: p.text } } } },
        });
        const id = str(readApi(res, 'commentThreads.insert', clock()).id);
        if (!id)
          throw new PlatformError(
            'youtube',
            'transient',
            'YouTube commentThreads.insert answered without the thread id',
          );
        return { commentId: id };
      },
    },

    async deletePost(tokens, p) {
      const res = await http.request('youtube', {
        method: 'DELETE',
        url: `${api}/videos`,
        query: { id: p.postId },
        headers: bearer(tokens.accessToken),
      });
      // Already gone is what deleting wanted.
      if (res.status === 404) return;
      readApiEmpty(res, clock());
    },
  };
}

/** A bodiless 2xx (videos.delete answers 204) or the error the answer carries. */
function readApiEmpty(res: Parameters<typeof readApi>[0], now: Date): void {
  if (res.status >= 200 && res.status < 300) return;
  readApi(res, 'videos.delete', now);
}
