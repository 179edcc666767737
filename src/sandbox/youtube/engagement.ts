// YouTube Data API v3 read side: playlistItems.list (the channel's uploads playlist, newest first), commentThreads.list
// (top-level comments of a video with a few replies inline), comments.list?parentId= (all replies of a thread) and
// comments.insert (a reply, which YouTube only takes under a top-level comment: snippet.parentId is the thread's id).
// Reading and writing comments needs youtube.force-ssl; a video whose comments are off answers 403 commentsDisabled.
// Quota: every list call costs 1 unit and comments.insert 50 (errors.ts quotaCost, counted under youtube_quota).
// The comment routes are in comments.ts, their resources in comment-views.ts, paging in listing.ts.
import { assetsOf } from '../core/accounts.ts';
import type { SandboxContext } from '../core/context.ts';
import { declareEngagement } from '../core/engagement.ts';
import { isObj, queryParams } from '../core/http.ts';
import { randomUrlSafe, seededUrlSafe } from '../core/ids.ts';
import { objectsOf, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import type { JsonObject } from '../core/types.ts';
import { registerYouTubeComments } from './comments.ts';
import { googleApiError } from './errors.ts';
import { etag, isError, offsetOf, pageSize, paged, parameterError } from './listing.ts';
import { partsOf, READ_SCOPES, thumbnails, uploader } from './video-meta.ts';

export { COMMENT_SCOPES } from './comment-views.ts';
export { MAX_COMMENT_CHARS } from './comments.ts';

const ITEM_PARTS = ['id', 'snippet', 'contentDetails', 'status'];

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

  registerYouTubeComments(sim);
}
