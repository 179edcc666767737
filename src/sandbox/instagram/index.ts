// Instagram simulator for the Instagram API with Instagram Login (www.instagram.com, api.instagram.com and
// graph.instagram.com under one prefix). Instagram via Facebook Login lives in the Facebook simulator.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../core/context.ts';
import { graphError, graphFault } from '../core/graph.ts';
import { registerAvatars } from '../core/oauth.ts';
import { declareErrors } from '../core/documented.ts';
import { INSTAGRAM_ERRORS } from './errors.ts';
import { setNotFound } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { registerInstagramContainers } from './containers.ts';
import { instagramLimits } from './actor.ts';
import { registerInstagramEngagement } from './engagement.ts';
import { registerInstagramGraph } from './graph.ts';
import { registerInstagramPublish } from './publish.ts';
import { registerInstagramOAuth } from './oauth.ts';
import type { SandboxSimulator } from '../core/simulator.ts';
import { SANDBOX_APPS } from '../apps.ts';

export async function instagramSimulator(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const sim: Simulator = {
    platform: 'instagram',
    ctx,
    app,
    faultAnswer: (kind) => graphFault(kind),
    gate: instagramLimits,
  };
  registerInstagramOAuth(sim);
  registerInstagramGraph(sim);
  registerInstagramContainers(sim);
  registerInstagramPublish(sim);
  registerInstagramEngagement(sim);
  registerAvatars(sim);
  declareErrors(ctx, 'instagram', INSTAGRAM_ERRORS);
  setNotFound(sim, (path) => graphError(400, { message: `Unknown path components: ${path}`, code: 2500 }));
}

export const simulator = {
  slug: 'instagram',
  plugin: instagramSimulator,
  baseUrls: (base) => ({ authBase: base, tokenBase: base, graphBase: base }),
  postPages: { network: 'Instagram', paths: ['/p/:code/', '/reel/:code/', '/stories/:user/:mediaId/'] },
  app: SANDBOX_APPS.instagram,
} satisfies SandboxSimulator;
