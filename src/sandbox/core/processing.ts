// Asynchronous processing (media transcoding, container readiness, publish jobs) without timers: a record carries the
// field changes still to come, each due after a fraction of its platform's processing delay, and due changes are
// applied whenever the record is read (status endpoints, publish checks, `GET /_state`). Timers would keep mutating
// objects after a reset and could not be fast-forwarded. A change is due once its delay has passed on the wall clock OR
// on the sandbox clock, so benchmarks just poll while tests with a frozen clock may `advance()` instead of sleeping.
import type { SandboxContext } from './context.ts';
import type { JsonObject, JsonValue, ObjectRecord, Platform } from './types.ts';

export interface Step {
  /** When the change lands, as a fraction (0–1) of the platform's processing delay. */
  at: number;
  /** A further delay in ms on top of `at` (e.g. TikTok's moderation after processing), whatever processingMs is. */
  afterMs?: number;
  set: JsonObject;
}

/** The configured processing delay of a platform (`_config.processingMs`). */
export function processingDelay(ctx: SandboxContext, platform: Platform): number {
  return ctx.store.config.processingMs[platform];
}

function pendingOf(record: ObjectRecord): JsonObject[] {
  const value = record.scheduled;
  return Array.isArray(value)
    ? value.filter((v): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v))
    : [];
}

/** Applies the due changes of a record in order, and drops `scheduled` once nothing is left. */
export function settle(record: ObjectRecord, wallNow: number, clockNow: number): ObjectRecord {
  const pending = pendingOf(record);
  if (pending.length === 0) return record;
  const left: JsonObject[] = [];
  for (const step of pending) {
    const due = left.length === 0 && (Number(step.dueWall) <= wallNow || Number(step.dueClock) <= clockNow);
    if (due && step.set && typeof step.set === 'object' && !Array.isArray(step.set)) Object.assign(record, step.set);
    else left.push(step);
  }
  if (left.length > 0) record.scheduled = left;
  else delete record.scheduled;
  return record;
}

/** Settles a record against the sandbox's clocks. */
export function current(ctx: SandboxContext, record: ObjectRecord): ObjectRecord {
  return settle(record, Date.now(), ctx.nowMs());
}

/**
 * Replaces whatever was still pending on the record with `steps`, timed from now. With a zero delay every step
 * applies at once, so `processingMs: 0` makes processing synchronous.
 */
export function schedule(ctx: SandboxContext, platform: Platform, record: ObjectRecord, steps: Step[]): void {
  const delay = processingDelay(ctx, platform);
  const wall = Date.now();
  const clock = ctx.nowMs();
  const pending: JsonValue[] = steps.map((s) => {
    const offset = Math.round(Math.min(1, Math.max(0, s.at)) * delay) + Math.max(0, s.afterMs ?? 0);
    return { dueWall: wall + offset, dueClock: clock + offset, set: s.set };
  });
  record.scheduled = pending;
  settle(record, wall, clock);
}
