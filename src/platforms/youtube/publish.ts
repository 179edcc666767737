// YouTube publishing: videos.insert by resumable upload (upload.ts), then the custom thumbnail (thumbnails.set) and
// the playlist (playlistItems.insert) when asked for.
//
// When a video counts as published: the video exists once its last byte is in, but YouTube may still reject it while
// processing (a duplicate, a policy refusal, a file it cannot read). So publish() answers `processing` until the
// video's uploadStatus is `processed`, and checkStatus() keeps reading status and processingDetails: failed /
// rejected / deleted is an error with YouTube's reason, processed is published. The privacyStatus YouTube answered is
// compared with the one asked for (an unaudited API project's uploads are locked private) and the result says so.
import type { Journal, PublishMedia, PublishOutcome, PublishRequest, Publisher } from '../publishing.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { YouTubeContext } from './context.ts';
import { documentedError } from '../documented-errors.ts';
import { YOUTUBE_DOCUMENTED_ERRORS } from './documented-errors.ts';
import { safeText } from '../errors.ts';
import { readApi, secondsToQuotaReset } from './errors.ts';
import { querySession, startSession, uploadFrom } from './upload.ts';
import type { SessionState } from './upload.ts';

type Obj = Record<string, unknown>;

export const YOUTUBE_STEPS = {
  sessionUri: 'youtube.session_uri',
  videoId: 'youtube.video_id',
  /** `set`, or `failed:<reason>` when YouTube refused it for good (the video stays published). */
  thumbnail: 'youtube.thumbnail',
  /** The playlist item id, or `failed:<reason>`. */
  playlistItem: 'youtube.playlist_item',
  /** `<asked>:<returned>` privacyStatus of the upload, as YouTube answered it. */
  privacy: 'youtube.privacy',
} as const;

const MAX_THUMBNAIL_BYTES = 2 * 1024 * 1024;
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png'];
export const YOUTUBE_PRIVACY = ['public', 'unlisted', 'private'] as const;
const PRIVACY: readonly string[] = YOUTUBE_PRIVACY;
/** videos.insert's limits: a title of 100 characters, a description of 5,000 UTF-8 bytes, neither with < or >. */
export const MAX_TITLE_CHARS = 100;
export const MAX_DESCRIPTION_BYTES = 5000;

/** Why YouTube would refuse this title or description (invalidTitle / invalidDescription), or null. */
export function metadataProblem(title: string, description: string): string | null {
  if ([...title].length > MAX_TITLE_CHARS)
    return `A YouTube title is at most ${MAX_TITLE_CHARS} characters; this one has ${[...title].length}.`;
  if (/[<>]/.test(title)) return 'A YouTube title must not contain < or >.';
  const bytes = Buffer.byteLength(description, 'utf8');
  if (bytes > MAX_DESCRIPTION_BYTES)
    return `A YouTube description is at most ${MAX_DESCRIPTION_BYTES} bytes in UTF-8; this one has ${bytes}.`;
  if (/[<>]/.test(description)) return 'A YouTube description must not contain < or >.';
  return null;
}

/** How YouTube counts the tags' total: each tag, plus two quotes around one with a space, plus the commas between. */
export function tagsLength(tags: readonly string[]): number {
  return tags.reduce((n, t) => n + [...t].length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);
}

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const invalid = (message: string, code?: string): PlatformError =>
  new PlatformError('youtube', 'invalid_content', message, code ? { code } : {});

export const watchUrl = (ctx: YouTubeContext, id: string): string => `${ctx.webBase}/watch?v=${encodeURIComponent(id)}`;

function videoOf(req: PublishRequest): PublishMedia {
  if (req.postType !== 'video')
    throw new PlatformError('youtube', 'unsupported', `YouTube takes videos only, not ${req.postType} posts`);
  const video = req.media[0];
  if (req.media.length !== 1 || !video || video.kind !== 'video')
    throw invalid('A YouTube post takes exactly one video');
  if (video.size <= 0) throw invalid('The video file is empty', 'emptyFile');
  const thumb = req.thumbnail;
  // Checked before uploading, as a refusal after the upload could no longer stop the video.
  if (thumb && (!THUMBNAIL_TYPES.includes(thumb.mime) || thumb.size > MAX_THUMBNAIL_BYTES)) {
    throw invalid('A YouTube thumbnail must be a JPEG or PNG of at most 2 MB', 'invalidImage');
  }
  return video;
}

/** The videos.insert body: title and description, privacy (public unless the options say otherwise). */
function metadata(req: PublishRequest): Obj {
  const o = req.options;
  const title = req.title ?? req.text;
  const description = req.description ?? (req.title !== undefined ? req.text : '');
  const privacy = askedPrivacy(req);
  const snippet: Obj = { title, description };
  if (typeof o.category_id === 'string') snippet.categoryId = o.category_id;
  if (Array.isArray(o.tags) && o.tags.every((t) => typeof t === 'string')) snippet.tags = o.tags;
  const status: Obj = { privacyStatus: privacy };
  if (typeof o.made_for_kids === 'boolean') status.selfDeclaredMadeForKids = o.made_for_kids;
  return { snippet, status };
}

/** An error when YouTube says the video failed, was rejected or removed. */
function checkVideo(video: Obj): void {
  const status = obj(video.status);
  const upload = typeof status.uploadStatus === 'string' ? status.uploadStatus : '';
  const processing = obj(video.processingDetails).processingStatus;
  const reasonOf = (v: unknown, fallback: string): string => (typeof v === 'string' && v ? v : fallback);
  let reason: string | null = null;
  if (upload === 'failed') reason = reasonOf(status.failureReason, 'failed');
  else if (upload === 'rejected') reason = reasonOf(status.rejectionReason, 'rejected');
  else if (upload === 'deleted') reason = 'deleted';
  else if (processing === 'terminated') reason = 'terminated';
  else if (processing === 'failed') reason = reasonOf(obj(video.processingDetails).processingFailureReason, 'failed');
  if (reason === null) return;
  const state = upload === 'failed' || upload === 'rejected' || upload === 'deleted' ? upload : String(processing);
  throw documentedError(
    YOUTUBE_DOCUMENTED_ERRORS,
    reason,
    invalid(`YouTube did not accept the video: ${state} (${safeText(reason)})`, reason),
  );
}

/** The upload, continued from the journal: a finished video, a session to resume, or a new session. */
async function upload(
  ctx: YouTubeContext,
  tokens: TokenSet,
  req: PublishRequest,
  video: PublishMedia,
  journal: Journal,
): Promise<Obj> {
  let state: SessionState = { state: 'gone' };
  let uri = journal.steps[YOUTUBE_STEPS.sessionUri];
  if (uri) {
    state = await querySession(ctx, tokens, uri, video.size);
    if (state.state === 'partial') state = await uploadFrom(ctx, tokens, uri, video, state.next);
  }
  if (state.state === 'gone') {
    // No session, or an expired one: it left nothing on the channel, so starting over cannot duplicate the video.
    const notify = typeof req.options.notify_subscribers === 'boolean' ? req.options.notify_subscribers : undefined;
    assertQuota(ctx, UNITS.insert);
    uri = await startSession(ctx, tokens, video, metadata(req), notify);
    spendUnits(ctx, UNITS.insert);
    await journal.record(YOUTUBE_STEPS.sessionUri, uri);
    state = await uploadFrom(ctx, tokens, uri, video, 0);
  }
  if (state.state !== 'done')
    throw new PlatformError('youtube', 'transient', 'The YouTube upload session expired during the upload');
  return state.video;
}

/** Quota units of the calls publishing makes (YouTube's cost table: an upload 1,600, a write 50, a read 1). */
const UNITS = { insert: 1600, list: 1, write: 50 } as const;

/** Units this process spent today (Pacific time), starting the count over on a new day. */
function unitsUsed(ctx: YouTubeContext): number {
  const day = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Los_Angeles',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ctx.deps.clock());
  if (ctx.quotaUsed.day !== day) ctx.quotaUsed = { day, units: 0 };
  return ctx.quotaUsed.units;
}

function spendUnits(ctx: YouTubeContext, units: number): void {
  unitsUsed(ctx);
  ctx.quotaUsed.units += units;
}

/** With a declared daily quota: refuses, before any call, work the rest of the day's quota does not cover. */
function assertQuota(ctx: YouTubeContext, units: number): void {
  if (ctx.dailyQuota === null || unitsUsed(ctx) + units <= ctx.dailyQuota) return;
  const wait = secondsToQuotaReset(ctx.deps.clock());
  throw new PlatformError(
    'youtube',
    'rate_limited',
    `An upload costs ${units} quota units and the API project has ${Math.max(0, ctx.dailyQuota - ctx.quotaUsed.units)} of its ${ctx.dailyQuota} left today (HERALD_YOUTUBE_DAILY_QUOTA); it resets at midnight Pacific time (in ${wait} s)`,
    {
      code: 'quotaExceeded',
      retryAfterSeconds: wait,
    },
  );
}

async function listVideo(ctx: YouTubeContext, tokens: TokenSet, id: string): Promise<Obj | null> {
  const res = await ctx.deps.http.request('youtube', {
    url: `${ctx.apiBase}/youtube/v3/videos`,
    query: { part: 'id,status,processingDetails', id },
    headers: bearer(tokens.accessToken),
  });
  spendUnits(ctx, UNITS.list);
  const items = readApi(res, 'videos.list', ctx.deps.clock()).items;
  const first = Array.isArray(items) ? items.map(obj).find((v) => v.id === id) : undefined;
  return first ?? null;
}

/**
 * A step after the video exists. A temporary failure goes up (the retry resumes here, the upload is not redone); a
 * definitive refusal (no custom thumbnails on this channel, playlist gone) is journaled and logged, because failing
 * the target would misreport a video that is live.
 */
async function extra(ctx: YouTubeContext, journal: Journal, step: string, work: () => Promise<string>): Promise<void> {
  if (journal.steps[step]) return;
  try {
    await journal.record(step, await work());
  } catch (err) {
    if (!(err instanceof PlatformError) || err.retryable) throw err;
    ctx.deps.logger.warn(
      { platform: 'youtube', step, kind: err.kind, code: err.code },
      'youtube: optional step refused; the video stays published',
    );
    await journal.record(step, `failed:${err.code ?? err.kind}`);
  }
}

async function setThumbnail(
  ctx: YouTubeContext,
  tokens: TokenSet,
  videoId: string,
  thumb: PublishMedia,
): Promise<string> {
  const bytes: Buffer[] = [];
  // At most 2 MB (checked before the upload), so reading it whole is bounded.
  for await (const chunk of await thumb.open())
    bytes.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  const res = await ctx.deps.http.request('youtube', {
    method: 'POST',
    url: `${ctx.apiBase}/upload/youtube/v3/thumbnails/set`,
    query: { videoId, uploadType: 'media' },
    headers: { ...bearer(tokens.accessToken), 'content-type': thumb.mime },
    body: Buffer.concat(bytes),
  });
  spendUnits(ctx, UNITS.write);
  readApi(res, 'thumbnails.set', ctx.deps.clock());
  return 'set';
}

async function addToPlaylist(
  ctx: YouTubeContext,
  tokens: TokenSet,
  videoId: string,
  playlistId: string,
): Promise<string> {
  const res = await ctx.deps.http.request('youtube', {
    method: 'POST',
    url: `${ctx.apiBase}/youtube/v3/playlistItems`,
    query: { part: 'snippet' },
    headers: bearer(tokens.accessToken),
    json: { snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId } } },
  });
  spendUnits(ctx, UNITS.write);
  const item = readApi(res, 'playlistItems.insert', ctx.deps.clock());
  return typeof item.id === 'string' && item.id ? item.id : 'added';
}

/** The privacyStatus asked for (public unless the options say otherwise). */
function askedPrivacy(req: PublishRequest): string {
  const p = req.options.privacy_status;
  return typeof p === 'string' && PRIVACY.includes(p) ? p : 'public';
}

/** A notice when YouTube did not keep the privacy asked for (an unaudited API project's uploads are locked private). */
function privacyNotice(journal: Journal): string | undefined {
  const [asked, got] = (journal.steps[YOUTUBE_STEPS.privacy] ?? '').split(':');
  if (!asked || !got || asked === got) return undefined;
  return `YouTube made the video ${got}, not ${asked} as asked: uploads from an API project that has not passed YouTube's audit are locked private (see docs/networks.md).`;
}

/** Published once YouTube has processed the upload; still processing before that (failures throw in checkVideo). */
function outcomeOf(ctx: YouTubeContext, video: Obj, id: string, journal: Journal): PublishOutcome {
  const upload = obj(video.status).uploadStatus;
  const processing = obj(video.processingDetails).processingStatus;
  if (upload === 'uploaded' || processing === 'processing') return { state: 'processing', handle: id };
  const notice = privacyNotice(journal);
  return { state: 'published', postId: id, permalink: watchUrl(ctx, id), ...(notice ? { notice } : {}) };
}

async function publish(
  ctx: YouTubeContext,
  tokens: TokenSet,
  req: PublishRequest,
  journal: Journal,
): Promise<PublishOutcome> {
  const video = videoOf(req);
  let videoId = journal.steps[YOUTUBE_STEPS.videoId];
  let current: Obj;
  if (videoId) {
    const found = await listVideo(ctx, tokens, videoId);
    if (!found)
      throw new PlatformError('youtube', 'not_found', `The uploaded YouTube video ${videoId} no longer exists`, {
        code: 'videoNotFound',
      });
    checkVideo(found);
    current = found;
  } else {
    // Refused here rather than by YouTube: nothing is sent (and no quota spent) for metadata it would refuse.
    const meta = metadata(req);
    const snippet = obj(meta.snippet);
    const problem = metadataProblem(String(snippet.title ?? ''), String(snippet.description ?? ''));
    if (problem) throw invalid(problem, /title/.test(problem) ? 'invalidTitle' : 'invalidDescription');
    const resource = await upload(ctx, tokens, req, video, journal);
    videoId = String(resource.id);
    await journal.record(YOUTUBE_STEPS.videoId, videoId);
    checkVideo(resource);
    current = resource;
  }
  const id = videoId;
  if (!journal.steps[YOUTUBE_STEPS.privacy]) {
    const got = obj(current.status).privacyStatus;
    const asked = askedPrivacy(req);
    await journal.record(YOUTUBE_STEPS.privacy, `${asked}:${typeof got === 'string' && got ? got : asked}`);
    if (typeof got === 'string' && got !== asked) {
      ctx.deps.logger.warn(
        { platform: 'youtube', asked, got },
        'youtube: the upload did not keep the privacy asked for (unaudited API project?)',
      );
    }
  }
  const thumb = req.thumbnail;
  if (thumb) await extra(ctx, journal, YOUTUBE_STEPS.thumbnail, () => setThumbnail(ctx, tokens, id, thumb));
  const playlist = req.options.playlist_id;
  if (typeof playlist === 'string' && playlist)
    await extra(ctx, journal, YOUTUBE_STEPS.playlistItem, () => addToPlaylist(ctx, tokens, id, playlist));
  return outcomeOf(ctx, current, id, journal);
}

/**
 * Runs a call against the project's daily quota: refused at once while it is known to be spent, and remembered as
 * spent (until midnight Pacific, when YouTube resets it) when YouTube answers quotaExceeded.
 */
async function withinQuota<T>(ctx: YouTubeContext, work: () => Promise<T>): Promise<T> {
  const now = ctx.deps.clock().getTime();
  if (now < ctx.quotaSpentUntil) {
    const wait = Math.max(1, Math.ceil((ctx.quotaSpentUntil - now) / 1000));
    throw new PlatformError(
      'youtube',
      'rate_limited',
      `The YouTube API project's daily quota is spent; it resets at midnight Pacific time (in ${wait} s)`,
      {
        code: 'quotaExceeded',
        retryAfterSeconds: wait,
      },
    );
  }
  try {
    return await work();
  } catch (err) {
    if (err instanceof PlatformError && err.code === 'quotaExceeded') {
      ctx.quotaSpentUntil = now + secondsToQuotaReset(ctx.deps.clock()) * 1000;
      ctx.deps.logger.warn(
        { platform: 'youtube', until: new Date(ctx.quotaSpentUntil).toISOString() },
        "youtube: the API project's daily quota is spent",
      );
    }
    throw err;
  }
}

export function youtubePublisher(ctx: YouTubeContext): Publisher {
  return {
    publish: (tokens, req, journal) => withinQuota(ctx, () => publish(ctx, tokens, req, journal)),

    async checkStatus(tokens, handle, _req, journal) {
      const found = await listVideo(ctx, tokens, handle);
      if (!found)
        throw new PlatformError('youtube', 'not_found', `YouTube video ${handle} was not found`, {
          code: 'videoNotFound',
        });
      checkVideo(found);
      return outcomeOf(ctx, found, handle, journal);
    },

    async reconcile(tokens, req, journal) {
      let id = journal.steps[YOUTUBE_STEPS.videoId];
      const uri = journal.steps[YOUTUBE_STEPS.sessionUri];
      const video = req.media[0];
      if (!id && uri && video) {
        // The last byte may have gone in without Herald hearing back: the session then answers with the video.
        const state = await querySession(ctx, tokens, uri, video.size);
        if (state.state !== 'done') return null;
        id = String(state.video.id);
        await journal.record(YOUTUBE_STEPS.videoId, id);
      }
      if (!id) return null;
      return (await listVideo(ctx, tokens, id)) ? { postId: id, permalink: watchUrl(ctx, id) } : null;
    },
  };
}
