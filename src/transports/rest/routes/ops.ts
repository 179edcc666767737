import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Counter, Gauge } from 'prom-client';
import { z } from 'zod';
import type { AppContext, ReadinessCheck } from '../../../app-context.ts';
import { AppError } from '../../../errors.ts';
import { METRICS_UNAUTHORIZED, metricsAuthorized, type HttpMetrics } from '../metrics.ts';

export async function opsRoutes(
  app: FastifyInstance,
  { ctx, metrics, readiness }: { ctx: AppContext; metrics: HttpMetrics; readiness: readonly ReadinessCheck[] },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // A network whose token endpoint refused this server's own client id/secret (invalid_client): 1 per such network
  // until a refresh there succeeds again, as in the readiness report's network-apps detail. Alert on it.
  new Gauge({
    name: 'herald_network_app_credentials_refused',
    help: "Networks whose token endpoint refused this server's app credentials (invalid_client) on the last refresh",
    labelNames: ['platform'] as const,
    registers: [metrics.registry],
    collect() {
      this.reset();
      for (const p of ctx.tokens.configProblems()) this.set({ platform: p.platform }, 1);
    },
  });
  // SQL statements this process sent (BEGIN and COMMIT count as statements) and its explicit transactions:
  // divided by the posts published, the round trips per post (npm run bench publishing prints it).
  const counts = ctx.database.statements.counts;
  for (const [name, help, key] of [
    [
      'herald_db_statements_total',
      'SQL statements sent to the database by this process (BEGIN and COMMIT included)',
      'statements',
    ],
    ['herald_db_transactions_total', 'Explicit database transactions of this process', 'transactions'],
  ] as const) {
    new Counter({
      name,
      help,
      registers: [metrics.registry],
      collect() {
        this.reset();
        this.inc(counts[key]);
      },
    });
  }
  // Probes and scrapers are never rate limited.
  const pub = { access: { kind: 'public' as const, budget: 'none' as const } };

  r.get(
    '/healthz',
    {
      config: pub,
      schema: {
        tags: ['operations'],
        operationId: 'getHealth',
        summary: 'Liveness',
        responseDescription: 'The process is alive.',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  r.get(
    '/readyz',
    {
      config: pub,
      schema: {
        tags: ['operations'],
        operationId: 'getReadiness',
        summary: 'Readiness: database reachable, migrations current, workers progressing',
        responseDescription: 'Ready: every check passed.',
        response: {
          200: z.object({
            status: z.enum(['ready', 'not_ready']),
            checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })),
          }),
          503: z
            .object({
              status: z.enum(['ready', 'not_ready']),
              checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })),
            })
            .describe('Not ready: at least one check failed'),
        },
      },
    },
    async (_req, reply) => {
      const checks = await Promise.all(readiness.map((c) => c()));
      const ok = checks.every((c) => c.ok);
      reply.code(ok ? 200 : 503);
      return { status: ok ? ('ready' as const) : ('not_ready' as const), checks };
    },
  );

  // With a listener of its own (main.ts), /metrics is not on the public port at all.
  const { token, port } = ctx.config.metrics;
  if (port === undefined) {
    r.get(
      '/metrics',
      { config: pub, schema: { tags: ['operations'], summary: 'Prometheus metrics', hide: true } },
      async (req, reply) => {
        if (!metricsAuthorized(req.headers, token))
          throw new AppError('unauthorized', METRICS_UNAUTHORIZED.detail, {
            headers: { 'www-authenticate': 'Bearer' },
          });
        reply.header('content-type', metrics.registry.contentType);
        return metrics.registry.metrics();
      },
    );
  }

  r.get('/openapi.json', { config: pub, schema: { hide: true } }, async () => app.swagger());
}
