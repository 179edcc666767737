// Documented errors a simulator can be made to answer on demand: `POST /_faults {"fault": "error", "error": <name>}`.
// Each network's folder lists the errors its reference documents that no ordinary request produces (a spam block, a
// restricted account, a server-side rejection): either as the whole answer the network sends, or as an outcome the
// call's handler applies to what it creates (a container that ends in ERROR, a publish job that ends FAILED).
import type { SandboxContext } from './context.ts';
import type { ErrorAnswer } from './route.ts';
import type { JsonObject, Platform } from './types.ts';

export type DocumentedFault =
  /** Sent instead of calling the handler. */
  | { answer: ErrorAnswer }
  /** Handed to the handler (`call.outcome`), which makes the object it creates end this way. */
  | { outcome: JsonObject };

export type ErrorCatalogue = Readonly<Record<string, DocumentedFault>>;

export function declareErrors(ctx: SandboxContext, platform: Platform, catalogue: ErrorCatalogue): void {
  ctx.errors.set(platform, { ...(ctx.errors.get(platform) ?? {}), ...catalogue });
}

export function errorsOf(ctx: SandboxContext, platform: Platform): string[] {
  return Object.keys(ctx.errors.get(platform) ?? {}).sort();
}

export function documentedFault(
  ctx: SandboxContext,
  platform: Platform,
  name: string | undefined,
): DocumentedFault | undefined {
  return name === undefined ? undefined : ctx.errors.get(platform)?.[name];
}
