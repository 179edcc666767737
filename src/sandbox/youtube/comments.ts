// Comments in the YouTube simulator (engagement.ts): commentThreads.list (top-level comments with a few replies
// inline), comments.list (by id, or every reply of a thread), comments.insert (a reply under a top-level comment) and
// commentThreads.insert (a new top-level comment on a video).
import { commentsDisabled, commentsOn, putComment, repliesTo } from '../core/engagement.ts';
import { isObj, jsonBody, queryParams } from '../core/http.ts';
import { objectsOf } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import type { ObjectRecord } from '../core/types.ts';
import {
  commentCaller,
  commentNotFound,
  commentResource,
  disabledAnswer,
  readableVideo,
  textFormat,
  threadResource,
  videoNotFound,
} from './comment-views.ts';
import { googleApiError } from './errors.ts';
import { etag, isError, offsetOf, pageSize, paged, parameterError } from './listing.ts';

/** What YouTube takes in a comment's textOriginal. */
export const MAX_COMMENT_CHARS = 10_000;
const THREAD_PARTS = ['id', 'snippet', 'replies'];
const COMMENT_PARTS = ['id', 'snippet'];

/** The comment routes: threads and replies read, replies and new threads written. */
export function registerYouTubeComments(sim: Simulator): void {
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
    method: 'POST',
    url: '/youtube/v3/commentThreads',
    ops: ['reply'],
    surface: 'api',
    handler: (req, reply, call) => {
      const caller = commentCaller(req, reply, call, THREAD_PARTS);
      if (!caller) return reply;
      const snippet = isObj(jsonBody(req)?.snippet) ? (jsonBody(req)!.snippet as Record<string, unknown>) : {};
      const threadError = (reason: string, message: string) =>
        googleApiError(400, 'INVALID_ARGUMENT', message, reason, { domain: 'youtube.commentThread' });
      const videoId = typeof snippet.videoId === 'string' ? snippet.videoId : '';
      if (!videoId)
        return sendAnswer(
          reply,
          threadError('invalidCommentThreadMetadata', 'The request does not specify a value for snippet.videoId.'),
        );
      const top = isObj(snippet.topLevelComment) ? snippet.topLevelComment : {};
      const inner = isObj(top.snippet) ? top.snippet : {};
      const textOriginal = typeof inner.textOriginal === 'string' ? inner.textOriginal : '';
      if (!textOriginal.trim())
        return sendAnswer(
          reply,
          threadError(
            'commentTextRequired',
            'The comment resource that is being inserted must specify a value for the snippet.textOriginal property. Comments cannot be empty.',
          ),
        );
      if ([...textOriginal].length > MAX_COMMENT_CHARS)
        return sendAnswer(
          reply,
          threadError(
            'commentTextTooLong',
            'The comment resource that is being inserted contains too many characters in the snippet.textOriginal property.',
          ),
        );
      const video = readableVideo(call, caller.who, videoId);
      if (!video) return sendAnswer(reply, videoNotFound('youtube.commentThread'));
      if (commentsDisabled(video)) return sendAnswer(reply, disabledAnswer());
      const me = caller.who.channel;
      const stored = putComment(call.ctx, 'youtube', video, undefined, {
        text: textOriginal,
        author: {
          id: me.id,
          name: me.name,
          avatarUrl: typeof me.fields.thumbnail === 'string' ? me.fields.thumbnail : null,
        },
        fromAccount: true,
      });
      return reply.send(threadResource(call, stored, video, caller.parts, true));
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
