// Armed faults: each answers the next `remaining` calls of one platform operation, then disappears.
import { randomId } from './ids.ts';
import type { SandboxStore } from './store.ts';
import type { FaultKind, FaultRecord, Platform } from './types.ts';

/** Longer than any sane client timeout, so the client gives up first. */
export const DEFAULT_HOLD_MS = 35_000;

export function armFault(
  store: SandboxStore,
  input: {
    platform: Platform;
    operation: string;
    fault: FaultKind;
    error?: string | undefined;
    times: number;
    holdMs: number;
  },
  at: Date,
): FaultRecord {
  const record: FaultRecord = {
    id: randomId(),
    platform: input.platform,
    operation: input.operation,
    fault: input.fault,
    ...(input.error !== undefined ? { error: input.error } : {}),
    remaining: input.times,
    holdMs: input.holdMs,
    createdAt: at.toISOString(),
  };
  store.faults.push(record);
  return record;
}

/**
 * Consumes one shot of the first fault matching the call. `ops` lists the call's operations from the most specific
 * (e.g. `refresh`) to the most general (`token`), so a refresh-only fault wins over a token fault.
 */
export function takeFault(
  store: SandboxStore,
  platform: Platform,
  ops: readonly string[],
): { fault: FaultKind; holdMs: number; error?: string | undefined } | null {
  for (const op of ops) {
    const index = store.faults.findIndex((f) => f.platform === platform && f.operation === op && f.remaining > 0);
    const found = store.faults[index];
    if (!found) continue;
    found.remaining -= 1;
    if (found.remaining <= 0) store.faults.splice(index, 1);
    return { fault: found.fault, holdMs: found.holdMs, error: found.error };
  }
  return null;
}
