// Starts the HTTP server over a context, and stops it gracefully on SIGTERM/SIGINT.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { createContext, createLogger, type AppContext, type ContextOverrides } from './context.ts';
import { buildApp } from './transports/rest/app.ts';
import { listenMetrics, type MetricsListener } from './transports/rest/metrics.ts';
import { schedulerReadiness } from './scheduling/index.ts';
import { repeat, startSweeps } from './sweeps.ts';

export interface Running {
  ctx: AppContext;
  app: FastifyInstance;
  url: string;
  /** Where /metrics is served when it has a listener of its own (HERALD_METRICS_PORT). */
  metricsUrl: string | undefined;
  stop(): Promise<void>;
}

export async function startServer(config: Config, overrides: ContextOverrides = {}): Promise<Running> {
  // Each slow step of a start is said as it begins or ends (a first start makes the embedded database).
  const logger = overrides.logger ?? createLogger(config);
  const ctx = await createContext(config, { progress: (step) => logger.info(step), ...overrides, logger });
  startSweeps(ctx);
  let app: FastifyInstance | undefined;
  let metricsListener: MetricsListener | undefined;
  try {
    const scheduler = schedulerReadiness({ store: ctx.scheduling.store, clock: ctx.clock, ...ctx.config.scheduling });
    app = await buildApp(ctx, { defaultMetrics: true, readiness: [scheduler] });
    // Fastify logs a line per network interface; `herald serve` writes one line of its own instead.
    const level = app.log.level;
    app.log.level = 'warn';
    try {
      await app.listen({ port: config.port, host: config.host });
    } finally {
      app.log.level = level;
    }
    const m = config.metrics;
    if (m.port !== undefined)
      metricsListener = await listenMetrics(app.heraldMetrics.registry, { host: m.host, port: m.port, token: m.token });
  } catch (err) {
    await app?.close();
    await ctx.close();
    throw err;
  }
  const addr = app.server.address();
  const url =
    typeof addr === 'object' && addr
      ? `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`
      : config.publicUrl;
  // Tokens of accounts nobody uses are refreshed in the background before they expire.
  const sweepers = [
    repeat(6 * 3600_000, () =>
      ctx.tokens.sweep().then(
        (r) => (r.refreshed || r.failed) && ctx.logger.info(r, 'token refresh sweep'),
        (err: unknown) => ctx.logger.warn({ err }, 'token refresh sweep failed'),
      ),
    ),
    // Expired OAuth rows (codes, tokens, registration counts, clients never used within a day), every hour.
    repeat(3600_000, () => ctx.oauth.sweep().catch((err: unknown) => ctx.logger.warn({ err }, 'OAuth sweep failed'))),
  ];
  // The embedded default publishes scheduled posts in this process; HERALD_WORKER_IN_PROCESS=0 leaves it to `herald
  // worker`. The queue also runs without the worker: this process still enqueues the wake-ups of the posts it
  // schedules.
  if (ctx.scheduleQueue)
    await ctx.scheduleQueue
      .start()
      .catch((err: unknown) => ctx.logger.error({ err }, 'job queue did not start; workers fall back to scanning'));
  if (config.scheduling.inProcessWorker) {
    ctx.scheduleWorker.start();
    ctx.reconciler.start();
    ctx.notifier.start();
    ctx.commentSync.start();
    ctx.followUps.start();
    ctx.webhookWorker.start();
    ctx.feedPoller.start();
  }
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const stopSweep of sweepers) stopSweep();
      await metricsListener?.close();
      // close() stops accepting connections and waits for in-flight requests to finish.
      await app.close();
      await ctx.close();
    })());
  return { ctx, app, url, metricsUrl: metricsListener?.url, stop };
}

const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: 'the port is already in use (stop the other process or set PORT)',
  EACCES: 'permission denied (ports below 1024 need privileges; set PORT)',
  EADDRNOTAVAIL: 'the address is not available on this machine (check HOST)',
};

/** A listen failure as one line, or undefined for other errors. */
export function listenFailure(err: unknown): string | undefined {
  const e = err as { code?: string; syscall?: string; address?: string; port?: number };
  const why = e.syscall === 'listen' && e.code ? LISTEN_ERRORS[e.code] : undefined;
  return why ? `cannot listen on ${e.address ?? '?'}:${e.port ?? '?'}: ${why}` : undefined;
}

/**
 * Stops the server on SIGTERM/SIGINT. Called with the start-up still under way: the server answers /healthz as soon
 * as it listens, before its workers have started, so a signal in that window (an orchestrator stopping a container
 * it just saw healthy) waits for the start to finish and then stops it cleanly, instead of killing the process.
 */
export function stopOnSignals(starting: Promise<Running>, timeoutSeconds: number): void {
  const handler = (signal: NodeJS.Signals) => {
    const timer = setTimeout(() => {
      console.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, timeoutSeconds * 1000);
    timer.unref();
    starting.then(
      (running) => {
        running.ctx.logger.info({ signal }, 'shutting down');
        return running.stop().then(
          () => process.exit(0),
          (err: unknown) => {
            running.ctx.logger.error({ err }, 'error during shutdown');
            process.exit(1);
          },
        );
      },
      // The start failed: the command reports it and exits.
      () => undefined,
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
