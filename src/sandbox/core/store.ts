// The one in-memory store of every simulator. Each network owns a slice; publishing simulators add their objects to the
// `posts`, `media` and `containers` maps of their slice (or add a new map here) rather than keeping private state,
// so `GET /_state` and `DELETE /_state` always see and reset everything.
import { PLATFORMS } from './types.ts';
import type {
  AccountRecord,
  CodeRecord,
  FaultRecord,
  GrantRecord,
  ObjectRecord,
  PendingAuthorization,
  Platform,
  RequestRecord,
  TokenRecord,
} from './types.ts';

export interface PlatformSlice {
  accounts: Map<string, AccountRecord>;
  grants: Map<string, GrantRecord>;
  pending: Map<string, PendingAuthorization>;
  codes: Map<string, CodeRecord>;
  tokens: Map<string, TokenRecord>;
  requests: RequestRecord[];
  posts: Map<string, ObjectRecord>;
  media: Map<string, ObjectRecord>;
  containers: Map<string, ObjectRecord>;
}

/** Per-platform lifetime overrides in seconds, keyed by token kind (access, refresh, short, long, code …). */
export type Lifetimes = Partial<Record<Platform, Record<string, number>>>;

export interface SandboxConfig {
  latencyMs: number;
  lifetimes: Lifetimes;
  /** Redirect URIs accepted verbatim by every network, on top of `{publicUrl}/…/<platform>/oauth/callback`. */
  redirectUris: string[];
  /** Oldest recorded requests are dropped beyond this, so long benchmark runs stay bounded in memory. */
  maxRequests: number;
}

export interface SandboxStore {
  slices: Record<Platform, PlatformSlice>;
  faults: FaultRecord[];
  config: SandboxConfig;
  initialLatencyMs: number;
}

function emptySlice(): PlatformSlice {
  return {
    accounts: new Map(),
    grants: new Map(),
    pending: new Map(),
    codes: new Map(),
    tokens: new Map(),
    requests: [],
    posts: new Map(),
    media: new Map(),
    containers: new Map(),
  };
}

function emptySlices(): Record<Platform, PlatformSlice> {
  const slices = {} as Record<Platform, PlatformSlice>;
  for (const p of PLATFORMS) slices[p] = emptySlice();
  return slices;
}

function initialConfig(latencyMs: number): SandboxConfig {
  return { latencyMs, lifetimes: {}, redirectUris: [], maxRequests: 1000 };
}

export function createStore(latencyMs = 0): SandboxStore {
  return { slices: emptySlices(), faults: [], config: initialConfig(latencyMs), initialLatencyMs: latencyMs };
}

/** Back to a fresh start: accounts, tokens, recorded requests, objects, faults and config. */
export function resetStore(store: SandboxStore): void {
  store.slices = emptySlices();
  store.faults = [];
  store.config = initialConfig(store.initialLatencyMs);
}

export function lifetimeSec(store: SandboxStore, platform: Platform, kind: string, fallback: number): number {
  return store.config.lifetimes[platform]?.[kind] ?? fallback;
}

export function sliceSnapshot(slice: PlatformSlice): Record<string, unknown> {
  return {
    accounts: [...slice.accounts.values()],
    grants: [...slice.grants.values()],
    codes: [...slice.codes.values()],
    tokens: [...slice.tokens.values()],
    requests: slice.requests,
    posts: [...slice.posts.values()],
    media: [...slice.media.values()],
    containers: [...slice.containers.values()],
  };
}
