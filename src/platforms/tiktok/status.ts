// status/fetch of a publish_id, and what its answer means for Herald: still processing, published (with the public
// post id once TikTok has one), or failed with TikTok's fail_reason.
import type { Journal, PublishOutcome, PublishRequest } from '../publishing.ts';
import type { PlatformErrorKind, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { TikTokContext } from './context.ts';
import { safeText } from '../errors.ts';
import { readApi } from './errors.ts';
import { documentedError } from '../documented-errors.ts';
import { TIKTOK_DOCUMENTED_ERRORS, TIKTOK_INTERNAL_WORDS } from './documented-errors.ts';

/** Journal steps. The upload URL and chunk size are recorded before the publish_id (see initVideo). */
export const TIKTOK_STEPS = {
  publishId: 'tiktok.publish_id',
  uploadUrl: 'tiktok.upload_url',
  chunkSize: 'tiktok.chunk_size',
  username: 'tiktok.creator_username',
  /** The privacy level sent with the init (the body's, or the most public one creator_info offered). */
  privacyLevel: 'tiktok.privacy_level',
  /** A publish_id that ended FAILED: dead, so a retry initialises anew (nothing was posted). */
  failed: 'tiktok.failed_publish_id',
  /**
   * `{publish_id} {ISO time}`: when Herald first saw that job FAILED with `internal` (see INTERNAL_RECHECK_SECONDS).
   */
  internalAt: 'tiktok.internal_at',
  /** When Herald first saw the post PUBLISH_COMPLETE without its public id (ISO time): the moderation wait starts. */
  completeAt: 'tiktok.complete_at',
} as const;

/**
 * How long Herald waits, after PUBLISH_COMPLETE, for the public id of a post that will get one: TikTok hands it out
 * only once moderation is done, which "usually finishes within one minute" but can take hours.
 */
export const MODERATION_WAIT_MS = 60_000;

/** Whether TikTok will give the post a public id: every level but SELF_ONLY. */
export function getsPublicId(req: PublishRequest, journal: Journal): boolean {
  const asked = typeof req.options.privacy_level === 'string' ? req.options.privacy_level : '';
  return (journal.steps[TIKTOK_STEPS.privacyLevel] ?? asked) !== 'SELF_ONLY';
}

/** status/fetch calls TikTok allows per access token and minute. */
export const STATUS_PER_MINUTE = 30;
/**
 * Of those, what polling (checkStatus) may use; the rest stays free for the reads a publish cannot put off (upload
 * progress after a dropped chunk, a resume, a reconcile).
 */
export const STATUS_POLLS_PER_MINUTE = 25;
const MINUTE_MS = 60_000;

/** The status/fetch calls of this token within the last minute (pruned as a side effect). */
function recentCalls(ctx: TikTokContext, accessToken: string, now: number): number[] {
  const calls = (ctx.statusCalls.get(accessToken) ?? []).filter((t) => t > now - MINUTE_MS);
  if (calls.length) ctx.statusCalls.set(accessToken, calls);
  else ctx.statusCalls.delete(accessToken);
  return calls;
}

/**
 * Whether a status poll with this token fits TikTok's per-token limit now, counting every post of the creator this
 * process is polling. When it does not, the poll is skipped (the post stays processing) and the next one tries again.
 */
export function statusPace(ctx: TikTokContext, accessToken: string): boolean {
  const now = ctx.deps.clock().getTime();
  if (ctx.statusCalls.size > 1000) for (const token of [...ctx.statusCalls.keys()]) recentCalls(ctx, token, now);
  return recentCalls(ctx, accessToken, now).length < STATUS_POLLS_PER_MINUTE;
}

export interface PublishStatus {
  status: string;
  failReason: string | null;
  /** Public post ids, as strings: they are int64 and lose digits as JS numbers. */
  postIds: string[];
  uploadedBytes: number;
}

/**
 * `internal` is TikTok's own failure, worth a new init, but TikTok warns that initialising again while the first
 * attempt may still go through posts twice. Herald reads the same publish_id again after this long and only
 * initialises anew when it still says FAILED / internal.
 */
export const INTERNAL_RECHECK_SECONDS = 600;
export const INTERNAL_WORDS = TIKTOK_INTERNAL_WORDS;

// Failure reasons that are not about the content itself.
const FAIL_KINDS: Record<string, PlatformErrorKind> = {
  internal: 'transient',
  auth_removed: 'reauth_required',
  spam_risk_too_many_posts: 'rate_limited',
  spam_risk_user_banned_from_posting: 'permission',
  reached_active_user_cap: 'rate_limited',
};

/**
 * publicaly_available_post_id (sic) holds int64 JSON numbers that JSON.parse rounds, so they are read from the raw
 * text. Quoted ids are accepted too.
 */
export function publicPostIds(raw: string): string[] {
  const list = /"publicaly_available_post_id"\s*:\s*\[([^\]]*)\]/.exec(raw)?.[1];
  if (!list) return [];
  return list
    .split(',')
    .map((s) => s.trim().replace(/^"(.*)"$/, '$1'))
    .filter((s) => /^\d+$/.test(s));
}

export async function fetchPublishStatus(
  ctx: TikTokContext,
  tokens: TokenSet,
  publishId: string,
): Promise<PublishStatus> {
  const now = ctx.deps.clock().getTime();
  ctx.statusCalls.set(tokens.accessToken, [...recentCalls(ctx, tokens.accessToken, now), now]);
  const res = await ctx.deps.http.request('tiktok', {
    method: 'POST',
    url: `${ctx.apiBase}/v2/post/publish/status/fetch/`,
    headers: bearer(tokens.accessToken),
    json: { publish_id: publishId },
  });
  const data = readApi(res, 'publish status');
  const status = typeof data.status === 'string' ? data.status : '';
  if (!status)
    throw new PlatformError('tiktok', 'transient', 'TikTok publish status came back without a status', {
      status: res.status,
    });
  return {
    status,
    failReason: typeof data.fail_reason === 'string' && data.fail_reason ? data.fail_reason : null,
    postIds: publicPostIds(res.text),
    uploadedBytes: typeof data.uploaded_bytes === 'number' && data.uploaded_bytes >= 0 ? data.uploaded_bytes : 0,
  };
}

/**
 * PUBLISH_COMPLETE is published. The public id can come minutes later (moderation) and never for SELF_ONLY posts, so
 * without one the publish_id stands in as the post id and there is no permalink. With one, the permalink is the form
 * TikTok's reference documents for videos (`/@{username}/video/{id}`); it documents none for photo posts.
 */
export function outcomeOf(
  ctx: Pick<TikTokContext, 'webBase'>,
  s: PublishStatus,
  publishId: string,
  req: PublishRequest,
  journal: Journal,
): PublishOutcome {
  if (s.status === 'PUBLISH_COMPLETE' || s.status === 'SEND_TO_USER_INBOX') {
    const postId = s.postIds[0];
    const username = journal.steps[TIKTOK_STEPS.username];
    const permalink =
      postId && username && req.postType === 'video'
        ? `${ctx.webBase}/@${encodeURIComponent(username)}/video/${postId}`
        : null;
    const used = journal.steps[TIKTOK_STEPS.privacyLevel];
    const asked =
      typeof req.options.privacy_level === 'string' && req.options.privacy_level
        ? req.options.privacy_level
        : 'PUBLIC_TO_EVERYONE';
    const notice =
      used === 'SELF_ONLY' && asked !== 'SELF_ONLY'
        ? 'TikTok shows it only to its creator (SELF_ONLY): this TikTok app is not audited, or the creator allows nothing more public.'
        : undefined;
    return { state: 'published', postId: postId ?? publishId, permalink, ...(notice ? { notice } : {}) };
  }
  if (s.status === 'FAILED') {
    const reason = s.failReason ?? 'unknown';
    const kind = FAIL_KINDS[reason] ?? 'invalid_content';
    throw documentedError(
      TIKTOK_DOCUMENTED_ERRORS,
      reason,
      new PlatformError('tiktok', kind, `TikTok did not publish the post: ${safeText(reason)}`, { code: reason }),
    );
  }
  return { state: 'processing', handle: publishId };
}
