// The webhooks' settings (docs/webhooks.md, docs/configuration.md).
import { z } from 'zod';

/** The Standard Webhooks schedule: each retry's delay after the attempt before it, in seconds. */
export const DEFAULT_RETRY_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];

const seconds = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*$/, 'a comma list of seconds')
  .transform((s) => s.split(',').map(Number));

export const webhooksEnvSchema = z.object({
  HERALD_WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(60).default(15),
  HERALD_WEBHOOK_RETRY_SCHEDULE: seconds.optional(),
  HERALD_WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().min(0).default(120),
  HERALD_WEBHOOK_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(500),
  HERALD_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(20),
});

export interface WebhooksConfig {
  timeoutMs: number;
  retrySeconds: number[];
  disableAfterMs: number;
  pollMs: number;
  concurrency: number;
}

export function toWebhooksConfig(e: z.infer<typeof webhooksEnvSchema>): WebhooksConfig {
  return {
    timeoutMs: e.HERALD_WEBHOOK_TIMEOUT_SECONDS * 1000,
    retrySeconds: e.HERALD_WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_RETRY_SECONDS,
    disableAfterMs: e.HERALD_WEBHOOK_DISABLE_AFTER_HOURS * 3600_000,
    pollMs: e.HERALD_WEBHOOK_POLL_MS,
    concurrency: e.HERALD_WEBHOOK_CONCURRENCY,
  };
}
