// After the upload: videos.list?id= (reconciliation and processing status), videos.delete, thumbnails.set
// (POST /upload/youtube/v3/thumbnails/set?videoId=, JPEG/PNG ≤ 2 MB) and playlistItems.insert.
import { assetsOf } from '../core/accounts.ts';
import { commentsDisabled, metricsOf } from '../core/engagement.ts';
import type { PlatformSlice } from '../core/store.ts';
import { jsonBody, isObj, queryParams } from '../core/http.ts';
import { randomHex, randomUrlSafe } from '../core/ids.ts';
import { bodyBytes, MB, sniff, UPLOAD_BODY_LIMIT } from '../core/media.ts';
import { findObject, num, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import type { JsonObject, JsonValue, ObjectRecord } from '../core/types.ts';
import { googleApiError } from './errors.ts';
import {
  MANAGE_SCOPES,
  partsOf,
  READ_SCOPES,
  thumbnails,
  UPLOAD_SCOPES,
  uploader,
  videoError,
  videoResource,
} from './video-meta.ts';
import type { Uploader, VideoStatistics } from './video-meta.ts';

const MAX_THUMBNAIL = 2 * MB;
const PLAYLIST_ITEM_PARTS = ['id', 'snippet', 'contentDetails', 'status'];

/** YouTube counts views, likes and comments; it reports no shares. */
function statisticsOf(slice: PlatformSlice, video: ObjectRecord): VideoStatistics {
  const m = metricsOf(slice, video);
  return { views: m.impressions, likes: m.likes, comments: m.comments, commentsDisabled: commentsDisabled(video) };
}

function notFound(): ReturnType<typeof videoError> {
  return videoError('videoNotFound', 'The video that you are trying to use cannot be found.', 404);
}

function ownVideo(who: Uploader, video: ObjectRecord | undefined): boolean {
  return video !== undefined && video.accountId === who.account.id;
}

export function registerYouTubeVideos(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/youtube/v3/videos',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = uploader(req, reply, call, READ_SCOPES);
      if (!who) return reply;
      const q = queryParams(req);
      const parts = partsOf(reply, q.part);
      if (!parts) return reply;
      if (!q.id) {
        return sendAnswer(
          reply,
          googleApiError(
            400,
            'INVALID_ARGUMENT',
            'No filter selected. Expected one of: chart, id, myRating',
            'missingRequiredParameter',
            { domain: 'youtube.parameter' },
          ),
        );
      }
      const items = q.id
        .split(',')
        .map((id) => findObject(call, 'posts', id.trim()))
        .filter(
          (v): v is ObjectRecord => v !== undefined && (v.accountId === who.account.id || v.privacyStatus === 'public'),
        )
        .map((v) =>
          videoResource(
            v,
            parts,
            v.accountId === who.account.id ? who.channel.name : '',
            v.accountId === who.account.id,
            statisticsOf(call.slice, v),
          ),
        );
      return reply.send({
        kind: 'youtube#videoListResponse',
        etag: randomUrlSafe(27),
        items,
        pageInfo: { totalResults: items.length, resultsPerPage: items.length },
      });
    },
  });

  addRoute(sim, {
    method: 'DELETE',
    url: '/youtube/v3/videos',
    ops: ['delete'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = uploader(req, reply, call, MANAGE_SCOPES);
      if (!who) return reply;
      const id = queryParams(req).id ?? '';
      const video = findObject(call, 'posts', id);
      if (!video) return sendAnswer(reply, notFound());
      if (!ownVideo(who, video))
        return sendAnswer(
          reply,
          videoError('forbidden', 'The video that you are trying to delete cannot be deleted.', 403),
        );
      call.slice.posts.delete(id);
      return reply.code(204).send();
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/upload/youtube/v3/thumbnails/set',
    ops: ['upload'],
    surface: 'api',
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: (req, reply, call) => {
      const who = uploader(req, reply, call, [...UPLOAD_SCOPES, ...MANAGE_SCOPES]);
      if (!who) return reply;
      const id = queryParams(req).videoId;
      if (!id)
        return sendAnswer(
          reply,
          googleApiError(400, 'INVALID_ARGUMENT', 'Required parameter: videoId', 'required', { location: 'videoId' }),
        );
      const video = findObject(call, 'posts', id);
      if (!video)
        return sendAnswer(
          reply,
          videoError('videoNotFound', 'The video that you are trying to update cannot be found.', 404),
        );
      if (!ownVideo(who, video))
        return sendAnswer(
          reply,
          videoError(
            'forbidden',
            'The authenticated user does not have permissions to upload and set custom video thumbnails.',
            403,
          ),
        );
      const bytes = bodyBytes(req);
      if (bytes.length === 0)
        return sendAnswer(reply, videoError('mediaBodyRequired', 'The request does not include the image content.'));
      const mime = sniff(bytes);
      if (mime !== 'image/jpeg' && mime !== 'image/png')
        return sendAnswer(reply, videoError('invalidImage', 'The provided image content is invalid.'));
      if (bytes.length > MAX_THUMBNAIL)
        return sendAnswer(
          reply,
          videoError('invalidImage', `The thumbnail image is too large: the maximum is ${MAX_THUMBNAIL} bytes.`),
        );
      video.thumbnail = { bytes: bytes.length, mimeType: mime, setAt: call.ctx.now().toISOString() };
      const at = (name: string, width: number, height: number) => ({
        url: `https://i.ytimg.com/vi/${id}/${name}.jpg`,
        width,
        height,
      });
      return reply.send({
        kind: 'youtube#thumbnailSetResponse',
        etag: randomUrlSafe(27),
        items: [{ ...thumbnails(id), standard: at('sddefault', 640, 480), maxres: at('maxresdefault', 1280, 720) }],
      });
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/youtube/v3/playlistItems',
    ops: ['publish'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = uploader(req, reply, call, MANAGE_SCOPES);
      if (!who) return reply;
      const parts = partsOf(reply, queryParams(req).part, PLAYLIST_ITEM_PARTS);
      if (!parts) return reply;
      const snippet = jsonBody(req)?.snippet;
      const input = isObj(snippet) ? snippet : {};
      const playlistId = typeof input.playlistId === 'string' ? input.playlistId : '';
      if (!playlistId)
        return sendAnswer(
          reply,
          googleApiError(400, 'INVALID_ARGUMENT', 'Playlist id not specified.', 'playlistIdRequired', {
            domain: 'youtube.playlistItem',
          }),
        );
      const playlist = assetsOf(who.account, 'playlist').find((p) => p.id === playlistId);
      if (!playlist) {
        return sendAnswer(
          reply,
          googleApiError(
            404,
            'NOT_FOUND',
            "The playlist identified with the request's <code>playlistId</code> parameter cannot be found.",
            'playlistNotFound',
            { domain: 'youtube.playlistItem' },
          ),
        );
      }
      const resource = isObj(input.resourceId) ? input.resourceId : {};
      if (resource.kind !== 'youtube#video')
        return sendAnswer(
          reply,
          googleApiError(400, 'INVALID_ARGUMENT', 'Resource type not supported.', 'invalidResourceType', {
            domain: 'youtube.playlistItem',
          }),
        );
      const video = findObject(call, 'posts', typeof resource.videoId === 'string' ? resource.videoId : undefined);
      if (!video)
        return sendAnswer(
          reply,
          googleApiError(404, 'NOT_FOUND', 'Video not found.', 'videoNotFound', { domain: 'youtube.playlistItem' }),
        );
      const count = num(playlist.fields.itemCount);
      const position = input.position === undefined ? count : input.position;
      if (typeof position !== 'number' || !Number.isInteger(position) || position < 0 || position > count) {
        return sendAnswer(
          reply,
          googleApiError(
            400,
            'INVALID_ARGUMENT',
            'Request contains an invalid value for the playlist item position.',
            'invalidPlaylistItemPosition',
            { domain: 'youtube.playlistItem' },
          ),
        );
      }
      const id = Buffer.from(`${playlistId}.${randomHex(16)}`).toString('base64url');
      const items: JsonValue[] = Array.isArray(video.playlistItems) ? video.playlistItems : [];
      video.playlistItems = [...items, { id, playlistId, position }];
      playlist.fields.itemCount = count + 1;
      const all: Record<string, JsonObject> = {
        snippet: {
          publishedAt: call.ctx.now().toISOString(),
          channelId: who.channel.id,
          title: text(video.title),
          description: text(video.description),
          thumbnails: thumbnails(video.id),
          channelTitle: who.channel.name,
          playlistId,
          position,
          resourceId: { kind: 'youtube#video', videoId: video.id },
          videoOwnerChannelTitle: who.channel.name,
          videoOwnerChannelId: text(video.channelId),
        },
        contentDetails: { videoId: video.id, videoPublishedAt: video.createdAt },
        status: { privacyStatus: text(video.privacyStatus) || 'public' },
      };
      const out: JsonObject = { kind: 'youtube#playlistItem', etag: randomUrlSafe(27), id };
      for (const p of parts) if (all[p]) out[p] = all[p];
      return reply.send(out);
    },
  });
}
