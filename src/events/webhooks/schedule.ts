// When a failed delivery is tried again: the schedule's next delay (the Standard Webhooks one by default), with
// jitter so that an endpoint coming back is not hit by every delivery in the same second, and never before the
// receiver's Retry-After.

/** ±10 %: spreads retries without moving them far from the documented schedule. */
const JITTER = 0.1;
/** A Retry-After further out than this is taken as this (a receiver cannot park deliveries for weeks). */
const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/**
 * The time of the next attempt after `attempts` failed ones, or null when the schedule is spent.
 * `retrySeconds[i]` is the wait before attempt i + 2 (the first attempt is immediate).
 */
export function nextAttemptAt(
  retrySeconds: readonly number[],
  attempts: number,
  now: Date,
  retryAfterMs?: number,
  random: () => number = Math.random,
): Date | null {
  const base = retrySeconds[attempts - 1];
  if (base === undefined) return null;
  const jittered = base * 1000 * (1 + JITTER * (2 * random() - 1));
  const wait = Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
  return new Date(now.getTime() + wait);
}

/** Retry-After as milliseconds: seconds, or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}
