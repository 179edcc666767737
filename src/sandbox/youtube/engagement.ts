// YouTube Data API v3 read side: playlistItems.list (the channel's uploads playlist, newest first), commentThreads.list
// (top-level comments of a video with a few replies inline), comments.list?parentId= (all replies of a thread) and
// comments.insert (a reply, which YouTube only takes under a top-level comment: snippet.parentId is the thread's id).
// Reading and writing comments needs youtube.force-ssl; a video whose comments are off answers 403 commentsDisabled.
// Quota: every list call costs 1 unit and comments.insert 50 (errors.ts quotaCost, counted under youtube_quota).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assetsOf } from '../core/accounts.ts';
import type { SandboxContext } from '../core/context.ts';
import { commentsDisabled, commentsOn, declareEngagement, putComment, repliesTo } from '../core/engagement.ts';
import { isObj, jsonBody, queryParams } from '../core/http.ts';
import { randomUrlSafe, seededUrlSafe } from '../core/ids.ts';
import { findObject, objectsOf, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { googleApiError } from './errors.ts';
import { partsOf, READ_SCOPES, thumbnails, uploader } from './video-meta.ts';
import type { Uploader } from './video-meta.ts';

const G = 'https://www.googleapis.com/auth/';
/** The only scope the comment methods accept. */
export const COMMENT_SCOPES = [`${G}youtube.force-ssl`];
/** What YouTube takes in a comment's textOriginal. */
export const MAX_COMMENT_CHARS = 10_000;
/** How many replies a commentThread carries inline; the rest only through comments.list?parentId=. */
const INLINE_REPLIES = 5;
const THREAD_PARTS = ['id', 'snippet', 'replies'];
const COMMENT_PARTS = ['id', 'snippet'];
const ITEM_PARTS = ['id', 'snippet', 'contentDetails', 'status'];

const etag = (): string => randomUrlSafe(27);

function parameterError(message: string, reason: string, location?: string): ErrorAnswer {
  return googleApiError(400, 'INVALID_ARGUMENT', message, reason, {
    domain: 'youtube.parameter',
    ...(location ? { location } : {}),
  });
}

/** maxResults within [min, max], or the error; default when absent. */
function pageSize(raw: string | undefined, min: number, max: number, fallback: number): number | ErrorAnswer {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    return parameterError(
      `Invalid value '${raw}'. Values must be within the range: [${min}, ${max}]`,
      'invalidParameter',
      'maxResults',
    );
  return n;
}

/** Page tokens are opaque to callers: the offset and the listing they belong to. */
function pageToken(scope: string, offset: number): string {
  return Buffer.from(JSON.stringify({ s: scope, o: offset })).toString('base64url');
}

function offsetOf(raw: string | undefined, scope: string): number | ErrorAnswer {
  if (!raw) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { s?: unknown; o?: unknown };
    if (parsed.s === scope && typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0)
      return parsed.o;
  } catch {
    // fall through
  }
  return parameterError('The request specifies an invalid page token.', 'invalidPageToken', 'pageToken');
}

function isError(v: unknown): v is ErrorAnswer {
  return typeof v === 'object' && v !== null && 'status' in v && 'body' in v;
}

/** One page of `all` and the listing envelope. */
function paged(kind: string, all: JsonObject[], offset: number, size: number, scope: string): JsonObject {
  const items = all.slice(offset, offset + size);
  const next: JsonObject = offset + size < all.length ? { nextPageToken: pageToken(scope, offset + size) } : {};
  return { kind, etag: etag(), ...next, pageInfo: { totalResults: all.length, resultsPerPage: size }, items };
}

function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\n/g, '<br>');
}

function commentResource(c: ObjectRecord, video: ObjectRecord, parts: string[], html: boolean): JsonObject {
  const body = text(c.text);
  const out: JsonObject = { kind: 'youtube#comment', etag: etag(), id: c.id };
  if (parts.includes('snippet')) {
    out.snippet = {
      channelId: text(video.channelId),
      videoId: video.id,
      textDisplay: html ? escapeHtml(body) : body,
      textOriginal: body,
      ...(c.parentId ? { parentId: c.parentId } : {}),
      authorDisplayName: text(c.authorName),
      authorProfileImageUrl: c.authorAvatarUrl ?? null,
      authorChannelUrl: `http://www.youtube.com/channel/${text(c.authorId)}`,
      authorChannelId: { value: text(c.authorId) },
      canRate: true,
      viewerRating: 'none',
      likeCount: typeof c.likeCount === 'number' ? c.likeCount : 0,
      publishedAt: c.createdAt,
      updatedAt: c.createdAt,
    };
  }
  return out;
}

function threadResource(
  call: Call,
  top: ObjectRecord,
  video: ObjectRecord,
  parts: string[],
  html: boolean,
): JsonObject {
  const replies = repliesTo(call.slice, top.id);
  const out: JsonObject = { kind: 'youtube#commentThread', etag: etag(), id: top.id };
  if (parts.includes('snippet')) {
    out.snippet = {
      channelId: text(video.channelId),
      videoId: video.id,
      topLevelComment: commentResource(top, video, ['id', 'snippet'], html),
      canReply: true,
      totalReplyCount: replies.length,
      isPublic: true,
    };
  }
  if (parts.includes('replies') && replies.length) {
    out.replies = {
      comments: replies.slice(0, INLINE_REPLIES).map((r) => commentResource(r, video, ['id', 'snippet'], html)),
    };
  }
  return out;
}

/** A video the caller may read: its own, or another channel's public one. */
function readableVideo(call: Call, who: Uploader, id: string | undefined): ObjectRecord | undefined {
  const video = findObject(call, 'posts', id);
  return video && (video.accountId === who.account.id || video.privacyStatus === 'public') ? video : undefined;
}

function videoNotFound(domain: string): ErrorAnswer {
  return googleApiError(
    404,
    'NOT_FOUND',
    'The video identified by the <code><a href="/youtube/v3/docs/commentThreads/list#videoId">videoId</a></code> parameter could not be found.',
    'videoNotFound',
    { domain, location: 'videoId' },
  );
}

function disabledAnswer(): ErrorAnswer {
  return googleApiError(
    403,
    'PERMISSION_DENIED',
    'The video identified by the <code><a href="/youtube/v3/docs/commentThreads/list#videoId">videoId</a></code> parameter has disabled comments.',
    'commentsDisabled',
    {
      domain: 'youtube.commentThread',
      location: 'videoId',
    },
  );
}

function commentNotFound(message: string, reason = 'commentNotFound'): ErrorAnswer {
  return googleApiError(404, 'NOT_FOUND', message, reason, { domain: 'youtube.comment' });
}

/** Token, force-ssl scope and `part` of a comment call; null once the error is sent. */
function commentCaller(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  allowed: string[],
): { who: Uploader; parts: string[] } | null {
  const who = uploader(req, reply, call, COMMENT_SCOPES);
  if (!who) return null;
  const parts = partsOf(reply, queryParams(req).part, allowed);
  return parts ? { who, parts } : null;
}

function textFormat(reply: FastifyReply, raw: string | undefined): boolean | null {
  if (raw === undefined || raw === 'html') return true;
  if (raw === 'plainText') return false;
  sendAnswer(reply, parameterError(`Invalid value '${raw}' for textFormat`, 'invalidParameter', 'textFormat'));
  return null;
}

export function declareYouTubeEngagement(ctx: SandboxContext): void {
  declareEngagement(ctx, 'youtube', {
    // Top-level comment ids (= thread ids) look like "Ugz…AaABAg"; a reply's id is "<thread id>.<reply key>".
    commentId: (_ctx, _post, parent) => {
      if (!parent) return `Ugz${randomUrlSafe(19)}4AaABAg`;
      const thread = typeof parent.rootCommentId === 'string' ? parent.rootCommentId : parent.id;
      return `${thread}.${randomUrlSafe(22)}`;
    },
    userId: (n) => `UC${seededUrlSafe(`youtube:viewer:${n}`, 21)}Q`,
  });
}

export function registerYouTubeEngagement(sim: Simulator): void {
  declareYouTubeEngagement(sim.ctx);

  addRoute(sim, {
    method: 'GET',
    url: '/youtube/v3/playlistItems',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = uploader(req, reply, call, READ_SCOPES);
      if (!who) return reply;
      const q = queryParams(req);
      const parts = partsOf(reply, q.part, ITEM_PARTS);
      if (!parts) return reply;
      if (!q.playlistId && !q.id)
        return sendAnswer(
          reply,
          parameterError('No filter selected. Expected one of: id, playlistId', 'missingRequiredParameter'),
        );
      const size = pageSize(q.maxResults, 0, 50, 5);
      if (isError(size)) return sendAnswer(reply, size);
      const offset = offsetOf(q.pageToken, `items:${q.playlistId ?? ''}`);
      if (isError(offset)) return sendAnswer(reply, offset);
      const channel = assetsOf(who.account, 'channel').find((c) => c.fields.uploads === q.playlistId);
      const playlist = assetsOf(who.account, 'playlist').find((p) => p.id === q.playlistId);
      if (!channel && !playlist) {
        return sendAnswer(
          reply,
          googleApiError(
            404,
            'NOT_FOUND',
            "The playlist identified with the request's <code>playlistId</code> parameter cannot be found.",
            'playlistNotFound',
            { domain: 'youtube.playlistItem', location: 'playlistId' },
          ),
        );
      }
      // The uploads playlist holds every video of the channel, newest first; another playlist the videos added to it.
      const videos = objectsOf(call, 'posts', who.account.id)
        .filter((v) =>
          channel
            ? v.channelId === channel.id
            : Array.isArray(v.playlistItems) && v.playlistItems.some((i) => isObj(i) && i.playlistId === q.playlistId),
        )
        .reverse();
      const items = videos.map((v, position): JsonObject => {
        const all: Record<string, JsonObject> = {
          snippet: {
            publishedAt: v.createdAt,
            channelId: text(v.channelId),
            title: text(v.title),
            description: text(v.description),
            thumbnails: thumbnails(v.id),
            channelTitle: who.channel.name,
            playlistId: q.playlistId ?? '',
            position,
            resourceId: { kind: 'youtube#video', videoId: v.id },
            videoOwnerChannelTitle: who.channel.name,
            videoOwnerChannelId: text(v.channelId),
          },
          contentDetails: { videoId: v.id, videoPublishedAt: v.createdAt },
          status: { privacyStatus: text(v.privacyStatus) || 'public' },
        };
        const out: JsonObject = {
          kind: 'youtube#playlistItem',
          etag: etag(),
          id: Buffer.from(`${q.playlistId}.${v.id}`).toString('base64url'),
        };
        for (const p of parts) if (all[p]) out[p] = all[p];
        return out;
      });
      return reply.send(paged('youtube#playlistItemListResponse', items, offset, size, `items:${q.playlistId ?? ''}`));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/youtube/v3/commentThreads',
    ops: ['comments'],
    surface: 'api',
    handler: (req, reply, call) => {
      const caller = commentCaller(req, reply, call, THREAD_PARTS);
      if (!caller) return reply;
      const q = queryParams(req);
      const html = textFormat(reply, q.textFormat);
      if (html === null) return reply;
      const filters = ['videoId', 'allThreadsRelatedToChannelId', 'id'].filter((f) => q[f] !== undefined);
      if (filters.length !== 1) {
        return sendAnswer(
          reply,
          parameterError(
            'Exactly one filter must be selected. Expected one of: allThreadsRelatedToChannelId, id, videoId',
            'missingRequiredParameter',
          ),
        );
      }
      if (q.order !== undefined && !['time', 'relevance'].includes(q.order))
        return sendAnswer(reply, parameterError(`Invalid value '${q.order}' for order`, 'invalidParameter', 'order'));
      const size = pageSize(q.maxResults, 1, 100, 20);
      if (isError(size)) return sendAnswer(reply, size);
      if (q.id !== undefined) {
        const ids = q.id.split(',');
        const items = [...call.slice.comments.values()]
          .filter((c) => ids.includes(c.id) && c.parentId === null)
          .map((c) => ({ c, v: readableVideo(call, caller.who, String(c.postId)) }))
          .filter((x): x is { c: ObjectRecord; v: ObjectRecord } => x.v !== undefined)
          .map(({ c, v }) => threadResource(call, c, v, caller.parts, html));
        return reply.send({
          kind: 'youtube#commentThreadListResponse',
          etag: etag(),
          pageInfo: { totalResults: items.length, resultsPerPage: items.length },
          items,
        });
      }
      const videos =
        q.videoId !== undefined
          ? [readableVideo(call, caller.who, q.videoId)]
          : objectsOf(call, 'posts', caller.who.account.id).filter(
              (v) => v.channelId === q.allThreadsRelatedToChannelId,
            );
      if (videos[0] === undefined) return sendAnswer(reply, videoNotFound('youtube.commentThread'));
      const open = videos.filter((v): v is ObjectRecord => v !== undefined && !commentsDisabled(v));
      if (q.videoId !== undefined && open.length === 0) return sendAnswer(reply, disabledAnswer());
      const scope = `threads:${q.videoId ?? q.allThreadsRelatedToChannelId ?? ''}:${q.order ?? 'time'}`;
      const offset = offsetOf(q.pageToken, scope);
      if (isError(offset)) return sendAnswer(reply, offset);
      let threads = open.flatMap((v) => commentsOn(call.slice, v.id).map((c) => ({ c, v })));
      threads.sort((a, b) => Date.parse(b.c.createdAt) - Date.parse(a.c.createdAt));
      if (q.order === 'relevance')
        threads = [...threads].sort((a, b) => (Number(b.c.likeCount) || 0) - (Number(a.c.likeCount) || 0));
      const items = threads.map(({ c, v }) => threadResource(call, c, v, caller.parts, html));
      return reply.send(paged('youtube#commentThreadListResponse', items, offset, size, scope));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/youtube/v3/comments',
    ops: ['comments'],
    surface: 'api',
    handler: (req, reply, call) => {
      const caller = commentCaller(req, reply, call, COMMENT_PARTS);
      if (!caller) return reply;
      const q = queryParams(req);
      const html = textFormat(reply, q.textFormat);
      if (html === null) return reply;
      if ((q.id === undefined) === (q.parentId === undefined)) {
        return sendAnswer(
          reply,
          parameterError(
            'Exactly one filter must be selected. Expected one of: id, parentId',
            'missingRequiredParameter',
          ),
        );
      }
      const size = pageSize(q.maxResults, 1, 100, 20);
      if (isError(size)) return sendAnswer(reply, size);
      const videoOf = (c: ObjectRecord) => readableVideo(call, caller.who, String(c.postId));
      if (q.id !== undefined) {
        const ids = q.id.split(',');
        const items = [...call.slice.comments.values()]
          .filter((c) => ids.includes(c.id) && videoOf(c))
          .map((c) => commentResource(c, videoOf(c)!, caller.parts, html));
        return reply.send({
          kind: 'youtube#commentListResponse',
          etag: etag(),
          pageInfo: { totalResults: items.length, resultsPerPage: items.length },
          items,
        });
      }
      const parent = call.slice.comments.get(q.parentId ?? '');
      const video = parent ? videoOf(parent) : undefined;
      if (!parent || !video)
        return sendAnswer(
          reply,
          commentNotFound('The comment identified by the <code>parentId</code> parameter could not be found.'),
        );
      const scope = `replies:${parent.id}`;
      const offset = offsetOf(q.pageToken, scope);
      if (isError(offset)) return sendAnswer(reply, offset);
      const items = repliesTo(call.slice, parent.id).map((r) => commentResource(r, video, caller.parts, html));
      return reply.send(paged('youtube#commentListResponse', items, offset, size, scope));
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/youtube/v3/comments',
    ops: ['reply'],
    surface: 'api',
    handler: (req, reply, call) => {
      const caller = commentCaller(req, reply, call, COMMENT_PARTS);
      if (!caller) return reply;
      const body = jsonBody(req);
      const snippet = isObj(body?.snippet) ? body.snippet : {};
      const commentError = (reason: string, message: string) =>
        googleApiError(400, 'INVALID_ARGUMENT', message, reason, { domain: 'youtube.comment' });
      const parentId = typeof snippet.parentId === 'string' ? snippet.parentId : '';
      if (!parentId)
        return sendAnswer(
          reply,
          commentError(
            'parentIdMissing',
            'The comment that you are creating must be linked to a parent comment. However, the request does not specify a value for the parentId property.',
          ),
        );
      const textOriginal = typeof snippet.textOriginal === 'string' ? snippet.textOriginal : '';
      if (!textOriginal.trim())
        return sendAnswer(
          reply,
          commentError(
            'commentTextRequired',
            'The comment resource that is being inserted must specify a value for the snippet.textOriginal property. Comments cannot be empty.',
          ),
        );
      if ([...textOriginal].length > MAX_COMMENT_CHARS) {
        return sendAnswer(
          reply,
          commentError(
            'commentTextTooLong',
            'The comment resource that is being inserted contains too many characters in the snippet.textOriginal property.',
          ),
        );
      }
      const parent = call.slice.comments.get(parentId);
      const video = parent ? readableVideo(call, caller.who, String(parent.postId)) : undefined;
      if (!parent || !video)
        return sendAnswer(
          reply,
          commentNotFound('The specified parent comment could not be found.', 'parentCommentNotFound'),
        );
      // Threads are one level deep: a reply answers the top-level comment, never another reply.
      if (parent.parentId !== null) {
        return sendAnswer(
          reply,
          commentError(
            'operationNotSupported',
            'The API user is not able to insert a comment in reply to the comment identified by the parentId property; reply to its top-level comment.',
          ),
        );
      }
      if (commentsDisabled(video)) {
        return sendAnswer(
          reply,
          googleApiError(
            403,
            'PERMISSION_DENIED',
            'Comments are disabled on the video this comment belongs to.',
            'commentsDisabled',
            { domain: 'youtube.comment' },
          ),
        );
      }
      const me = caller.who.channel;
      const stored = putComment(call.ctx, 'youtube', video, parent, {
        text: textOriginal,
        author: {
          id: me.id,
          name: me.name,
          avatarUrl: typeof me.fields.thumbnail === 'string' ? me.fields.thumbnail : null,
        },
        fromAccount: true,
      });
      return reply.send(commentResource(stored, video, caller.parts, true));
    },
  });
}
