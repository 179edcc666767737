// Builds the Fastify application over an AppContext. Routes are thin: parse → service → shape.
import { createHash, randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { accessPlugin } from './access.ts';
import { installErrorHandling } from './errors.ts';
import { installMetrics } from './metrics.ts';
import { credentialsFrom } from '../../auth/authenticate.ts';
import { authRoutes } from './routes/auth.ts';
import { workspaceRoutes } from './routes/workspaces.ts';
import { workspaceMemberRoutes } from './routes/workspace-members.ts';
import { billingRoutes } from './routes/billing.ts';
import { opsRoutes } from './routes/ops.ts';
import { adminRoutes } from './routes/admin.ts';
import { connectionRoutes } from './routes/connections.ts';
import { postRoutes } from './routes/posts.ts';
import { draftRoutes } from './routes/drafts.ts';
import { scheduledPostRoutes } from './routes/scheduled-posts.ts';
import { mediaRoutes } from './routes/media.ts';
import { storageRoutes } from './routes/storage.ts';

export interface BuildOptions {
  /** Process-level metrics (event loop, memory); off in tests that build many apps. */
  defaultMetrics?: boolean;
  /** Runs on the bare instance before anything is registered, so its hooks see every route (tests observe the sandbox with it). */
  configure?: (app: FastifyInstance) => void;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    trustProxy: ctx.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 10 * 1024 * 1024,
    // Honour a proxy's request id when it is well-formed; otherwise mint one.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  opts.configure?.(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  installErrorHandling(app);
  const metrics = installMetrics(app, { defaultMetrics: opts.defaultMetrics ?? false });

  // ioredis is loaded only when a shared rate-limit store is configured.
  const redis = ctx.config.redisUrl ? new (await import('ioredis')).Redis(ctx.config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false }) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => {})));
  await app.register(rateLimit, {
    global: true,
    max: ctx.config.rateLimit.max,
    timeWindow: ctx.config.rateLimit.windowSeconds * 1000,
    enableDraftSpec: true,
    ...(redis ? { redis, nameSpace: ctx.config.rateLimit.redisPrefix } : {}),
    allowList: (req) => UNLIMITED_PATHS.has(req.url.split('?')[0] ?? ''),
    // Budgets are per credential (hashed: raw secrets are never used as store keys); anonymous calls by address.
    keyGenerator: (req) => {
      const { token } = credentialsFrom(req.headers);
      return token ? `k:${createHash('sha256').update(token).digest('base64url')}` : `ip:${req.ip}`;
    },
    errorResponseBuilder: (_req, context) =>
      new AppError(
        'APIKEY_RATE_LIMIT',
        { error: 'APIKEY_RATE_LIMIT', message: 'API key rate limit exceeded.' },
        { headers: { 'retry-after': String(Math.ceil(context.ttl / 1000)) } },
      ),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Herald API', version: '0.1.0', description: 'Self-hosted social publishing.' },
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          Bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await app.register(accessPlugin, { ctx });

  await app.register(opsRoutes, { ctx, metrics });
  await app.register(authRoutes, { ctx });
  await app.register(workspaceRoutes, { ctx });
  await app.register(workspaceMemberRoutes, { ctx });
  await app.register(billingRoutes, { ctx });
  await app.register(adminRoutes, { ctx });
  await app.register(connectionRoutes, { ctx });
  await app.register(postRoutes, { ctx });
  await app.register(draftRoutes, { ctx });
  await app.register(scheduledPostRoutes, { ctx, metrics });
  await app.register(mediaRoutes, { ctx });
  // With S3 the bucket (or a CDN in front of it) serves the files.
  if (ctx.media.servesFiles) await app.register(storageRoutes, { ctx });
  if (ctx.config.sandbox) {
    const { sandboxPlugin } = await import('../../sandbox/index.ts');
    // The simulators answer as the networks do, with their own error bodies, and are not rate limited.
    await app.register(async (sandbox) => {
      sandbox.addHook('onRoute', (route) => {
        route.config = { ...route.config, rateLimit: false } as typeof route.config;
      });
      await sandbox.register(sandboxPlugin, {
        prefix: '/sandbox',
        publicUrl: ctx.config.publicUrl,
        now: ctx.clock,
        describeRequest: async (platform, state) => {
          const name = await ctx.connections.workspaceNameForState(platform, state);
          return name === null ? null : `the Herald workspace "${name}"`;
        },
      });
    });
  }
  return app;
}
