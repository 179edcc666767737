// Readiness of the scheduler, for the serving process: due posts that nobody claimed for stallSeconds
// mean no worker is making progress (a live worker in any process claims within a poll interval).
import type { AppContext, ReadinessCheck } from '../context.ts';

export function schedulerReadiness(ctx: Pick<AppContext, 'scheduling' | 'clock' | 'config'>): ReadinessCheck {
  const { graceSeconds, stallSeconds } = ctx.config.scheduling;
  return async () => {
    const now = ctx.clock().getTime();
    const s = await ctx.scheduling.store.stats(new Date(now - graceSeconds * 1000));
    const late = s.overdueOldest ? Math.round((now - s.overdueOldest.getTime()) / 1000) : 0;
    return late > stallSeconds
      ? { name: 'scheduler', ok: false, detail: `${s.due} scheduled post(s) overdue, the oldest by ${late} s: no worker is publishing` }
      : { name: 'scheduler', ok: true };
  };
}
