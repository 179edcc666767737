// The scheduled posts' settings (docs/scheduling.md).
import { z } from 'zod';
import { bool } from './env.ts';

export const schedulingEnvSchema = z.object({
  HERALD_SCHEDULE_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(6 * 3600),
  HERALD_SCHEDULER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  HERALD_SCHEDULER_BATCH: z.coerce.number().int().min(1).max(500).default(20),
  HERALD_SCHEDULER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
  HERALD_SCHEDULER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  HERALD_SCHEDULER_STALL_SECONDS: z.coerce.number().int().min(5).default(120),
  HERALD_WORKER_IN_PROCESS: bool.default(true),
  HERALD_SCHEDULER_LEASE_SECONDS: z.coerce.number().int().min(1).optional(),
  HERALD_SCHEDULER_QUEUE: z.enum(['pgboss', 'scan']).default('pgboss'),
  HERALD_RECONCILE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  HERALD_STUCK_AFTER_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  HERALD_NOTIFY_DIGEST_MINUTES: z.coerce.number().int().min(1).max(10_080).default(15),
});

export type SchedulingConfig = {
  graceSeconds: number;
  pollMs: number;
  batchSize: number;
  concurrency: number;
  maxAttempts: number;
  stallSeconds: number;
  inProcessWorker: boolean;
  leaseSeconds: number;
  queue: 'pgboss' | 'scan';
  /** How often the reconciler looks for stuck posts, and how long past due (or its lease) a post waits before it is. */
  reconcileSeconds: number;
  stuckAfterSeconds: number;
  /** At most one notification digest per member and workspace in this many minutes. */
  digestMinutes: number;
};

export function toSchedulingConfig(e: z.infer<typeof schedulingEnvSchema>): SchedulingConfig {
  return {
    graceSeconds: e.HERALD_SCHEDULE_GRACE_SECONDS,
    pollMs: e.HERALD_SCHEDULER_POLL_MS,
    batchSize: e.HERALD_SCHEDULER_BATCH,
    concurrency: e.HERALD_SCHEDULER_CONCURRENCY,
    maxAttempts: e.HERALD_SCHEDULER_MAX_ATTEMPTS,
    stallSeconds: e.HERALD_SCHEDULER_STALL_SECONDS,
    inProcessWorker: e.HERALD_WORKER_IN_PROCESS,
    queue: e.HERALD_SCHEDULER_QUEUE,
    reconcileSeconds: e.HERALD_RECONCILE_SECONDS,
    stuckAfterSeconds: e.HERALD_STUCK_AFTER_SECONDS,
    digestMinutes: e.HERALD_NOTIFY_DIGEST_MINUTES,
    // The worker renews its claims every third of the lease while it publishes; the lease only bounds
    // how long a dead worker's posts wait before another worker resumes them.
    leaseSeconds: e.HERALD_SCHEDULER_LEASE_SECONDS ?? 60,
  };
}
