// Bluesky simulator: a PDS / entryway (XRPC), the public AppView's getProfile, a PLC directory and the video service
// (video.bsky.app), under one prefix.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../core/context.ts';
import { registerAvatars } from '../core/oauth.ts';
import { setNotFound } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { declareErrors } from '../core/documented.ts';
import { BLUESKY_ERRORS, blueskyFault, xrpcError } from './errors.ts';
import { declareBlueskyEngagement, registerEngagement } from './engagement.ts';
import { blueskyLimits } from './limits.ts';
import { registerRepo } from './repo.ts';
import { registerVideo } from './video.ts';
import { registerXrpc } from './xrpc.ts';
import type { SandboxSimulator } from '../core/simulator.ts';

export async function blueskySimulator(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const sim: Simulator = {
    platform: 'bluesky',
    ctx,
    app,
    faultAnswer: (kind) => blueskyFault(kind, ctx.nowMs()),
    gate: blueskyLimits,
  };
  registerXrpc(sim);
  registerRepo(sim);
  registerEngagement(sim);
  declareBlueskyEngagement(ctx);
  registerVideo(sim);
  declareErrors(ctx, 'bluesky', BLUESKY_ERRORS);
  registerAvatars(sim);
  setNotFound(sim, () => xrpcError(404, 'NotFound', 'Not Found'));
}

export const simulator = {
  slug: 'bluesky',
  plugin: blueskySimulator,
  baseUrls: (base) => ({ service: base, appView: base, plc: `${base}/plc`, video: base, web: base }),
  postPages: { network: 'Bluesky', paths: ['/profile/:actor/post/:rkey'] },
} satisfies SandboxSimulator;
