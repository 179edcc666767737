// Pinterest simulator: www.pinterest.com (authorize), api.pinterest.com/v5 and the pre-signed S3 media upload
// (pinterest-media-upload) under one prefix.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../core/context.ts';
import { registerAvatars } from '../core/oauth.ts';
import { setNotFound } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { registerPinterestApi } from './api.ts';
import { declarePinterestEngagement, registerPinterestEngagement } from './engagement.ts';
import { declareErrors } from '../core/documented.ts';
import { PINTEREST_ERRORS, pinError, pinterestFault } from './errors.ts';
import { pinterestLimits } from './limits.ts';
import { registerPinterestMedia } from './media.ts';
import { registerPinterestOAuth } from './oauth.ts';
import { registerPinterestPins } from './pins.ts';
import type { SandboxSimulator } from '../core/simulator.ts';
import { SANDBOX_APPS } from '../apps.ts';

export async function pinterestSimulator(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const sim: Simulator = {
    platform: 'pinterest',
    ctx,
    app,
    faultAnswer: (kind) => pinterestFault(kind),
    gate: pinterestLimits,
  };
  registerPinterestOAuth(sim);
  registerPinterestApi(sim);
  registerPinterestPins(sim);
  registerPinterestEngagement(sim);
  declarePinterestEngagement(ctx);
  registerPinterestMedia(sim);
  registerAvatars(sim);
  declareErrors(ctx, 'pinterest', PINTEREST_ERRORS);
  setNotFound(sim, (path) => pinError(404, 404, `Resource not found: ${path}`));
}

export const simulator = {
  slug: 'pinterest',
  plugin: pinterestSimulator,
  baseUrls: (base) => ({ authBase: base, apiBase: base, webBase: base }),
  postPages: { network: 'Pinterest', paths: ['/pin/:id/'] },
  app: SANDBOX_APPS.pinterest,
} satisfies SandboxSimulator;
