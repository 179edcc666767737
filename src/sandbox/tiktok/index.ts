// TikTok simulator: www.tiktok.com (authorize), open.tiktokapis.com (v2 API) and the upload host
// (open-upload.tiktokapis.com) under one prefix.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../core/context.ts';
import { registerAvatars } from '../core/oauth.ts';
import { setNotFound } from '../core/route.ts';
import type { Call, ErrorAnswer, RouteSpec, Simulator } from '../core/route.ts';
import { presentedToken, spend, strictOn } from '../core/strict.ts';
import { objectsOf } from '../core/objects.ts';
import { declareTikTokEngagement, registerTikTokEngagement } from './engagement.ts';
import { apiFail, PER_TOKEN_PER_MINUTE, TIKTOK_ERRORS, tiktokFault } from './errors.ts';
import { declareErrors } from '../core/documented.ts';
import { registerTikTokOAuth } from './oauth.ts';
import { registerTikTokPublish } from './publish.ts';
import { registerTikTokUpload } from './upload.ts';
import { registerTikTokUser } from './user.ts';
import type { SandboxSimulator } from '../core/simulator.ts';
import { SANDBOX_APPS } from '../apps.ts';

/**
 * `rate_limits`: each Content Posting endpoint's requests counted per access token for the clock minute (creator_info
 * 20, the inits 6, status/fetch 30); beyond it TikTok's 429 rate_limit_exceeded until the next minute.
 */
function tiktokLimits(req: FastifyRequest, call: Call, spec: RouteSpec): ErrorAnswer | null {
  const capped = dailyPostCap(req, call, spec);
  if (capped) return capped;
  const limit = PER_TOKEN_PER_MINUTE[spec.url];
  if (!limit || !strictOn(call.ctx, 'rate_limits')) return null;
  const token = presentedToken(req, call.slice);
  if (!token) return null;
  const minute = call.ctx.now().toISOString().slice(0, 16);
  if (spend(call.ctx, `tiktok:${spec.url}:${token.token}:${minute}`, limit)) return null;
  return apiFail(
    429,
    'rate_limit_exceeded',
    'The API rate limit was exceeded. Please try again later.',
    call.ctx.nowMs(),
  );
}

const DIRECT_INITS = new Set(['/v2/post/publish/video/init/', '/v2/post/publish/content/init/']);

/**
 * TikTok's per-creator daily cap on direct posts, refused at the init with 403 spam_risk_too_many_posts. TikTok
 * publishes no figure (guides say about 15 a day), so the cap applies only once `_config.publishLimits.tiktok` sets
 * one. Inbox uploads (MEDIA_UPLOAD) have their own pending limit.
 */
function dailyPostCap(req: FastifyRequest, call: Call, spec: RouteSpec): ErrorAnswer | null {
  const cap = call.ctx.store.config.publishLimits.tiktok;
  if (cap === undefined || !DIRECT_INITS.has(spec.url)) return null;
  const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
  if (body.post_mode === 'MEDIA_UPLOAD') return null;
  const token = presentedToken(req, call.slice);
  if (!token) return null;
  const since = call.ctx.nowMs() - 24 * 3_600_000;
  const started = objectsOf(call, 'containers', token.accountId).filter(
    (j) => j.post_mode !== 'MEDIA_UPLOAD' && Date.parse(j.createdAt) > since,
  );
  if (started.length < cap) return null;
  return apiFail(
    403,
    'spam_risk_too_many_posts',
    'The daily post cap of this user has been reached.',
    call.ctx.nowMs(),
  );
}

export async function tiktokSimulator(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const sim: Simulator = { platform: 'tiktok', ctx, app, faultAnswer: tiktokFault, gate: tiktokLimits };
  registerTikTokOAuth(sim);
  registerTikTokUser(sim);
  registerTikTokPublish(sim);
  registerTikTokUpload(sim);
  registerTikTokEngagement(sim);
  declareTikTokEngagement(ctx);
  registerAvatars(sim);
  declareErrors(ctx, 'tiktok', TIKTOK_ERRORS);
  setNotFound(sim, (path) => apiFail(404, 'not_found', `The requested path ${path} does not exist.`, ctx.nowMs()));
}

export const simulator = {
  slug: 'tiktok',
  plugin: tiktokSimulator,
  baseUrls: (base) => ({ authBase: base, apiBase: base, webBase: base }),
  postPages: { network: 'TikTok', paths: ['/@:user/video/:id', '/@:user/photo/:id'] },
  app: SANDBOX_APPS.tiktok,
} satisfies SandboxSimulator;
