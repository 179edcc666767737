// `herald worker`: a process that only publishes scheduled posts. Several may run against one
// PostgreSQL (claims are row-level and guarded); embedded PGlite admits one process, so there the
// worker runs inside `herald serve` instead.
import { ConfigError, type Config } from './config.ts';
import { createContext, type AppContext } from './context.ts';
import { startSweeps } from './sweeps.ts';

export async function startWorkerProcess(config: Config): Promise<{ ctx: AppContext; stop(): Promise<void> }> {
  if (!config.databaseUrl) {
    throw new ConfigError(
      'herald worker needs DATABASE_URL (PostgreSQL): with the embedded database the worker runs inside `herald serve`.',
    );
  }
  const ctx = await createContext(config);
  startSweeps(ctx);
  ctx.scheduleWorker.start();
  ctx.reconciler.start();
  ctx.notifier.start();
  ctx.commentSync.start();
  ctx.followUps.start();
  ctx.webhookWorker.start();
  ctx.feedPoller.start();
  ctx.logger.info({ worker: ctx.scheduleWorker.id, pollMs: config.scheduling.pollMs }, 'scheduling worker started');
  let stopping: Promise<void> | undefined;
  return { ctx, stop: () => (stopping ??= ctx.close()) };
}

/** Stops on SIGTERM/SIGINT, letting the runs in flight finish (their claims would otherwise wait out the lease). */
export function stopWorkerOnSignals(w: { ctx: AppContext; stop(): Promise<void> }, timeoutSeconds: number): void {
  const handler = (signal: NodeJS.Signals) => {
    w.ctx.logger.info({ signal }, 'worker shutting down');
    setTimeout(() => process.exit(1), timeoutSeconds * 1000).unref();
    w.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
