// Token lifecycle: refresh ahead of expiry and after an auth error, one refresh at a time per
// connection across every process, rotated tokens written in one statement, transient failures
// retried with backoff without ever erasing what is stored, a dead grant → "needs reconnect".
import type { Logger } from 'pino';
import type { Platform } from '../platforms/slugs.ts';
import type { Locks } from '../db/locks.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import { PlatformError, type TokenSet } from '../platforms/types.ts';
import type { ConnectionRow, ConnectionStore } from './store.ts';

/**
 * A refresh answer that carries a group of extras (e.g. every `page_token:*`) replaces that whole
 * group, so secrets for pages the account no longer manages are dropped; other extras are kept.
 */
export function mergeExtra(
  old: Record<string, string> | undefined,
  next: Record<string, string> | undefined,
): Record<string, string> {
  const out = { ...old };
  if (!next) return out;
  const groups = new Set(Object.keys(next).map((k) => k.split(':')[0]));
  for (const k of Object.keys(out)) if (k.includes(':') && groups.has(k.split(':')[0])) delete out[k];
  return { ...out, ...next };
}

export interface TokenKeeperOptions {
  /** Refresh when the access token expires within this window. */
  refreshAheadMs?: number;
  /** Delays between refresh attempts on transient failures. */
  backoffMs?: number[];
  sleep?: (ms: number) => Promise<void>;
}

export class TokenKeeper {
  readonly #store: ConnectionStore;
  readonly #registry: PlatformRegistry;
  readonly #locks: Locks;
  readonly #now: () => Date;
  readonly #logger: Logger;
  readonly #aheadMs: number;
  readonly #backoff: number[];
  readonly #sleep: (ms: number) => Promise<void>;
  /** Networks whose token endpoint refused this server's app credentials, until a refresh there succeeds again. */
  readonly #configProblems = new Map<string, { message: string; at: Date }>();

  constructor(
    store: ConnectionStore,
    registry: PlatformRegistry,
    locks: Locks,
    now: () => Date,
    logger: Logger,
    opts: TokenKeeperOptions = {},
  ) {
    this.#store = store;
    this.#registry = registry;
    this.#locks = locks;
    this.#now = now;
    this.#logger = logger;
    this.#aheadMs = opts.refreshAheadMs ?? 5 * 60_000;
    this.#backoff = opts.backoffMs ?? [500, 2000, 5000];
    this.#sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  #expiresSoon(row: ConnectionRow): boolean {
    return row.accessExpiresAt !== null && row.accessExpiresAt.getTime() - this.#now().getTime() <= this.#aheadMs;
  }

  /** Runs fn with valid tokens: refreshes ahead of expiry, and once more if the network says they expired. */
  async use<T>(row: ConnectionRow, fn: (tokens: TokenSet, row: ConnectionRow) => Promise<T>): Promise<T> {
    const platform = row.platform as Platform;
    if (row.status === 'needs_reconnect') {
      throw new PlatformError(
        platform,
        'reauth_required',
        `${this.#registry.get(platform).displayName} needs to be reconnected: ${row.statusReason ?? 'access was revoked'}`,
      );
    }
    let current = this.#expiresSoon(row) ? await this.refresh(row) : row;
    try {
      return await fn(this.#store.tokens(current), current);
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      if (err.kind === 'reauth_required') {
        await this.#store.markNeedsReconnect(row.id, err.message);
        throw err;
      }
      if (err.kind !== 'auth_expired') throw err;
      current = await this.refresh(current, { force: true, expired: true });
      return fn(this.#store.tokens(current), current);
    }
  }

  #expired(row: ConnectionRow): boolean {
    return row.accessExpiresAt !== null && row.accessExpiresAt.getTime() <= this.#now().getTime();
  }

  /**
   * When this connection stops working unless its user reconnects: the end of the refresh grant, or the access
   * token's expiry when the network cannot refresh it; null when the network gives no end.
   */
  usableUntil(row: ConnectionRow): Date | null {
    return this.#refreshable(row) ? row.refreshExpiresAt : row.accessExpiresAt;
  }

  /**
   * Whether the network can refresh this connection's grant (false e.g. for a grant issued without a refresh token).
   */
  #refreshable(row: ConnectionRow): boolean {
    const auth = this.#registry.get(row.platform as Platform).auth;
    if (!auth.refresh) return false;
    return auth.kind !== 'oauth2' || !auth.canRefresh || auth.canRefresh(this.#store.tokens(row));
  }

  /**
   * Refreshes every connection whose access token expires within `horizonMs`, so accounts that are
   * not used for weeks do not die (Facebook, Instagram and Threads tokens cannot be renewed once expired).
   * A grant that cannot be refreshed is not marked "needs reconnect" ahead of time: it still works until its token
   * expires, so the user is warned (status_reason, log) and the connection is marked only once the token is dead.
   */
  async sweep(horizonMs = 7 * 24 * 3600_000): Promise<{ refreshed: number; failed: number; warned: number }> {
    const due = await this.#store.expiringBefore(new Date(this.#now().getTime() + horizonMs));
    let refreshed = 0;
    let failed = 0;
    let warned = 0;
    for (const row of due) {
      const adapter = this.#registry.get(row.platform as Platform);
      if (!adapter.auth.refresh) continue;
      if (!this.#refreshable(row)) {
        if (this.#expired(row)) {
          await this.#store.markNeedsReconnect(
            row.id,
            'the access token expired and this app was issued no refresh token',
          );
          failed++;
          continue;
        }
        const until = row.accessExpiresAt!.toISOString();
        const reason = `${adapter.displayName} issued no refresh token to this app: the connection works until ${until}; reconnect before then.`;
        if (row.statusReason !== reason) await this.#store.warnExpiring(row.id, reason);
        this.#logger.warn(
          { platform: row.platform, connection: row.id, expiresAt: until },
          'connection cannot be refreshed and expires soon; the user must reconnect',
        );
        warned++;
        continue;
      }
      try {
        await this.refresh(row, { force: true });
        refreshed++;
      } catch (err) {
        failed++;
        this.#logger.warn(
          { platform: row.platform, connection: row.id, kind: err instanceof PlatformError ? err.kind : 'error' },
          'scheduled token refresh failed',
        );
      }
    }
    return { refreshed, failed, warned };
  }

  /**
   * Networks whose app credentials the token endpoint refused (for the readiness report), with when and what it said.
   */
  configProblems(): { platform: string; message: string; at: Date }[] {
    return [...this.#configProblems].map(([platform, p]) => ({ platform, ...p }));
  }

  /** Refreshes unless another caller (in any process) already did while we waited for the lock. */
  async refresh(row: ConnectionRow, opts: { force?: boolean; expired?: boolean } = {}): Promise<ConnectionRow> {
    const platform = row.platform as Platform;
    const adapter = this.#registry.get(platform);
    return this.#locks.withLock(`connection-refresh:${row.id}`, async () => {
      const fresh = await this.#store.byId(row.id);
      if (!fresh) throw new PlatformError(platform, 'reauth_required', `${adapter.displayName} was disconnected.`);
      if (fresh.tokenVersion !== row.tokenVersion) return fresh;
      if (!opts.force && !this.#expiresSoon(fresh)) return fresh;
      const refresh = adapter.auth.refresh?.bind(adapter.auth);
      // A grant without a refresh token keeps working until its token expires (or the network says it has).
      if (refresh && !this.#refreshable(fresh) && !opts.expired && !this.#expired(fresh)) return fresh;
      if (!refresh || !this.#refreshable(fresh)) {
        const reason = 'the access token expired and the network issues no refresh tokens';
        await this.#store.markNeedsReconnect(fresh.id, reason);
        throw new PlatformError(
          platform,
          'reauth_required',
          `${adapter.displayName} needs to be reconnected: ${reason}.`,
        );
      }
      const old = this.#store.tokens(fresh);
      let next: TokenSet | undefined;
      for (let attempt = 0; ; attempt++) {
        try {
          next = await refresh(old);
          break;
        } catch (err) {
          if (!(err instanceof PlatformError)) throw err;
          if (err.serverConfig) {
            // invalid_client: the server's client id/secret, not this user's grant. Every connection of the network
            // would fail alike; marking them all "needs reconnect" would send every user to reconnect for nothing.
            this.#configProblems.set(platform, { message: err.message, at: this.#now() });
            this.#logger.error(
              { platform, connection: fresh.id, code: err.code },
              'token refresh refused the app credentials: check the client id and secret of this network',
            );
            throw err;
          }
          if (err.kind === 'reauth_required' || err.kind === 'permission') {
            await this.#store.markNeedsReconnect(fresh.id, err.message);
            throw new PlatformError(
              platform,
              'reauth_required',
              `${adapter.displayName} needs to be reconnected: ${err.message}`,
              { cause: err },
            );
          }
          const retryable = err.kind === 'transient' || err.kind === 'rate_limited';
          if (!retryable || attempt >= this.#backoff.length) throw err;
          const wait = Math.max(this.#backoff[attempt]!, (err.retryAfterSeconds ?? 0) * 1000);
          this.#logger.warn(
            { platform, connection: fresh.id, attempt: attempt + 1, kind: err.kind, waitMs: wait },
            'token refresh failed; retrying',
          );
          await this.#sleep(wait);
        }
      }
      // Networks that do not rotate refresh tokens omit them from the answer: keep the one we have.
      const merged: TokenSet = {
        ...next,
        refreshToken: next.refreshToken ?? old.refreshToken ?? null,
        refreshExpiresAt: next.refreshExpiresAt ?? (next.refreshToken ? null : (old.refreshExpiresAt ?? null)),
        extra: mergeExtra(old.extra, next.extra),
      };
      this.#configProblems.delete(platform);
      const updated = await this.#store.replaceTokens(fresh, merged);
      this.#logger.info({ platform, connection: fresh.id }, 'platform token refreshed');
      return updated ?? (await this.#store.byId(row.id)) ?? fresh;
    });
  }
}
