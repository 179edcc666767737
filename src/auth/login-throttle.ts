// Per-account throttle for password guessing: every attempt on one subject (an email) is counted
// whatever address it comes from; past a few failures each further attempt waits twice as long as the
// last, up to a ceiling. Subjects are counted whether or not an account exists, so the answer never
// tells which addresses are registered. Counters live in Redis when configured (shared by instances).
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { AppError } from '../errors.ts';

/** What is being guessed at: separate counters per flow (sign-in, password change, reset, OAuth sign-in). */
export type ThrottleScope = 'login' | 'password_change' | 'password_reset' | 'oauth_login';

export interface LoginThrottleOptions {
  /** Attempts allowed before backoff starts. */
  freeAttempts: number;
  maxBackoffSeconds: number;
  now: () => Date;
  redis?: Redis | undefined;
  redisPrefix?: string;
}

interface Attempts {
  n: number;
  /** Epoch ms before which the next attempt is refused. */
  until: number;
}

// Failures are forgotten a day after the last attempt.
const IDLE_MS = 24 * 3600 * 1000;

// Atomic on Redis, so parallel attempts cannot all slip through before the first one is counted.
const ATTEMPT_LUA = `
local now = tonumber(ARGV[1])
local r = redis.call('HMGET', KEYS[1], 'n', 'until')
local n = tonumber(r[1]) or 0
local until_ms = tonumber(r[2]) or 0
if until_ms > now then return {0, until_ms - now} end
n = n + 1
local lock = 0
local free = tonumber(ARGV[2])
if n > free then lock = math.min(1000 * 2 ^ (n - free - 1), tonumber(ARGV[3])) end
redis.call('HSET', KEYS[1], 'n', n, 'until', string.format('%d', now + lock))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
return {1, 0}
`;

export function throttledError(retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    'too_many_attempts',
    {
      error: 'LOGIN_THROTTLED',
      message: `Too many attempts for this account. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    },
    { headers: { 'retry-after': String(seconds) } },
  );
}

export class LoginThrottle {
  readonly #o: LoginThrottleOptions;
  /** Without Redis: made on the first attempt (a cache of 100,000 entries allocates its tables up front, ~4 MB). */
  #memoryCache: LRUCache<string, Attempts> | undefined;

  constructor(opts: LoginThrottleOptions) {
    this.#o = opts;
    if (opts.redis && !('heraldLoginAttempt' in opts.redis))
      opts.redis.defineCommand('heraldLoginAttempt', { numberOfKeys: 1, lua: ATTEMPT_LUA });
  }

  get #memory(): LRUCache<string, Attempts> | undefined {
    if (this.#o.redis) return undefined;
    // Bounded: a flood of made-up emails evicts old entries instead of growing without limit.
    return (this.#memoryCache ??= new LRUCache({
      max: 100_000,
      ttl: IDLE_MS,
      perf: { now: () => this.#o.now().getTime() },
      ttlResolution: 0,
    }));
  }

  /**
   * Claims one attempt for `subject` before the credential is checked; throws a 429 (LOGIN_THROTTLED,
   * with Retry-After) while the subject is backing off. Call `succeeded` after a correct credential;
   * for flows with no success (a reset mail) never call it, so every request counts.
   */
  async attempt(scope: ThrottleScope, subject: string): Promise<void> {
    const key = this.#key(scope, subject);
    const now = this.#o.now().getTime();
    const { freeAttempts, maxBackoffSeconds } = this.#o;
    let allowed: boolean;
    let waitMs: number;
    if (this.#memory) {
      const a = this.#memory.get(key) ?? { n: 0, until: 0 };
      allowed = a.until <= now;
      waitMs = a.until - now;
      if (allowed) {
        a.n += 1;
        a.until =
          a.n > freeAttempts ? now + Math.min(1000 * 2 ** (a.n - freeAttempts - 1), maxBackoffSeconds * 1000) : 0;
        this.#memory.set(key, a);
      }
    } else {
      const redis = this.#o.redis as Redis & {
        heraldLoginAttempt(key: string, ...args: number[]): Promise<[number, number]>;
      };
      [allowed, waitMs] = await redis
        .heraldLoginAttempt(key, now, freeAttempts, maxBackoffSeconds * 1000, IDLE_MS)
        .then(([ok, wait]) => [ok === 1, wait] as const);
    }
    if (!allowed) throw throttledError(waitMs);
  }

  /** A correct credential clears the subject's count. */
  async succeeded(scope: ThrottleScope, subject: string): Promise<void> {
    const key = this.#key(scope, subject);
    if (this.#memory) this.#memory.delete(key);
    else await this.#o.redis!.del(key);
  }

  // Hashed, so the store never holds the addresses people typed.
  #key(scope: ThrottleScope, subject: string): string {
    const digest = createHash('sha256').update(subject.trim().toLowerCase()).digest('base64url');
    return `${this.#o.redisPrefix ?? ''}${scope}:${digest}`;
  }
}
