// Threads simulator: threads.net (authorize) and graph.threads.net under one prefix.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../core/context.ts';
import { graphError, graphFault } from '../core/graph.ts';
import { registerAvatars } from '../core/oauth.ts';
import { declareErrors } from '../core/documented.ts';
import { THREADS_ERRORS } from './errors.ts';
import { setNotFound } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { registerThreadsContainers } from './containers.ts';
import { registerThreadsEngagement } from './engagement.ts';
import { registerThreadsGraph } from './graph.ts';
import { registerThreadsOAuth } from './oauth.ts';
import { registerThreadsPublish } from './publish.ts';
import type { SandboxSimulator } from '../core/simulator.ts';
import { SANDBOX_APPS } from '../apps.ts';

export async function threadsSimulator(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const sim: Simulator = { platform: 'threads', ctx, app, faultAnswer: (kind) => graphFault(kind) };
  registerThreadsOAuth(sim);
  registerThreadsGraph(sim);
  registerThreadsContainers(sim);
  registerThreadsPublish(sim);
  registerThreadsEngagement(sim);
  registerAvatars(sim);
  declareErrors(ctx, 'threads', THREADS_ERRORS);
  setNotFound(sim, (path) => graphError(400, { message: `Unknown path components: ${path}`, code: 2500 }));
}

export const simulator = {
  slug: 'threads',
  plugin: threadsSimulator,
  baseUrls: (base) => ({ authBase: base, graphBase: base, webBase: base }),
  postPages: { network: 'Threads', paths: ['/@:user/post/:code'] },
  app: SANDBOX_APPS.threads,
} satisfies SandboxSimulator;
