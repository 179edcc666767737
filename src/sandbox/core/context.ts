// What every simulator route needs at hand: the store, the clock and where the sandbox is reachable from outside.
import type { ErrorCatalogue } from './documented.ts';
import type { EngagementHooks } from './engagement.ts';
import type { SandboxStore } from './store.ts';
import type { Platform } from './types.ts';

export interface SandboxContext {
  store: SandboxStore;
  /** Herald's external base URL without trailing slash, e.g. http://127.0.0.1:8080. */
  publicUrl: string;
  /** Path the plugin is mounted at, e.g. /sandbox. */
  mount: string;
  now(): Date;
  nowMs(): number;
  /** External base of one simulator: `${publicUrl}${mount}/${platform}`. */
  base(platform: Platform): string;
  /** Operations each platform's routes declare; `_faults` accepts exactly these. */
  operations: Map<Platform, Set<string>>;
  /** How each network names and finds the objects `POST /_seed` makes (engagement.ts `declareEngagement`). */
  engagement: Map<Platform, EngagementHooks>;
  /** The documented errors each network can be made to answer (`fault: "error"`, see documented.ts). */
  errors: Map<Platform, ErrorCatalogue>;
  /** Aborted when the server starts closing, so held ("timeout" fault) requests let go. */
  closing: AbortSignal;
  /** Who an authorization request (by its state) is for, for the consent page; see SandboxOptions. */
  describeRequest: ((platform: Platform, state: string) => Promise<string | null>) | undefined;
}

export function createContext(input: {
  store: SandboxStore;
  publicUrl: string;
  mount: string;
  now?: () => Date;
  closing: AbortSignal;
  describeRequest?: ((platform: Platform, state: string) => Promise<string | null>) | undefined;
}): SandboxContext {
  const publicUrl = input.publicUrl.replace(/\/+$/, '');
  const mount = input.mount.replace(/\/+$/, '');
  const now = input.now ?? (() => new Date());
  return {
    store: input.store,
    publicUrl,
    mount,
    now,
    nowMs: () => now().getTime(),
    base: (platform) => `${publicUrl}${mount}/${platform}`,
    operations: new Map(),
    engagement: new Map(),
    errors: new Map(),
    closing: input.closing,
    describeRequest: input.describeRequest,
  };
}
