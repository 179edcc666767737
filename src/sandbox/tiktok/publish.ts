// Content Posting API: creator_info/query, video/init (direct post), inbox/video/init (upload to the creator's inbox),
// content/init (photo posts, PULL_FROM_URL only) and status/fetch.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isObj, jsonBody } from '../core/http.ts';
import type { Obj } from '../core/http.ts';
import { randomDigits, randomUrlSafe } from '../core/ids.ts';
import { inspectUrl } from '../core/media.ts';
import { reachMedia } from '../core/strict.ts';
import { DAY_MS } from '../core/meta-publish.ts';
import { findObject, objectsOf, putObject } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import type { JsonObject, JsonValue } from '../core/types.ts';
import { apiFail, logId, ok } from './errors.ts';
import {
  creator,
  finishJob,
  invalidParams,
  privacyOptions,
  privacyProblem,
  urlUnverified,
  verifiedUrl,
  videoSource,
} from './jobs.ts';
import type { Creator } from './jobs.ts';

const MAX_CAPTION = 2200;
const MAX_PHOTO_TITLE = 90;
const MAX_PHOTO_DESCRIPTION = 4000;
const MAX_PHOTOS = 35;
const MAX_PENDING_INBOX = 5;
const UPLOAD_TTL_MS = 60 * 60 * 1000;

const json = (v: unknown): JsonValue => JSON.parse(JSON.stringify(v ?? null)) as JsonValue;

function body(req: FastifyRequest, reply: FastifyReply, call: Call): Obj | null {
  const parsed = jsonBody(req);
  if (!parsed)
    sendAnswer(
      reply,
      invalidParams(call, 'The request body must be a JSON object (Content-Type: application/json; charset=UTF-8).'),
    );
  return parsed;
}

/** video/init and inbox/video/init share everything but post_info and the terminal state. */
async function initVideo(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  who: Creator,
  input: Obj,
  mode: 'DIRECT_POST' | 'MEDIA_UPLOAD',
) {
  let postInfo: Obj = {};
  if (mode === 'DIRECT_POST') {
    if (!isObj(input.post_info)) return sendAnswer(reply, invalidParams(call, 'post_info is required.'));
    postInfo = input.post_info;
    const privacy = privacyProblem(call, postInfo, who.account);
    if (privacy) return sendAnswer(reply, privacy);
    if (postInfo.title !== undefined && (typeof postInfo.title !== 'string' || postInfo.title.length > MAX_CAPTION)) {
      return sendAnswer(
        reply,
        invalidParams(call, `post_info.title must be a string of at most ${MAX_CAPTION} UTF-16 characters.`),
      );
    }
  } else {
    const pending = objectsOf(call, 'containers', who.account.id).filter(
      (j) =>
        j.post_mode === 'MEDIA_UPLOAD' && j.status !== 'FAILED' && Date.parse(j.createdAt) > call.ctx.nowMs() - DAY_MS,
    );
    if (pending.length >= MAX_PENDING_INBOX) {
      return sendAnswer(
        reply,
        apiFail(
          403,
          'spam_risk_too_many_pending_share',
          'The user has too many pending shares in their inbox.',
          call.ctx.nowMs(),
        ),
      );
    }
  }
  const plan = videoSource(call, input.source_info);
  if ('status' in plan) return sendAnswer(reply, plan);
  // Strict public_media_only: TikTok's servers download the URL, so a loopback or private host fails the pull.
  if (
    plan.source === 'PULL_FROM_URL' &&
    !plan.failure &&
    !(await reachMedia(call.ctx, String(plan.fields.video_url))).ok
  )
    plan.failure = 'video_pull_failed';
  const file = plan.source === 'FILE_UPLOAD';
  const prefix =
    mode === 'DIRECT_POST'
      ? file
        ? 'v_pub_file~v2-1'
        : 'v_pub_url~v2-1'
      : file
        ? 'v_inbox_file~v2'
        : 'v_inbox_url~v2';
  const uploadId = randomDigits(19);
  const uploadToken = randomUrlSafe(32);
  const uploadUrl = file ? `${call.ctx.base('tiktok')}/video/?upload_id=${uploadId}&upload_token=${uploadToken}` : null;
  const job = putObject(call, 'containers', {
    id: `${prefix}.${randomDigits(19)}`,
    accountId: who.account.id,
    kind: 'video',
    post_mode: mode,
    source: plan.source,
    post_info: json(postInfo),
    ...plan.fields,
    upload_id: file ? uploadId : null,
    upload_token: file ? uploadToken : null,
    upload_url: uploadUrl,
    upload_expires_at: file ? call.ctx.nowMs() + UPLOAD_TTL_MS : null,
    uploaded_bytes: 0,
    downloaded_bytes: 0,
    mimeType: null,
    status: file ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD',
    fail_reason: null,
    publicaly_available_post_id: [],
    post_id: null,
  });
  if (!file) finishJob(call, req, job, who.account, plan.failure);
  return reply.send(
    ok(file ? { publish_id: job.id, upload_url: uploadUrl } : { publish_id: job.id }, call.ctx.nowMs()),
  );
}

export function registerTikTokPublish(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/v2/post/publish/creator_info/query/',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = creator(req, reply, call, ['video.publish']);
      if (!who) return reply;
      return reply.send(
        ok(
          {
            creator_avatar_url: who.account.avatarUrl,
            creator_username: who.account.username,
            creator_nickname: who.account.name,
            privacy_level_options: privacyOptions(who.account, call.ctx),
            comment_disabled: false,
            duet_disabled: false,
            stitch_disabled: false,
            max_video_post_duration_sec: 600,
          },
          call.ctx.nowMs(),
        ),
      );
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/v2/post/publish/video/init/',
    ops: ['publish'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = creator(req, reply, call, ['video.publish']);
      const input = who && body(req, reply, call);
      return who && input ? initVideo(req, reply, call, who, input, 'DIRECT_POST') : reply;
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/v2/post/publish/inbox/video/init/',
    ops: ['publish'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = creator(req, reply, call, ['video.upload']);
      const input = who && body(req, reply, call);
      return who && input ? initVideo(req, reply, call, who, input, 'MEDIA_UPLOAD') : reply;
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/v2/post/publish/content/init/',
    ops: ['publish'],
    surface: 'api',
    handler: async (req, reply, call) => {
      const input = jsonBody(req);
      const mode = input?.post_mode;
      const who = creator(
        req,
        reply,
        call,
        mode === 'MEDIA_UPLOAD' ? ['video.upload', 'video.publish'] : ['video.publish'],
      );
      if (!who) return reply;
      if (!input) return sendAnswer(reply, invalidParams(call, 'The request body must be a JSON object.'));
      if (input.media_type !== 'PHOTO') return sendAnswer(reply, invalidParams(call, 'media_type must be PHOTO.'));
      if (mode !== 'DIRECT_POST' && mode !== 'MEDIA_UPLOAD')
        return sendAnswer(reply, invalidParams(call, 'post_mode must be DIRECT_POST or MEDIA_UPLOAD.'));
      const postInfo = isObj(input.post_info) ? input.post_info : {};
      const { title, description } = postInfo;
      if (title !== undefined && (typeof title !== 'string' || title.length > MAX_PHOTO_TITLE)) {
        return sendAnswer(
          reply,
          invalidParams(call, `post_info.title must be at most ${MAX_PHOTO_TITLE} UTF-16 characters.`),
        );
      }
      if (
        description !== undefined &&
        (typeof description !== 'string' || description.length > MAX_PHOTO_DESCRIPTION)
      ) {
        return sendAnswer(
          reply,
          invalidParams(call, `post_info.description must be at most ${MAX_PHOTO_DESCRIPTION} UTF-16 characters.`),
        );
      }
      if (mode === 'DIRECT_POST') {
        const privacy = privacyProblem(call, postInfo, who.account);
        if (privacy) return sendAnswer(reply, privacy);
      }
      const source = isObj(input.source_info) ? input.source_info : {};
      if (source.source !== 'PULL_FROM_URL')
        return sendAnswer(reply, invalidParams(call, 'Photo posts only support source PULL_FROM_URL.'));
      const images = source.photo_images;
      if (
        !Array.isArray(images) ||
        images.length < 1 ||
        images.length > MAX_PHOTOS ||
        !images.every((u) => typeof u === 'string' && inspectUrl(u))
      ) {
        return sendAnswer(reply, invalidParams(call, `photo_images must list 1 to ${MAX_PHOTOS} image URLs.`));
      }
      const urls = images.map(String);
      if (!urls.every((u) => verifiedUrl(call, u))) return sendAnswer(reply, urlUnverified(call));
      const cover = source.photo_cover_index ?? 0;
      if (typeof cover !== 'number' || !Number.isInteger(cover) || cover < 0 || cover >= urls.length) {
        return sendAnswer(
          reply,
          invalidParams(call, 'photo_cover_index must be the 0-based index of one of photo_images.'),
        );
      }
      const checked = urls.map((u) => inspectUrl(u));
      const reached = await Promise.all(urls.map((u) => reachMedia(call.ctx, u)));
      // Photos must be JPEG or WebP; TikTok downloads them after init, so problems surface as fail_reason.
      const failure =
        checked.some((m) => !m?.reachable) || reached.some((r) => !r.ok)
          ? 'photo_pull_failed'
          : checked.some((m) => m?.corrupt || (m?.mime && !['image/jpeg', 'image/webp'].includes(m.mime)))
            ? 'file_format_check_failed'
            : null;
      const job = putObject(call, 'containers', {
        id: `${mode === 'DIRECT_POST' ? 'p_pub_url~v2' : 'p_inbox_url~v2'}.${randomDigits(19)}`,
        accountId: who.account.id,
        kind: 'photo',
        post_mode: mode,
        source: 'PULL_FROM_URL',
        post_info: json(postInfo),
        photo_images: urls,
        photo_cover_index: cover,
        uploaded_bytes: 0,
        downloaded_bytes: 0,
        status: 'PROCESSING_DOWNLOAD',
        fail_reason: null,
        publicaly_available_post_id: [],
        post_id: null,
      });
      finishJob(call, req, job, who.account, failure);
      return reply.send(ok({ publish_id: job.id }, call.ctx.nowMs()));
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/v2/post/publish/status/fetch/',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const who = creator(req, reply, call, ['video.publish', 'video.upload']);
      if (!who) return reply;
      const publishId = jsonBody(req)?.publish_id;
      if (typeof publishId !== 'string' || !publishId)
        return sendAnswer(reply, invalidParams(call, 'publish_id is required.'));
      const job = findObject(call, 'containers', publishId);
      if (!job || job.accountId !== who.account.id)
        return sendAnswer(reply, invalidParams(call, `publish_id ${publishId} is invalid.`));
      const data: JsonObject = {
        status: job.status ?? null,
        uploaded_bytes: job.uploaded_bytes ?? 0,
        downloaded_bytes: job.downloaded_bytes ?? 0,
      };
      if (job.status === 'FAILED') data.fail_reason = job.fail_reason ?? 'internal';
      data.publicaly_available_post_id = '__POST_IDS__';
      // The ids are int64 JSON numbers, beyond what a plain JSON.parse keeps exact — as on the real API.
      const ids = Array.isArray(job.publicaly_available_post_id) ? job.publicaly_available_post_id.map(String) : [];
      const payload = JSON.stringify({
        data,
        error: { code: 'ok', message: '', log_id: logId(call.ctx.nowMs()) },
      }).replace('"__POST_IDS__"', `[${ids.join(',')}]`);
      return reply.type('application/json; charset=utf-8').send(payload);
    },
  });
}
