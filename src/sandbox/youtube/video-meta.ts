// YouTube video metadata: who may call (token + scopes + channel), the validation rules of videos.insert
// (title ≤ 100 characters, description ≤ 5000 bytes, neither with < or >, tags ≤ 500 characters, category,
// privacy, publishAt) and the `video` resource built from a stored video.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assetsOf } from '../core/accounts.ts';
import { bearerToken, isObj } from '../core/http.ts';
import type { Obj } from '../core/http.ts';
import { randomUrlSafe } from '../core/ids.ts';
import { num, text } from '../core/objects.ts';
import { sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer } from '../core/route.ts';
import { utf8Length } from '../core/text.ts';
import { checkToken } from '../core/tokens.ts';
import type { AccountRecord, AssetRecord, JsonObject, JsonValue, ObjectRecord, TokenRecord } from '../core/types.ts';
import { apiAuthError, googleApiError, insufficientScopes } from './errors.ts';

const G = 'https://www.googleapis.com/auth/';
export const UPLOAD_SCOPES = [`${G}youtube.upload`, `${G}youtube`, `${G}youtube.force-ssl`];
export const MANAGE_SCOPES = [`${G}youtube`, `${G}youtube.force-ssl`, `${G}youtubepartner`];
export const READ_SCOPES = [`${G}youtube.readonly`, ...MANAGE_SCOPES, `${G}youtube.upload`];
export const VIDEO_PARTS = [
  'id',
  'snippet',
  'status',
  'contentDetails',
  'statistics',
  'processingDetails',
  'player',
  'recordingDetails',
  'localizations',
  'fileDetails',
  'topicDetails',
];
const CATEGORIES = ['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28', '29'];

export interface Uploader {
  token: TokenRecord;
  account: AccountRecord;
  channel: AssetRecord;
}

export function uploader(req: FastifyRequest, reply: FastifyReply, call: Call, scopes: string[]): Uploader | null {
  const checked = checkToken(call, bearerToken(req), ['access']);
  if (!checked.ok) {
    sendAnswer(reply, apiAuthError(checked.problem));
    return null;
  }
  if (!scopes.some((s) => checked.token.scopes.includes(s))) {
    sendAnswer(reply, insufficientScopes());
    return null;
  }
  const account = call.slice.accounts.get(checked.token.accountId);
  const channel = account ? assetsOf(account, 'channel')[0] : undefined;
  if (!account || !channel) {
    sendAnswer(reply, googleApiError(401, 'UNAUTHENTICATED', 'Unauthorized', 'youtubeSignupRequired'));
    return null;
  }
  return { token: checked.token, account, channel };
}

/** `part` validated against the allowed parts; answers unknownPart / required itself. */
export function partsOf(reply: FastifyReply, raw: string | undefined, allowed = VIDEO_PARTS): string[] | null {
  if (!raw) {
    sendAnswer(
      reply,
      googleApiError(400, 'INVALID_ARGUMENT', 'Required parameter: part', 'required', { location: 'part' }),
    );
    return null;
  }
  const parts = raw.split(',').map((p) => p.trim());
  const bad = parts.find((p) => !allowed.includes(p));
  if (bad) {
    sendAnswer(
      reply,
      googleApiError(400, 'INVALID_ARGUMENT', `'${bad}'`, 'unknownPart', { domain: 'youtube.part', location: 'part' }),
    );
    return null;
  }
  return parts;
}

export function videoError(reason: string, message: string, status = 400): ErrorAnswer {
  return googleApiError(
    status,
    status === 404 ? 'NOT_FOUND' : status === 403 ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT',
    message,
    reason,
    { domain: 'youtube.video' },
  );
}

function tagsLength(tags: string[]): number {
  return tags.reduce((n, t) => n + t.length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);
}

/** The videos.insert body rules; returns the fields to store or the error. */
export function validateMetadata(body: Obj | null, nowMs: number): { error: ErrorAnswer } | { fields: JsonObject } {
  const checked = checkMetadata(body, nowMs);
  return 'status' in checked && typeof checked.status === 'number'
    ? { error: checked as ErrorAnswer }
    : { fields: checked as JsonObject };
}

function checkMetadata(body: Obj | null, nowMs: number): ErrorAnswer | JsonObject {
  const snippet = isObj(body?.snippet) ? body.snippet : {};
  const status = isObj(body?.status) ? body.status : {};
  const title = typeof snippet.title === 'string' ? snippet.title : '';
  if (!title.trim())
    return videoError('invalidTitle', 'The request metadata specifies an invalid or empty video title.');
  if ([...title].length > 100 || /[<>]/.test(title))
    return videoError('invalidTitle', 'The request metadata specifies an invalid video title.');
  const description = typeof snippet.description === 'string' ? snippet.description : '';
  if (utf8Length(description) > 5000 || /[<>]/.test(description)) {
    return videoError('invalidDescription', 'The request metadata specifies an invalid video description.');
  }
  const tags = Array.isArray(snippet.tags) ? snippet.tags.map(String) : [];
  if (tagsLength(tags) > 500 || tags.some((t) => /[<>]/.test(t)))
    return videoError('invalidTags', 'The request metadata specifies invalid video keywords.');
  const categoryId = snippet.categoryId === undefined ? '22' : String(snippet.categoryId);
  if (!CATEGORIES.includes(categoryId))
    return videoError('invalidCategoryId', 'The request metadata specifies an invalid video category.');
  const privacy = status.privacyStatus === undefined ? 'public' : String(status.privacyStatus);
  if (!['public', 'unlisted', 'private'].includes(privacy))
    return videoError('invalidVideoMetadata', 'The request metadata is invalid: unknown privacyStatus.');
  const license = status.license === undefined ? 'youtube' : String(status.license);
  if (!['youtube', 'creativeCommon'].includes(license))
    return videoError('invalidVideoMetadata', 'The request metadata is invalid: unknown license.');
  let publishAt: string | null = null;
  if (status.publishAt !== undefined) {
    const at = Date.parse(String(status.publishAt));
    if (privacy !== 'private' || !Number.isFinite(at) || at <= nowMs) {
      return videoError('invalidPublishAt', 'The request metadata specifies an invalid scheduled publishing time.');
    }
    publishAt = new Date(at).toISOString();
  }
  const opt = (v: unknown): JsonValue => (typeof v === 'string' ? v : null);
  return {
    title,
    description,
    tags,
    categoryId,
    defaultLanguage: opt(snippet.defaultLanguage),
    defaultAudioLanguage: opt(snippet.defaultAudioLanguage),
    privacyStatus: privacy,
    publishAt,
    license,
    embeddable: status.embeddable !== false,
    publicStatsViewable: status.publicStatsViewable !== false,
    selfDeclaredMadeForKids: status.selfDeclaredMadeForKids === true,
    containsSyntheticMedia: status.containsSyntheticMedia === true,
  };
}

export function thumbnails(id: string): JsonObject {
  const at = (name: string, width: number, height: number) => ({
    url: `https://i.ytimg.com/vi/${id}/${name}.jpg`,
    width,
    height,
  });
  return { default: at('default', 120, 90), medium: at('mqdefault', 320, 180), high: at('hqdefault', 480, 360) };
}

/** A video's counts as the statistics part names them; commentCount is absent when comments are off. */
export interface VideoStatistics {
  views: number;
  likes: number;
  comments: number;
  commentsDisabled: boolean;
}

/** The `video` resource with the requested parts; processing and file details only for the owner. */
export function videoResource(
  video: ObjectRecord,
  parts: string[],
  channelTitle: string,
  owner: boolean,
  stats?: VideoStatistics,
): JsonObject {
  const id = video.id;
  const failed = video.uploadStatus === 'failed';
  const optional = (key: string): JsonObject => (video[key] ? { [key]: video[key] ?? null } : {});
  const all: Record<string, JsonObject> = {
    snippet: {
      publishedAt: video.createdAt,
      channelId: video.channelId ?? null,
      title: video.title ?? '',
      description: video.description ?? '',
      thumbnails: thumbnails(id),
      channelTitle,
      ...(Array.isArray(video.tags) && video.tags.length ? { tags: video.tags } : {}),
      categoryId: video.categoryId ?? '22',
      liveBroadcastContent: 'none',
      ...optional('defaultLanguage'),
      ...optional('defaultAudioLanguage'),
      localized: { title: video.title ?? '', description: video.description ?? '' },
    },
    status: {
      uploadStatus: video.uploadStatus ?? 'uploaded',
      ...(failed ? { failureReason: video.failureReason ?? 'invalidFile' } : {}),
      ...(video.uploadStatus === 'rejected' ? { rejectionReason: video.rejectionReason ?? 'inappropriate' } : {}),
      privacyStatus: video.privacyStatus ?? 'public',
      ...optional('publishAt'),
      license: video.license ?? 'youtube',
      embeddable: video.embeddable ?? true,
      publicStatsViewable: video.publicStatsViewable ?? true,
      madeForKids: video.selfDeclaredMadeForKids ?? false,
      selfDeclaredMadeForKids: video.selfDeclaredMadeForKids ?? false,
      containsSyntheticMedia: video.containsSyntheticMedia ?? false,
    },
    processingDetails: {
      processingStatus: video.processingStatus ?? 'processing',
      ...(video.processingStatus === 'processing'
        ? { processingProgress: { partsTotal: '1000', partsProcessed: '0', timeLeftMs: '1000' } }
        : {}),
      ...(video.processingStatus === 'failed' ? { processingFailureReason: 'transcodeFailed' } : {}),
      fileDetailsAvailability: 'available',
      processingIssuesAvailability: 'available',
      tagSuggestionsAvailability: 'inProgress',
      editorSuggestionsAvailability: 'inProgress',
      thumbnailsAvailability: video.processingStatus === 'succeeded' ? 'available' : 'inProgress',
    },
    contentDetails: {
      duration: 'PT0S',
      dimension: '2d',
      definition: 'hd',
      caption: 'false',
      licensedContent: false,
      contentRating: {},
      projection: 'rectangular',
    },
    statistics: {
      viewCount: String(stats?.views ?? 0),
      likeCount: String(stats?.likes ?? 0),
      favoriteCount: '0',
      ...(stats?.commentsDisabled ? {} : { commentCount: String(stats?.comments ?? 0) }),
    },
    player: {
      embedHtml: `<iframe width="480" height="270" src="//www.youtube.com/embed/${id}" frameborder="0" allowfullscreen></iframe>`,
    },
    recordingDetails: {},
    localizations: {},
    topicDetails: {},
    fileDetails: {
      fileSize: String(num(video.bytes)),
      fileType: 'video',
      container: text(video.mimeType).split('/')[1] ?? 'mp4',
    },
  };
  const out: JsonObject = { kind: 'youtube#video', etag: randomUrlSafe(27), id };
  for (const p of parts) {
    if (!owner && (p === 'processingDetails' || p === 'fileDetails')) continue;
    const value = all[p];
    if (value) out[p] = value;
  }
  return out;
}
