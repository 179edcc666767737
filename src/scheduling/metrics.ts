// Scheduler figures for /metrics. Counters live in the worker (it does the attempts); the gauges read
// the queue when scraped, so they are right whichever process runs the worker.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ScheduledStore } from './store.ts';

export class SchedulerMetrics {
  #attempts: Counter<'platform'> | undefined;
  #failures: Counter<'platform'> | undefined;

  attempt(platform: string): void {
    this.#attempts?.inc({ platform });
  }

  failure(platform: string): void {
    this.#failures?.inc({ platform });
  }

  register(registry: Registry, store: ScheduledStore, graceSeconds: number, now: () => Date): void {
    this.#attempts = new Counter({
      name: 'herald_scheduled_publish_attempts_total',
      help: 'Scheduled-post publish attempts by network',
      labelNames: ['platform'] as const,
      registers: [registry],
    });
    this.#failures = new Counter({
      name: 'herald_scheduled_publish_failures_total',
      help: 'Scheduled posts that ended failed, by network',
      labelNames: ['platform'] as const,
      registers: [registry],
    });
    // Both gauges are collected by the same scrape: they share one read of the queue (a count over every waiting row).
    let reading: ReturnType<ScheduledStore['stats']> | undefined;
    const stats = () =>
      (reading ??= store.stats(new Date(now().getTime() - graceSeconds * 1000)).finally(() => {
        reading = undefined;
      }));
    new Gauge({
      name: 'herald_scheduled_queue_depth',
      help: 'Scheduled posts waiting (status scheduled) or being published',
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        const s = await stats();
        this.set({ status: 'scheduled' }, s.scheduled);
        this.set({ status: 'publishing' }, s.publishing);
      },
    });
    new Gauge({
      name: 'herald_scheduled_due_not_started',
      help: 'Scheduled posts whose time has come and that no worker has claimed yet',
      registers: [registry],
      async collect() {
        this.set((await stats()).due);
      },
    });
  }
}
