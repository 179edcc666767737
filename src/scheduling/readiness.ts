// Readiness of the scheduler, for the serving process: due posts that nobody claimed for stallSeconds
// mean no worker is making progress (a live worker in any process claims within a poll interval).
import type { Clock } from '../clock.ts';
import type { ScheduledStore } from './store.ts';

export interface SchedulerReadinessDeps {
  store: Pick<ScheduledStore, 'stats'>;
  clock: Clock;
  graceSeconds: number;
  stallSeconds: number;
}

export function schedulerReadiness({ store, clock, graceSeconds, stallSeconds }: SchedulerReadinessDeps) {
  return async (): Promise<{ name: string; ok: boolean; detail?: string }> => {
    const now = clock().getTime();
    const s = await store.stats(new Date(now - graceSeconds * 1000));
    const late = s.overdueOldest ? Math.round((now - s.overdueOldest.getTime()) / 1000) : 0;
    return late > stallSeconds
      ? {
          name: 'scheduler',
          ok: false,
          detail: `${s.due} scheduled post(s) overdue, the oldest by ${late} s: no worker is publishing`,
        }
      : { name: 'scheduler', ok: true };
  };
}
