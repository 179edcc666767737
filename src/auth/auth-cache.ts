// The one cache policy of request authentication: API keys, sessions (JWT checks) and a session's workspace
// membership are answered from a short in-process cache, so a request's authentication costs no statement while
// the same caller keeps calling. Nothing tells another process of a revocation (a revoked key, a logout, a removed
// member): its cached answer ages out instead, so the lifetime is capped at one second — the longest a revocation
// anywhere may go unnoticed by any process of a scaled-out install. Changes made in this process drop its own
// entries at once.
import { LRUCache } from 'lru-cache';

/** The longest a cached authentication answer is used: a revocation takes effect everywhere within it. */
export const AUTH_CACHE_MAX_MS = 1000;

/** A cache of `ms` (at most `AUTH_CACHE_MAX_MS`) on the given clock; none when `ms` is 0. */
export function authCache<V extends {}>(ms: number, now: () => Date): LRUCache<string, V> | undefined {
  const ttl = Math.min(ms, AUTH_CACHE_MAX_MS);
  if (!(ttl > 0)) return undefined;
  return new LRUCache<string, V>({ max: 10_000, ttl, perf: { now: () => now().getTime() }, ttlResolution: 0 });
}
