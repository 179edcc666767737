// LinkedIn simulator: www.linkedin.com/oauth/v2, api.linkedin.com (/v2 legacy + /rest versioned) and the
// www.linkedin.com/dms-uploads media upload URLs under one prefix.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../core/context.ts';
import { registerAvatars } from '../core/oauth.ts';
import { setNotFound } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { declareErrors } from '../core/documented.ts';
import { LINKEDIN_ERRORS } from './documented-errors.ts';
import { registerLinkedInEngagement } from './engagement.ts';
import { linkedInFault, linkedInLimits } from './errors.ts';
import { registerLinkedInIdentity } from './identity.ts';
import { registerLinkedInImages } from './images.ts';
import { registerLinkedInOAuth } from './oauth.ts';
import { registerLinkedInPosts } from './posts.ts';
import { registerLinkedInVideos } from './videos.ts';
import type { SandboxSimulator } from '../core/simulator.ts';
import { SANDBOX_APPS } from '../apps.ts';

export async function linkedinSimulator(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const sim: Simulator = { platform: 'linkedin', ctx, app, faultAnswer: linkedInFault, gate: linkedInLimits };
  registerLinkedInOAuth(sim);
  registerLinkedInIdentity(sim);
  registerLinkedInPosts(sim);
  registerLinkedInImages(sim);
  registerLinkedInVideos(sim);
  registerLinkedInEngagement(sim);
  registerAvatars(sim);
  declareErrors(ctx, 'linkedin', LINKEDIN_ERRORS);
  setNotFound(sim, (path) => ({
    status: 404,
    body: { serviceErrorCode: 0, message: `Resource ${path} does not exist`, status: 404 },
  }));
}

export const simulator = {
  slug: 'linkedin',
  plugin: linkedinSimulator,
  baseUrls: (base) => ({ authBase: base, apiBase: base, webBase: base }),
  postPages: { network: 'LinkedIn', paths: ['/feed/update/:urn/'] },
  app: SANDBOX_APPS.linkedin,
} satisfies SandboxSimulator;
