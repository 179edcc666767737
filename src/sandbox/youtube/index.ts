// YouTube simulator: accounts.google.com, oauth2.googleapis.com and www.googleapis.com (YouTube Data API v3, its
// /upload endpoints and OpenID userinfo) under one prefix.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../core/context.ts';
import { registerAvatars } from '../core/oauth.ts';
import { declareErrors } from '../core/documented.ts';
import { YOUTUBE_ERRORS } from './documented.ts';
import { setNotFound } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { registerYouTubeData } from './data.ts';
import { registerYouTubeEngagement } from './engagement.ts';
import { googleApiError, googleFault, youtubeQuota } from './errors.ts';
import { registerGoogleIdentity } from './identity.ts';
import { registerGoogleOAuth } from './oauth.ts';
import { registerYouTubeUpload } from './upload.ts';
import { registerYouTubeVideos } from './videos.ts';
import type { SandboxSimulator } from '../core/simulator.ts';
import { SANDBOX_APPS } from '../apps.ts';

export async function youtubeSimulator(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const sim: Simulator = { platform: 'youtube', ctx, app, faultAnswer: googleFault, gate: youtubeQuota };
  registerGoogleOAuth(sim);
  registerGoogleIdentity(sim);
  registerYouTubeData(sim);
  registerYouTubeUpload(sim);
  registerYouTubeVideos(sim);
  registerYouTubeEngagement(sim);
  registerAvatars(sim);
  declareErrors(ctx, 'youtube', YOUTUBE_ERRORS);
  setNotFound(sim, () => googleApiError(404, 'NOT_FOUND', 'Not Found', 'notFound'));
}

export const simulator = {
  slug: 'youtube',
  plugin: youtubeSimulator,
  baseUrls: (base) => ({ authBase: base, tokenBase: base, apiBase: base, webBase: base }),
  postPages: { network: 'YouTube', paths: ['/watch'] },
  app: SANDBOX_APPS.youtube,
} satisfies SandboxSimulator;
