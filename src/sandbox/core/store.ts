// The one in-memory store of every simulator. Each network owns a slice; publishing simulators add their objects to the
// `posts`, `media`, `containers` and `uploads` maps of their slice rather than keeping private state, so `GET /_state`
// and `DELETE /_state` always see and reset everything.
import { settle } from './processing.ts';
import { noStrictModes, STRICT_MODES } from './strict.ts';
import type { StrictMode } from './strict.ts';
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
  /** Byte-transfer sessions (YouTube resumable uploads, Facebook chunked video uploads). */
  uploads: Map<string, ObjectRecord>;
  /**
   * Comments and replies on posts (engagement.ts): seeded ones from simulated users and replies made through the API.
   */
  comments: Map<string, ObjectRecord>;
}

export const OBJECT_MAPS = ['posts', 'media', 'containers', 'uploads', 'comments'] as const;
export type ObjectMap = (typeof OBJECT_MAPS)[number];

/** Per-platform lifetime overrides in seconds, keyed by token kind (access, refresh, short, long, code …). */
export type Lifetimes = Partial<Record<Platform, Record<string, number>>>;

export interface SandboxConfig {
  latencyMs: number;
  lifetimes: Lifetimes;
  /** Redirect URIs accepted verbatim by every network, on top of `{publicUrl}/…/<platform>/oauth/callback`. */
  redirectUris: string[];
  /** Oldest recorded requests are dropped beyond this, so long benchmark runs stay bounded in memory. */
  maxRequests: number;
  /** Simulated asynchronous processing time (media, containers, publish jobs) per platform, in ms. */
  processingMs: Record<Platform, number>;
  /** Published posts allowed per rolling 24 h, for networks that enforce a publishing quota. */
  publishLimits: Partial<Record<Platform, number>>;
  /** Strict modes (see strict.ts): every mode is off by default. */
  strict: Record<StrictMode, boolean>;
  /**
   * Hosts (`host` or `host:port`) the strict media fetcher treats as public although they resolve to loopback/private
   * addresses.
   */
  publicHosts: string[];
  /** Daily quota units of a YouTube project under `youtube_quota` (10,000 by default, as Google grants). */
  youtubeDailyQuota: number;
  /**
   * How long TikTok's moderation of a public post takes after PUBLISH_COMPLETE before status/fetch lists its
   * publicaly_available_post_id (TikTok: usually within a minute, sometimes hours). 0: at once.
   */
  tiktokModerationMs: number;
}

export const DEFAULT_PROCESSING_MS = 200;
/** Instagram's content_publishing_limit reports quota_total 50; Threads allows 250 posts per 24 h. */
export const DEFAULT_PUBLISH_LIMITS: Partial<Record<Platform, number>> = { instagram: 50, threads: 250 };

export interface SandboxStore {
  /** The mounted simulators' slugs: each has a slice. */
  slugs: readonly Platform[];
  slices: Record<Platform, PlatformSlice>;
  faults: FaultRecord[];
  config: SandboxConfig;
  initialLatencyMs: number;
  /** Strict modes and public hosts applied at start and after every reset. */
  initialStrict: InitialStrict | undefined;
  /** Quota and rate-limit counters of the strict modes, by bucket key (strict.ts `spend`). */
  usage: Map<string, number>;
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
    uploads: new Map(),
    comments: new Map(),
  };
}

function emptySlices(slugs: readonly Platform[]): Record<Platform, PlatformSlice> {
  const slices = {} as Record<Platform, PlatformSlice>;
  for (const p of slugs) slices[p] = emptySlice();
  return slices;
}

export interface InitialStrict {
  modes: 'all' | readonly StrictMode[];
  publicHosts?: readonly string[] | undefined;
}

function initialConfig(
  latencyMs: number,
  slugs: readonly Platform[],
  initial: InitialStrict | undefined,
): SandboxConfig {
  const processingMs = {} as Record<Platform, number>;
  for (const p of slugs) processingMs[p] = DEFAULT_PROCESSING_MS;
  const strict = noStrictModes();
  for (const m of STRICT_MODES) if (initial && (initial.modes === 'all' || initial.modes.includes(m))) strict[m] = true;
  return {
    latencyMs,
    lifetimes: {},
    redirectUris: [],
    maxRequests: 1000,
    processingMs,
    publishLimits: { ...DEFAULT_PUBLISH_LIMITS },
    strict,
    publicHosts: [...(initial?.publicHosts ?? [])],
    youtubeDailyQuota: 10_000,
    tiktokModerationMs: 0,
  };
}

export function createStore(
  latencyMs: number,
  slugs: readonly Platform[],
  initialStrict?: InitialStrict,
): SandboxStore {
  return {
    slugs,
    slices: emptySlices(slugs),
    faults: [],
    config: initialConfig(latencyMs, slugs, initialStrict),
    initialLatencyMs: latencyMs,
    initialStrict,
    usage: new Map(),
  };
}

/** Back to a fresh start: accounts, tokens, recorded requests, objects, faults and config. */
export function resetStore(store: SandboxStore): void {
  store.slices = emptySlices(store.slugs);
  store.faults = [];
  store.config = initialConfig(store.initialLatencyMs, store.slugs, store.initialStrict);
  store.usage = new Map();
}

export function lifetimeSec(store: SandboxStore, platform: Platform, kind: string, fallback: number): number {
  return store.config.lifetimes[platform]?.[kind] ?? fallback;
}

/** Everything a platform holds; pending processing steps that are due are applied first, so states are current. */
export function sliceSnapshot(slice: PlatformSlice, clockNow: number): Record<string, unknown> {
  const wallNow = Date.now();
  for (const map of OBJECT_MAPS) for (const record of slice[map].values()) settle(record, wallNow, clockNow);
  return {
    accounts: [...slice.accounts.values()],
    grants: [...slice.grants.values()],
    codes: [...slice.codes.values()],
    tokens: [...slice.tokens.values()],
    requests: slice.requests,
    posts: [...slice.posts.values()],
    media: [...slice.media.values()],
    containers: [...slice.containers.values()],
    uploads: [...slice.uploads.values()],
    comments: [...slice.comments.values()],
  };
}
