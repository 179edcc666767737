// Builds the Fastify application over an AppContext. Routes are thin: parse → service → shape.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext, ReadinessCheck } from '../../app-context.ts';
import { fastifyTrustProxy } from '../../trust-proxy.ts';
import { accessPlugin } from './access.ts';
import { installRateLimits } from './rate-limit.ts';
import { installBrowserSessions } from './browser-session.ts';
import { installWebApp, webAppRoutes } from './web-app.ts';
import { openApiTransform, openApiTransformObject } from './openapi.ts';
import { invalidStrings } from '../../input-strings.ts';
import { installJsonParser } from './json-body.ts';
import { installEarlyAnswers } from './early-answers.ts';
import { setSecurityHeaders } from './security-headers.ts';
import { validationError } from '../../errors.ts';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './errors.ts';
import { installMetrics, type HttpMetrics } from './metrics.ts';
import { authRoutes } from './routes/auth.ts';
import { workspaceRoutes } from './routes/workspaces.ts';
import { workspaceMemberRoutes } from './routes/workspace-members.ts';
import { billingRoutes } from './routes/billing.ts';
import { eventRoutes } from './routes/events.ts';
import { postStoryRoutes } from './routes/post-story.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { opsRoutes } from './routes/ops.ts';
import { adminRoutes } from './routes/admin.ts';
import { connectionRoutes } from './routes/connections.ts';
import { postRoutes } from './routes/posts.ts';
import { draftRoutes } from './routes/drafts.ts';
import { scheduledPostRoutes } from './routes/scheduled-posts.ts';
import { bulkRoutes } from './routes/bulk.ts';
import { queueRoutes } from './routes/queues.ts';
import { engagementRoutes } from './routes/engagement.ts';
import { aiRoutes } from './routes/ai.ts';
import { mediaRoutes } from './routes/media.ts';
import { storageRoutes } from './routes/storage.ts';
import { platformRoutes } from './routes/platforms.ts';
import { gptActionRoutes } from './routes/gpt-actions.ts';
import { agentChatRoutes } from './routes/agent-chats.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { feedRoutes } from './routes/feeds.ts';
import { agentChatRoute } from './routes/agent-chat.ts';
import { agentTranscribeRoutes } from './routes/agent-transcribe.ts';
import { mcpRoutes } from '../mcp/routes.ts';
import { oauthRoutes } from '../../oauth/routes.ts';
import { RequestLog } from './request-log.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics registry, for a separate metrics listener (main.ts). */
    heraldMetrics: HttpMetrics;
  }
}

export interface BuildOptions {
  /** Process-level metrics (event loop, memory); off in tests that build many apps. */
  defaultMetrics?: boolean;
  /**
   * Runs on the bare instance before anything is registered, so its hooks see every route (tests observe the sandbox
   * with it).
   */
  configure?: (app: FastifyInstance) => void;
  /** Checks behind /readyz beyond the context's own (`herald serve` adds the scheduler's). */
  readiness?: readonly ReadinessCheck[];
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    // One line per request instead of Fastify's two (request-log.ts).
    logController: new RequestLog(ctx.config.logRequests),
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 10 * 1024 * 1024,
    frameworkErrors,
    clientErrorHandler,
    // Honour a proxy's request id when it is well-formed; otherwise mint one.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  opts.configure?.(app);
  // JSON only: a text/plain body would otherwise reach the schemas as a string ("expected object").
  app.removeContentTypeParser('text/plain');
  installJsonParser(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    setSecurityHeaders(reply.raw, req.url);
  });
  installErrorHandling(app);
  installEarlyAnswers(app);
  const metrics = installMetrics(app, { defaultMetrics: opts.defaultMetrics ?? false });
  app.decorate('heraldMetrics', metrics);

  const charge = await installRateLimits(app, ctx);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Herald API',
        version: '0.1.0',
        description: 'Self-hosted social publishing.',
        license: { name: 'AGPL-3.0-only', identifier: 'AGPL-3.0-only' },
      },
      // HERALD_PUBLIC_URL, as in the GPT Actions document: the origin clients reach this instance at.
      servers: [{ url: ctx.config.publicUrl, description: 'This Herald instance' }],
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          Bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: openApiTransform,
    transformObject: openApiTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await installWebApp(app, { config: ctx.config, charge });
  const browser = await installBrowserSessions(app);
  await app.register(accessPlugin, { ctx, charge, browser });
  // One check of every parsed input, ahead of each route's schema: NUL and unpaired surrogates are a
  // 422 wherever they appear (multipart fields are checked as they are read, in media/form.ts).
  app.addHook('preValidation', async (req) => {
    if (req.routeOptions.config.access?.kind === 'simulator') return;
    const errors = [
      ...invalidStrings(req.params, ['path']),
      ...invalidStrings(req.query, ['query']),
      ...invalidStrings(req.body, ['body']),
    ];
    if (errors.length) throw validationError(errors);
  });

  await app.register(opsRoutes, { ctx, metrics, readiness: [...ctx.readiness, ...(opts.readiness ?? [])] });
  await app.register(webAppRoutes, { config: ctx.config });
  await app.register(authRoutes, { ctx });
  await app.register(workspaceRoutes, { ctx });
  await app.register(workspaceMemberRoutes, { ctx });
  await app.register(billingRoutes, { ctx });
  await app.register(adminRoutes, { ctx });
  await app.register(connectionRoutes, { ctx });
  await app.register(postRoutes, { ctx });
  await app.register(platformRoutes, { ctx });
  await app.register(draftRoutes, { ctx });
  await app.register(scheduledPostRoutes, { ctx, metrics });
  await app.register(bulkRoutes, { ctx });
  await app.register(queueRoutes, { ctx });
  await app.register(mediaRoutes, { ctx });
  await app.register(aiRoutes, { ctx });
  await app.register(engagementRoutes, { ctx });
  await app.register(eventRoutes, { ctx });
  await app.register(postStoryRoutes, { ctx });
  await app.register(notificationRoutes, { ctx });
  await app.register(gptActionRoutes, { ctx });
  await app.register(agentChatRoutes, { ctx });
  await app.register(webhookRoutes, { ctx });
  await app.register(feedRoutes, { ctx });
  await app.register(agentChatRoute, { ctx });
  await app.register(agentTranscribeRoutes, { ctx });
  await app.register(mcpRoutes, { ctx });
  await app.register(oauthRoutes, { ctx });
  // With S3 the bucket (or a CDN in front of it) serves the files.
  if (ctx.media.servesFiles) await app.register(storageRoutes, { ctx });
  if (ctx.config.sandbox) {
    const { parseStrictModes, sandboxPlugin } = await import('../../sandbox/index.ts');
    // The simulators answer as the networks do, outside Herald's rules (access kind 'simulator'), with their
    // own error bodies, and are not rate limited. They are not Herald's API: the public /openapi.json leaves them out.
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/sandbox/') || route.url === '/sandbox') route.schema = { ...route.schema, hide: true };
    });
    await app.register(sandboxPlugin, {
      prefix: '/sandbox',
      publicUrl: ctx.config.publicUrl,
      now: ctx.clock,
      simulators: ctx.simulators,
      strict: { modes: parseStrictModes(ctx.config.sandboxStrict) },
      control: ctx.config.sandboxControl,
      describeRequest: async (platform, state) => {
        const name = await ctx.connections.workspaceNameForState(platform, state);
        return name === null ? null : `the Herald workspace "${name}"`;
      },
    });
  }
  return app;
}
