// TikTok simulator: www.tiktok.com (authorize), open.tiktokapis.com (v2 API) and the upload host
// (open-upload.tiktokapis.com) under one prefix.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../core/context.ts';
import { registerAvatars } from '../core/oauth.ts';
import { setNotFound } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { declareTikTokEngagement, registerTikTokEngagement } from './engagement.ts';
import { apiFail, tiktokFault } from './errors.ts';
import { registerTikTokOAuth } from './oauth.ts';
import { registerTikTokPublish } from './publish.ts';
import { registerTikTokUpload } from './upload.ts';
import { registerTikTokUser } from './user.ts';
import type { SandboxSimulator } from '../core/simulator.ts';
import { SANDBOX_APPS } from '../apps.ts';

export async function tiktokSimulator(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const sim: Simulator = { platform: 'tiktok', ctx, app, faultAnswer: tiktokFault };
  registerTikTokOAuth(sim);
  registerTikTokUser(sim);
  registerTikTokPublish(sim);
  registerTikTokUpload(sim);
  registerTikTokEngagement(sim);
  declareTikTokEngagement(ctx);
  registerAvatars(sim);
  setNotFound(sim, (path) => apiFail(404, 'not_found', `The requested path ${path} does not exist.`, ctx.nowMs()));
}

export const simulator = {
  slug: 'tiktok',
  plugin: tiktokSimulator,
  baseUrls: (base) => ({ authBase: base, apiBase: base }),
  app: SANDBOX_APPS.tiktok,
} satisfies SandboxSimulator;
