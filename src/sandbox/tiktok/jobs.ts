// TikTok publish jobs (`publish_id`), kept in the slice's `containers`: the token and scope check every Content
// Posting call starts with, the source_info rules (FILE_UPLOAD chunk arithmetic, PULL_FROM_URL domain verification)
// and how a job ends — PUBLISH_COMPLETE with a post, SEND_TO_USER_INBOX, or FAILED with a fail_reason.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, isObj } from '../core/http.ts';
import type { Obj } from '../core/http.ts';
import { randomDigits } from '../core/ids.ts';
import { inspectUrl, MB } from '../core/media.ts';
import { putPost, text } from '../core/objects.ts';
import { schedule } from '../core/processing.ts';
import { sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import { strictOn } from '../core/strict.ts';
import type { SandboxContext } from '../core/context.ts';
import type { AccountRecord, JsonObject, ObjectRecord, TokenRecord } from '../core/types.ts';
import { apiFail } from './errors.ts';

export const PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
/** creator_info's privacy_level_options for a public account, as TikTok's reference lists them. */
const PUBLIC_ACCOUNT_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
/** …and for a private account. */
const PRIVATE_ACCOUNT_LEVELS = ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
const MIN_CHUNK = 5 * MB;
const MAX_CHUNK = 64 * MB;
const MAX_LAST_CHUNK = 128 * MB;
const MAX_VIDEO = 4 * 1024 * MB;

export interface Creator {
  token: TokenRecord;
  account: AccountRecord;
}

export function invalidParams(call: Call, message: string): ErrorAnswer {
  return apiFail(400, 'invalid_params', message, call.ctx.nowMs());
}

/** A valid access token holding one of `scopes`, answering TikTok's 401s otherwise. */
export function creator(req: FastifyRequest, reply: FastifyReply, call: Call, scopes: string[]): Creator | null {
  const now = call.ctx.nowMs();
  const checked = checkToken(call, bearerToken(req), ['access']);
  const account = checked.ok ? call.slice.accounts.get(checked.token.accountId) : undefined;
  if (!checked.ok || !account) {
    sendAnswer(
      reply,
      apiFail(401, 'access_token_invalid', 'The access token is invalid or not found in the request.', now),
    );
    return null;
  }
  if (!scopes.some((s) => checked.token.scopes.includes(s))) {
    sendAnswer(
      reply,
      apiFail(
        401,
        'scope_not_authorized',
        `The user did not authorize the scope required for completing this request: ${scopes.join(' or ')}.`,
        now,
      ),
    );
    return null;
  }
  return { token: checked.token, account };
}

const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The media transfer guide's chunk rules; null when the plan is valid. */
export function chunkPlanProblem(size: unknown, chunk: unknown, count: unknown): string | null {
  if (!int(size) || size <= 0) return 'video_size must be a positive integer.';
  if (size > MAX_VIDEO) return 'video_size must not exceed 4 GB.';
  if (!int(chunk) || chunk <= 0) return 'chunk_size must be a positive integer.';
  if (!int(count) || count < 1 || count > 1000) return 'total_chunk_count must be between 1 and 1000.';
  if (size < MIN_CHUNK) {
    return chunk === size && count === 1
      ? null
      : 'A video under 5 MB must be uploaded whole: chunk_size must equal video_size and total_chunk_count must be 1.';
  }
  if (chunk < MIN_CHUNK || chunk > MAX_CHUNK) return 'chunk_size must be between 5 MB and 64 MB.';
  const expected = Math.floor(size / chunk);
  if (count !== expected)
    return `total_chunk_count must be ${expected}: floor(video_size / chunk_size), the remainder joins the last chunk.`;
  if (size > MAX_CHUNK && count < 2) return 'A video over 64 MB must be uploaded in several chunks.';
  if (size - (count - 1) * chunk > MAX_LAST_CHUNK)
    return 'The last chunk (chunk_size plus the remainder) must not exceed 128 MB.';
  return null;
}

/**
 * Whether a pulled URL lies under a verified prefix: the sandbox treats its own public URL as verified, except under
 * strict tiktok_unverified_domain (an app whose media domain nobody verified).
 */
export function verifiedUrl(call: Call, url: string): boolean {
  if (strictOn(call.ctx, 'tiktok_unverified_domain')) return false;
  return url.startsWith(`${call.ctx.publicUrl}/`);
}

export interface SourcePlan {
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  fields: JsonObject;
  /** For PULL_FROM_URL: why the download or the checks will fail, or null. */
  failure: string | null;
}

export function videoSource(call: Call, sourceInfo: unknown): SourcePlan | ErrorAnswer {
  if (!isObj(sourceInfo)) return invalidParams(call, 'source_info is required.');
  const { source } = sourceInfo;
  if (source === 'FILE_UPLOAD') {
    const { video_size: size, chunk_size: chunk, total_chunk_count: count } = sourceInfo;
    const problem = chunkPlanProblem(size, chunk, count);
    if (problem) return invalidParams(call, problem);
    return {
      source,
      fields: { video_size: Number(size), chunk_size: Number(chunk), total_chunk_count: Number(count) },
      failure: null,
    };
  }
  if (source !== 'PULL_FROM_URL')
    return invalidParams(call, 'source_info.source must be FILE_UPLOAD or PULL_FROM_URL.');
  const url = typeof sourceInfo.video_url === 'string' ? sourceInfo.video_url : '';
  const media = inspectUrl(url);
  if (!media) return invalidParams(call, 'source_info.video_url must be a valid URL.');
  if (!verifiedUrl(call, url)) return urlUnverified(call);
  const failure = !media.reachable
    ? 'video_pull_failed'
    : media.corrupt || (media.mime !== null && !media.mime.startsWith('video/'))
      ? 'file_format_check_failed'
      : null;
  return { source, fields: { video_url: url }, failure };
}

export function urlUnverified(call: Call): ErrorAnswer {
  return apiFail(
    403,
    'url_ownership_unverified',
    'The domain or URL prefix of the media URL has not been verified for this client.',
    call.ctx.nowMs(),
  );
}

/**
 * The privacy levels creator_info offers this creator. TikTok narrows them per creator (a private account has no
 * PUBLIC_TO_EVERYONE; an app that is not audited gets SELF_ONLY only); the sandbox reads them off the user key, see
 * buildTikTokAccount.
 */
export function privacyOptions(account: AccountRecord, ctx?: SandboxContext): string[] {
  // Strict tiktok_unaudited: an app TikTok has not audited offers every creator SELF_ONLY alone.
  if (ctx && strictOn(ctx, 'tiktok_unaudited')) return ['SELF_ONLY'];
  const options = account.fields.privacy_level_options;
  const own = Array.isArray(options) ? options.filter((o): o is string => typeof o === 'string') : null;
  // Strict tiktok_privacy_options: the sets TikTok's creator_info reference documents. No creator gets all four: a
  // public account has no FOLLOWER_OF_CREATOR, a private one (user key with `private`) no PUBLIC_TO_EVERYONE. A
  // narrower set the user key asks for (friends-only, unaudited) stays as it is.
  if (ctx && strictOn(ctx, 'tiktok_privacy_options')) {
    if (account.fields.private_account === true) return PRIVATE_ACCOUNT_LEVELS;
    return own ?? PUBLIC_ACCOUNT_LEVELS;
  }
  return own ?? PRIVACY_LEVELS;
}

/** post_info.privacy_level must be one of the creator's privacy_level_options. */
export function privacyProblem(call: Call, postInfo: Obj, account: AccountRecord): ErrorAnswer | null {
  const level = postInfo.privacy_level;
  if (typeof level !== 'string' || !level) return invalidParams(call, 'post_info.privacy_level is required.');
  if (strictOn(call.ctx, 'tiktok_unaudited') && level !== 'SELF_ONLY') {
    return apiFail(
      403,
      'unaudited_client_can_only_post_to_private_accounts',
      'Unaudited clients can only post to private accounts: set privacy_level to SELF_ONLY.',
      call.ctx.nowMs(),
    );
  }
  if (!privacyOptions(account, call.ctx).includes(level)) {
    return apiFail(
      403,
      'privacy_level_option_mismatch',
      `privacy_level ${level} is not one of the creator's privacy_level_options.`,
      call.ctx.nowMs(),
    );
  }
  return null;
}

/**
 * Ends a job after the processing delay: a direct post creates the post now (it exists from the moment TikTok accepts
 * it).
 */
export function finishJob(
  call: Call,
  req: FastifyRequest,
  job: ObjectRecord,
  creatorAccount: AccountRecord,
  found: string | null,
): void {
  // A documented fail_reason armed as a fault (errors.ts) ends the job that way whatever its media.
  const failure = typeof call.outcome?.fail_reason === 'string' ? call.outcome.fail_reason : found;
  if (failure) {
    schedule(call.ctx, 'tiktok', job, [{ at: 1, set: { status: 'FAILED', fail_reason: failure } }]);
    return;
  }
  if (job.post_mode === 'MEDIA_UPLOAD') {
    schedule(call.ctx, 'tiktok', job, [{ at: 1, set: { status: 'SEND_TO_USER_INBOX' } }]);
    return;
  }
  const postId = `7${randomDigits(19).slice(1)}`;
  const info = isObj(job.post_info) ? job.post_info : {};
  const photo = job.kind === 'photo';
  const media = photo
    ? Array.isArray(job.photo_images)
      ? job.photo_images.map(String)
      : []
    : [text(job.video_url) || job.id];
  putPost(
    call,
    req,
    {
      id: postId,
      accountId: creatorAccount.id,
      author: creatorAccount.id,
      text: photo ? str(info.description) || str(info.title) : str(info.title),
      media,
      permalink: `${call.ctx.base('tiktok')}/@${creatorAccount.username}/${photo ? 'photo' : 'video'}/${postId}`,
    },
    {
      publishId: job.id,
      username: creatorAccount.username,
      privacy_level: str(info.privacy_level),
      post_info: job.post_info ?? null,
    },
  );
  job.post_id = postId;
  // SELF_ONLY posts never get a public id. Others get it once moderation is done (_config.tiktokModerationMs after
  // PUBLISH_COMPLETE): TikTok gives developers the post id only after moderation.
  const ids = info.privacy_level === 'SELF_ONLY' ? [] : [postId];
  const moderation = call.ctx.store.config.tiktokModerationMs;
  schedule(
    call.ctx,
    'tiktok',
    job,
    moderation > 0 && ids.length > 0
      ? [
          { at: 1, set: { status: 'PUBLISH_COMPLETE', publicaly_available_post_id: [] } },
          { at: 1, afterMs: moderation, set: { publicaly_available_post_id: ids } },
        ]
      : [{ at: 1, set: { status: 'PUBLISH_COMPLETE', publicaly_available_post_id: ids } }],
  );
}
