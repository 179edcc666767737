// Facebook simulator: the www.facebook.com login dialog, graph.facebook.com and graph-video.facebook.com under one
// prefix. Instagram accounts reached through Facebook Login (a Page's instagram_business_account) are read here too.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../core/context.ts';
import { graphError, graphFault } from '../core/graph.ts';
import { registerAvatars } from '../core/oauth.ts';
import { declareErrors } from '../core/documented.ts';
import { FACEBOOK_ERRORS } from './errors.ts';
import { setNotFound } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { registerFacebookEngagement } from './engagement.ts';
import { registerFacebookFeed } from './feed.ts';
import { registerFacebookGraph } from './graph.ts';
import { registerFacebookOAuth } from './oauth.ts';
import { registerFacebookObjects } from './objects.ts';
import { registerFacebookVideos } from './videos.ts';
import type { SandboxSimulator } from '../core/simulator.ts';
import { SANDBOX_APPS } from '../apps.ts';

export async function facebookSimulator(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const sim: Simulator = { platform: 'facebook', ctx, app, faultAnswer: (kind) => graphFault(kind) };
  registerFacebookOAuth(sim);
  registerFacebookGraph(sim);
  registerFacebookFeed(sim);
  registerFacebookVideos(sim);
  registerFacebookObjects(sim);
  registerFacebookEngagement(sim);
  registerAvatars(sim);
  declareErrors(ctx, 'facebook', FACEBOOK_ERRORS);
  setNotFound(sim, (path) => graphError(400, { message: `Unknown path components: ${path}`, code: 2500 }));
}

export const simulator = {
  slug: 'facebook',
  plugin: facebookSimulator,
  baseUrls: (base) => ({ authBase: base, graphBase: base, graphVideoBase: base, ruploadBase: base, webBase: base }),
  postPages: { network: 'Facebook', paths: ['/:pageId/posts/:postId', '/:pageId/videos/:videoId/'] },
  app: SANDBOX_APPS.facebook,
} satisfies SandboxSimulator;
