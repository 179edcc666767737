// Comment resources in the YouTube simulator (engagement.ts): comments and comment threads as the Data API serves
// them, the videos a caller may read, the errors of comment calls, and the checks every comment call starts with.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { repliesTo } from '../core/engagement.ts';
import { queryParams } from '../core/http.ts';
import { findObject, text } from '../core/objects.ts';
import { sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer } from '../core/route.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { googleApiError } from './errors.ts';
import { etag, parameterError } from './listing.ts';
import { partsOf, uploader } from './video-meta.ts';
import type { Uploader } from './video-meta.ts';

const G = 'https://www.googleapis.com/auth/';
/** The only scope the comment methods accept. */
export const COMMENT_SCOPES = [`${G}youtube.force-ssl`];
/** How many replies a commentThread carries inline; the rest only through comments.list?parentId=. */
const INLINE_REPLIES = 5;

function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\n/g, '<br>');
}

/** A comment resource (youtube#comment) with the asked parts; its text as HTML or plain text. */
export function commentResource(c: ObjectRecord, video: ObjectRecord, parts: string[], html: boolean): JsonObject {
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

/** A comment thread (youtube#commentThread): its top-level comment and its first replies inline. */
export function threadResource(
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
export function readableVideo(call: Call, who: Uploader, id: string | undefined): ObjectRecord | undefined {
  const video = findObject(call, 'posts', id);
  return video && (video.accountId === who.account.id || video.privacyStatus === 'public') ? video : undefined;
}

export function videoNotFound(domain: string): ErrorAnswer {
  return googleApiError(
    404,
    'NOT_FOUND',
    'The video identified by the <code><a href="/youtube/v3/docs/commentThreads/list#videoId">videoId</a></code> parameter could not be found.',
    'videoNotFound',
    { domain, location: 'videoId' },
  );
}

export function disabledAnswer(): ErrorAnswer {
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

export function commentNotFound(message: string, reason = 'commentNotFound'): ErrorAnswer {
  return googleApiError(404, 'NOT_FOUND', message, reason, { domain: 'youtube.comment' });
}

/** Token, force-ssl scope and `part` of a comment call; null once the error is sent. */
export function commentCaller(
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

/** Whether text is served as HTML (the default) or plain text; null once the error is sent. */
export function textFormat(reply: FastifyReply, raw: string | undefined): boolean | null {
  if (raw === undefined || raw === 'html') return true;
  if (raw === 'plainText') return false;
  sendAnswer(reply, parameterError(`Invalid value '${raw}' for textFormat`, 'invalidParameter', 'textFormat'));
  return null;
}
