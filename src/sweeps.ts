// Leftovers of a previous run, cleared once when `herald serve` or `herald worker` starts (never by CLI commands
// or tests' contexts): temp files of uploads cut off by a crash (a day old is past any upload still running),
// the chunks of sessions that expired meanwhile, and the files of deleted workspaces still on the to-do list.
import type { AppContext } from './app-context.ts';

export function startSweeps(ctx: Pick<AppContext, 'media' | 'uploads' | 'workspaceDeletion' | 'logger'>): void {
  ctx.media.temp.sweep(24 * 3600 * 1000).catch(() => {});
  ctx.uploads.sweep().catch((err: unknown) => ctx.logger.warn({ err }, 'upload session sweep failed'));
  ctx.workspaceDeletion
    .sweep()
    .catch((err: unknown) => ctx.logger.warn({ err }, "sweep of deleted workspaces' files failed"));
}

/**
 * Runs `sweep` every `everyMs`, and once 30 s after start (a process restarted often still sweeps); neither keeps the
 * process alive. Returns what stops it.
 */
export function repeat(everyMs: number, sweep: () => Promise<unknown>): () => void {
  const run = () => void sweep();
  const interval = setInterval(run, everyMs);
  interval.unref();
  const first = setTimeout(run, 30_000);
  first.unref();
  return () => {
    clearInterval(interval);
    clearTimeout(first);
  };
}
