// The feeds' settings (docs/workflow.md, docs/configuration.md).
import { z } from 'zod';

export const feedsEnvSchema = z.object({
  HERALD_FEED_POLL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(900),
  HERALD_FEED_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(120).default(15),
  HERALD_FEED_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  HERALD_FEED_MAX_ITEMS: z.coerce.number().int().min(1).max(500).default(20),
});

export interface FeedsConfig {
  /** How often each feed is polled; 0 turns the poller off. */
  pollSeconds: number;
  /** The whole fetch of one feed: connecting, redirects and reading the body. */
  timeoutMs: number;
  maxBytes: number;
  /** New items taken from one feed per poll (the newest first). */
  maxItems: number;
}

export function toFeedsConfig(e: z.infer<typeof feedsEnvSchema>): FeedsConfig {
  return {
    pollSeconds: e.HERALD_FEED_POLL_SECONDS,
    timeoutMs: e.HERALD_FEED_TIMEOUT_SECONDS * 1000,
    maxBytes: e.HERALD_FEED_MAX_BYTES,
    maxItems: e.HERALD_FEED_MAX_ITEMS,
  };
}
