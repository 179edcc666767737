// TikTok Direct Post (Content Posting API): creator_info first (what this creator may choose), then video/init
// (FILE_UPLOAD with chunked PUTs, or PULL_FROM_URL from a verified domain) or content/init for photos. TikTok then
// processes the post on its own; status/fetch tells when it is PUBLISH_COMPLETE or FAILED, so publish() answers
// `processing` with the publish_id as handle.
import type { Journal, PublishMedia, PublishOutcome, PublishRequest, Publisher } from '../publishing.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { TikTokContext } from './context.ts';
import { readApi } from './errors.ts';
import { TIKTOK_PRIVACY } from './privacy.ts';
import {
  fetchPublishStatus,
  getsPublicId,
  INTERNAL_RECHECK_SECONDS,
  INTERNAL_WORDS,
  MODERATION_WAIT_MS,
  outcomeOf,
  statusPace,
  TIKTOK_STEPS,
} from './status.ts';
import type { PublishStatus } from './status.ts';
import { chunkPlan, MAX_VIDEO_BYTES, transferChunks, VIDEO_UPLOAD_TYPES } from './upload.ts';

export { TIKTOK_STEPS };

const PHOTO_TYPES = ['image/jpeg', 'image/webp'];

interface CreatorInfo {
  username: string | null;
  privacyOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxDurationSec: number | null;
}

type Obj = Record<string, unknown>;

const invalid = (message: string, code?: string): PlatformError =>
  new PlatformError('tiktok', 'invalid_content', message, code ? { code } : {});

const flag = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/**
 * TikTok pulls from URLs on a domain verified for the app; Herald refuses a pull the operator has not declared
 * possible.
 */
function assertPullable(ctx: TikTokContext, what: string): void {
  if (ctx.mediaDomainVerified) return;
  throw invalid(
    `TikTok ${what} from Herald's media URLs only once their domain is verified for the app in TikTok's developer portal, and this server does not declare it verified (docs/networks.md)`,
    'url_ownership_unverified',
  );
}

async function apiPost(ctx: TikTokContext, tokens: TokenSet, path: string, what: string, json?: Obj): Promise<Obj> {
  const res = await ctx.deps.http.request('tiktok', {
    method: 'POST',
    url: `${ctx.apiBase}${path}`,
    headers: { ...bearer(tokens.accessToken), ...(json ? {} : { 'content-type': 'application/json; charset=UTF-8' }) },
    ...(json ? { json } : {}),
  });
  return readApi(res, what);
}

async function creatorInfo(ctx: TikTokContext, tokens: TokenSet): Promise<CreatorInfo> {
  const data = await apiPost(ctx, tokens, '/v2/post/publish/creator_info/query/', 'creator info');
  const options = Array.isArray(data.privacy_level_options)
    ? data.privacy_level_options.filter((o): o is string => typeof o === 'string')
    : [];
  const max = data.max_video_post_duration_sec;
  return {
    username: typeof data.creator_username === 'string' && data.creator_username ? data.creator_username : null,
    privacyOptions: options,
    commentDisabled: data.comment_disabled === true,
    duetDisabled: data.duet_disabled === true,
    stitchDisabled: data.stitch_disabled === true,
    maxDurationSec: typeof max === 'number' && max > 0 ? max : null,
  };
}

/**
 * The privacy level of the post: the body's, which must be one creator_info offers; or, when the body sets none, the
 * most public one offered (PUBLIC_TO_EVERYONE where it is, SELF_ONLY for an app TikTok has not audited). The public
 * documentation of the unified API says an omitted privacy_level means public; this is as public as the creator may go.
 */
export function privacyLevel(req: PublishRequest, info: { privacyOptions: string[] }, audited = true): string {
  // An app TikTok has not audited may only post privately: ask for that rather than be refused.
  if (!audited) return 'SELF_ONLY';
  const level = req.options.privacy_level;
  const allowed = info.privacyOptions.join(', ') || 'none';
  if (typeof level !== 'string' || !level) {
    const chosen = TIKTOK_PRIVACY.find((l) => info.privacyOptions.includes(l));
    if (!chosen)
      throw invalid(
        `TikTok offers this creator no privacy level to post with (privacy_level_options: ${allowed})`,
        'privacy_level_option_mismatch',
      );
    return chosen;
  }
  if (!info.privacyOptions.includes(level)) {
    throw invalid(
      `TikTok privacy_level ${level} is not available to this creator; choose one of: ${allowed}`,
      'privacy_level_option_mismatch',
    );
  }
  return level;
}

/** The level for this init, journaled first so the result can say which one the post went out with. */
async function chosenPrivacy(
  ctx: TikTokContext,
  req: PublishRequest,
  journal: Journal,
  info: CreatorInfo,
): Promise<string> {
  const level = privacyLevel(req, info, ctx.audited);
  if (journal.steps[TIKTOK_STEPS.privacyLevel] !== level) await journal.record(TIKTOK_STEPS.privacyLevel, level);
  return level;
}

/**
 * Interaction settings: the guidelines want them off unless the creator turns them on, and greyed out (forced off)
 * when creator_info says the creator disabled them. "Off" means disable_* = true.
 */
function interactions(req: PublishRequest, info: CreatorInfo, video: boolean): Obj {
  const o = req.options;
  const out: Obj = { disable_comment: info.commentDisabled || (flag(o.disable_comment) ?? true) };
  if (video) {
    out.disable_duet = info.duetDisabled || (flag(o.disable_duet) ?? true);
    out.disable_stitch = info.stitchDisabled || (flag(o.disable_stitch) ?? true);
  }
  // Commercial-content disclosure is off unless declared.
  out.brand_content_toggle = o.brand_content_toggle === true;
  out.brand_organic_toggle = o.brand_organic_toggle === true;
  return out;
}

function videoOf(req: PublishRequest, info: CreatorInfo): PublishMedia {
  const video = req.media[0];
  if (req.media.length !== 1 || !video || video.kind !== 'video')
    throw invalid('A TikTok video post takes exactly one video');
  if (video.size <= 0 || video.size > MAX_VIDEO_BYTES)
    throw invalid(`TikTok takes videos of 1 byte to 4 GB; this one has ${video.size} bytes`);
  if (
    info.maxDurationSec !== null &&
    typeof video.durationSec === 'number' &&
    video.durationSec > info.maxDurationSec
  ) {
    throw invalid(
      `This creator can post videos of up to ${info.maxDurationSec} s on TikTok; this one lasts ${Math.round(video.durationSec)} s`,
      'duration_check_failed',
    );
  }
  return video;
}

async function initVideo(
  ctx: TikTokContext,
  tokens: TokenSet,
  req: PublishRequest,
  journal: Journal,
  info: CreatorInfo,
): Promise<PublishOutcome> {
  const video = videoOf(req, info);
  const postInfo: Obj = {
    title: req.text,
    privacy_level: await chosenPrivacy(ctx, req, journal, info),
    ...interactions(req, info, true),
  };
  if (typeof req.options.video_cover_timestamp_ms === 'number')
    postInfo.video_cover_timestamp_ms = req.options.video_cover_timestamp_ms;
  if (typeof req.options.is_aigc === 'boolean') postInfo.is_aigc = req.options.is_aigc;
  // Pulling needs the media host verified in TikTok's developer portal, which only the operator knows: opt-in.
  const pull = req.options.video_source === 'PULL_FROM_URL';
  if (pull) assertPullable(ctx, 'pulls videos sent with PULL_FROM_URL');
  if (!pull && !VIDEO_UPLOAD_TYPES.includes(video.mime))
    throw invalid(`TikTok takes MP4, MOV or WebM videos, not ${video.mime}`);
  const plan = chunkPlan(video.size);
  const sourceInfo: Obj = pull
    ? { source: 'PULL_FROM_URL', video_url: video.url }
    : {
        source: 'FILE_UPLOAD',
        video_size: plan.videoSize,
        chunk_size: plan.chunkSize,
        total_chunk_count: plan.totalChunkCount,
      };
  const data = await apiPost(ctx, tokens, '/v2/post/publish/video/init/', 'video init', {
    post_info: postInfo,
    source_info: sourceInfo,
  });
  const publishId = typeof data.publish_id === 'string' ? data.publish_id : '';
  const uploadUrl = typeof data.upload_url === 'string' ? data.upload_url : '';
  if (!publishId || (!pull && !uploadUrl))
    throw new PlatformError('tiktok', 'transient', 'TikTok video init answered without a publish_id or upload_url');
  if (!pull) {
    // Recorded before the publish_id: a crash in between leaves an init that never gets bytes, which TikTok never
    // posts, so initialising again is safe. The reverse order could leave a publish_id without the URL to finish it.
    await journal.record(TIKTOK_STEPS.uploadUrl, uploadUrl);
    await journal.record(TIKTOK_STEPS.chunkSize, String(plan.chunkSize));
  }
  await journal.record(TIKTOK_STEPS.publishId, publishId);
  if (!pull)
    await transferChunks(
      ctx,
      uploadUrl,
      video,
      plan,
      0,
      async () => (await fetchPublishStatus(ctx, tokens, publishId)).uploadedBytes,
    );
  return { state: 'processing', handle: publishId };
}

async function initPhotos(
  ctx: TikTokContext,
  tokens: TokenSet,
  req: PublishRequest,
  journal: Journal,
  info: CreatorInfo,
): Promise<PublishOutcome> {
  if (req.media.length === 0 || req.media.some((m) => m.kind !== 'image'))
    throw invalid('A TikTok photo post takes images only');
  assertPullable(ctx, 'pulls the images of a photo post');
  const wrong = req.media.find((m) => !PHOTO_TYPES.includes(m.mime));
  if (wrong)
    throw invalid(`TikTok photo posts take JPEG or WebP images, not ${wrong.mime}`, 'file_format_check_failed');
  const cover = typeof req.options.cover_index === 'number' ? req.options.cover_index : 0;
  if (!Number.isInteger(cover) || cover < 0 || cover >= req.media.length)
    throw invalid(`cover_index ${cover} is not one of the ${req.media.length} images`);
  const description = req.description ?? req.text;
  const privacy = await chosenPrivacy(ctx, req, journal, info);
  const postInfo: Obj = {
    ...(req.title ? { title: req.title } : {}),
    ...(description ? { description } : {}),
    privacy_level: privacy,
    ...interactions(req, info, false),
    ...(typeof req.options.auto_add_music === 'boolean' ? { auto_add_music: req.options.auto_add_music } : {}),
  };
  const data = await apiPost(ctx, tokens, '/v2/post/publish/content/init/', 'photo init', {
    media_type: 'PHOTO',
    post_mode: 'DIRECT_POST',
    post_info: postInfo,
    source_info: { source: 'PULL_FROM_URL', photo_images: req.media.map((m) => m.url), photo_cover_index: cover },
  });
  const publishId = typeof data.publish_id === 'string' ? data.publish_id : '';
  if (!publishId) throw new PlatformError('tiktok', 'transient', 'TikTok photo init answered without a publish_id');
  await journal.record(TIKTOK_STEPS.publishId, publishId);
  return { state: 'processing', handle: publishId };
}

/**
 * Where TikTok stands; a FAILED job is journaled as dead before its error is thrown. A post that is complete but still
 * without its public id (moderation) stays processing for MODERATION_WAIT_MS from the first time Herald saw it
 * complete, so the id and the permalink come with the result; past that it is published under its publish_id, and a
 * later publish or reconcile with this journal reads the id again.
 */
async function settle(
  ctx: TikTokContext,
  status: PublishStatus,
  publishId: string,
  req: PublishRequest,
  journal: Journal,
): Promise<PublishOutcome> {
  if (status.status === 'FAILED' && status.failReason === 'internal') await internalFailure(ctx, publishId, journal);
  if (status.status === 'FAILED') await journal.record(TIKTOK_STEPS.failed, publishId);
  if (status.status === 'PUBLISH_COMPLETE' && status.postIds.length === 0 && getsPublicId(req, journal)) {
    const now = ctx.deps.clock().getTime();
    const since = Date.parse(journal.steps[TIKTOK_STEPS.completeAt] ?? '');
    if (Number.isNaN(since)) await journal.record(TIKTOK_STEPS.completeAt, new Date(now).toISOString());
    if (Number.isNaN(since) || now - since < MODERATION_WAIT_MS) return { state: 'processing', handle: publishId };
    const out = outcomeOf(ctx, status, publishId, req, journal);
    if (out.state !== 'published') return out;
    const pending = `TikTok has not given the post its public id yet (moderation can take hours), so Herald shows it under its publish_id, without a link.`;
    return { ...out, notice: out.notice ? `${out.notice} ${pending}` : pending, provisional: true };
  }
  return outcomeOf(ctx, status, publishId, req, journal);
}

/**
 * FAILED / internal: the first sighting is journaled and retried after INTERNAL_RECHECK_SECONDS without a new init
 * (the retry reads this publish_id again). Returns (and the job is treated as dead) once it still says so after that.
 */
async function internalFailure(ctx: TikTokContext, publishId: string, journal: Journal): Promise<void> {
  const now = ctx.deps.clock().getTime();
  const [seenId, seenAt] = (journal.steps[TIKTOK_STEPS.internalAt] ?? '').split(' ');
  const since = seenId === publishId ? Date.parse(seenAt ?? '') : Number.NaN;
  if (Number.isNaN(since)) await journal.record(TIKTOK_STEPS.internalAt, `${publishId} ${new Date(now).toISOString()}`);
  const waited = Number.isNaN(since) ? 0 : Math.floor((now - since) / 1000);
  if (waited >= INTERNAL_RECHECK_SECONDS) return;
  throw new PlatformError('tiktok', 'transient', `${INTERNAL_WORDS} (internal)`, {
    code: 'internal',
    retryAfterSeconds: INTERNAL_RECHECK_SECONDS - waited,
  });
}

/** A journaled publish_id: never initialise again; finish an interrupted upload or report where TikTok stands. */
async function resume(
  ctx: TikTokContext,
  tokens: TokenSet,
  req: PublishRequest,
  journal: Journal,
  publishId: string,
): Promise<PublishOutcome> {
  const status: PublishStatus = await fetchPublishStatus(ctx, tokens, publishId);
  const uploadUrl = journal.steps[TIKTOK_STEPS.uploadUrl];
  const video = req.media[0];
  if (status.status === 'PROCESSING_UPLOAD' && uploadUrl && video && status.uploadedBytes < video.size) {
    const plan = chunkPlan(video.size, Number(journal.steps[TIKTOK_STEPS.chunkSize]) || undefined);
    try {
      await transferChunks(
        ctx,
        uploadUrl,
        video,
        plan,
        status.uploadedBytes,
        async () => (await fetchPublishStatus(ctx, tokens, publishId)).uploadedBytes,
      );
    } catch (err) {
      // An upload URL lives an hour. Past it the upload host refuses the rest (403): that init never gets its bytes,
      // so TikTok never posts it, and a new init is safe. Without this the post would fail at every retry.
      if (!(err instanceof PlatformError) || err.status !== 403) throw err;
      await journal.record(TIKTOK_STEPS.failed, publishId);
      return restart(ctx, tokens, req, journal);
    }
    return { state: 'processing', handle: publishId };
  }
  return settle(ctx, status, publishId, req, journal);
}

/** A new init: creator_info first, then the video or photo init. */
async function restart(
  ctx: TikTokContext,
  tokens: TokenSet,
  req: PublishRequest,
  journal: Journal,
): Promise<PublishOutcome> {
  if (req.postType === 'text') throw new PlatformError('tiktok', 'unsupported', 'TikTok has no text-only posts');
  const info = await creatorInfo(ctx, tokens);
  // Kept for the permalink, which status/fetch does not give.
  if (info.username) await journal.record(TIKTOK_STEPS.username, info.username);
  return req.postType === 'video'
    ? initVideo(ctx, tokens, req, journal, info)
    : initPhotos(ctx, tokens, req, journal, info);
}

export function tiktokPublisher(ctx: TikTokContext): Publisher {
  return {
    async publish(tokens, req, journal) {
      const publishId = journal.steps[TIKTOK_STEPS.publishId];
      if (publishId && publishId !== journal.steps[TIKTOK_STEPS.failed])
        return resume(ctx, tokens, req, journal, publishId);
      return restart(ctx, tokens, req, journal);
    },

    async checkStatus(tokens, handle, req, journal) {
      // TikTok's 30 status calls a minute are per token, whichever posts they are for: a poll that would go over is
      // skipped, and the post simply stays processing until the next one.
      if (!statusPace(ctx, tokens.accessToken)) return { state: 'processing', handle };
      return settle(ctx, await fetchPublishStatus(ctx, tokens, handle), handle, req, journal);
    },

    async reconcile(tokens, req, journal) {
      const publishId = journal.steps[TIKTOK_STEPS.publishId];
      if (!publishId || publishId === journal.steps[TIKTOK_STEPS.failed]) return null;
      const status = await fetchPublishStatus(ctx, tokens, publishId);
      if (status.status !== 'PUBLISH_COMPLETE') return null;
      const outcome = outcomeOf(ctx, status, publishId, req, journal);
      return outcome.state === 'published' ? { postId: outcome.postId, permalink: outcome.permalink } : null;
    },
  };
}
