// Session (JWT) lifecycle: issuing, checking on every request, logging out one session or all.
// A session is refused once its jti is in revoked_sessions or its version is behind the user's
// session_version. The check is one indexed query per session, cached for at most a second (auth-cache.ts),
// so a session revoked on any instance is refused everywhere within that second.
import type { LRUCache } from 'lru-cache';
import { and, eq, lt, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { revokedSessions } from '../db/schema-accounts.ts';
import type { UserRow } from './accounts.ts';
import { authCache } from './auth-cache.ts';
import type { JwtService, SessionClaims } from './jwt.ts';

interface Entry {
  user: UserRow | null;
  revoked: boolean;
}

export class SessionService {
  readonly #db: Db;
  readonly #jwt: JwtService;
  readonly #now: () => Date;
  readonly #cache: LRUCache<string, Entry> | undefined;
  #lastSweep = 0;

  constructor(db: Db, jwt: JwtService, opts: { cacheMs: number; now: () => Date }) {
    this.#db = db;
    this.#jwt = jwt;
    this.#now = opts.now;
    this.#cache = authCache(opts.cacheMs, opts.now);
  }

  /** A new session for the user, under their current session version. */
  issue(user: Pick<UserRow, 'id' | 'sessionVersion'>): Promise<string> {
    return this.#jwt.issue(user.id, user.sessionVersion);
  }

  verify(token: string): Promise<SessionClaims | null> {
    return this.#jwt.verify(token);
  }

  /** The active user behind a verified token, or null when the session was revoked or the user deactivated. */
  async user(claims: SessionClaims): Promise<UserRow | null> {
    let entry = this.#cache?.get(claims.sessionId);
    if (!entry) {
      entry = await this.#load(claims);
      this.#cache?.set(claims.sessionId, entry);
    }
    const { user, revoked } = entry;
    if (!user?.isActive || revoked || claims.version !== user.sessionVersion) return null;
    return user;
  }

  async #load(claims: SessionClaims): Promise<Entry> {
    const [row] = await this.#db
      .select({
        user: users,
        revoked: sql<boolean>`exists (select 1 from ${revokedSessions} where ${revokedSessions.sessionId} = ${claims.sessionId})`,
      })
      .from(users)
      .where(eq(users.id, claims.userId));
    return { user: row?.user ?? null, revoked: Boolean(row?.revoked) };
  }

  /** Revokes one session (POST /auth/logout). */
  async logout(claims: SessionClaims): Promise<void> {
    await this.#db
      .insert(revokedSessions)
      .values({ sessionId: claims.sessionId, userId: claims.userId, expiresAt: claims.expiresAt })
      .onConflictDoNothing();
    this.#cache?.delete(claims.sessionId);
    await this.#sweep();
  }

  /** Revokes every session of the user; returns the new version (for a fresh session issued after). */
  async revokeAll(userId: string, tx: Db = this.#db): Promise<number> {
    const [row] = await tx
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: this.#now() })
      .where(eq(users.id, userId))
      .returning({ version: users.sessionVersion });
    this.forgetUser(userId);
    return row?.version ?? 0;
  }

  /** Drops this process's cached checks of a user's sessions (after a change made here). */
  forgetUser(userId: string): void {
    if (!this.#cache) return;
    for (const [k, v] of this.#cache.entries()) if (v.user?.id === userId) this.#cache.delete(k);
  }

  /** Revocations of tokens that have expired anyway are dropped, at most once a minute. */
  async #sweep(): Promise<void> {
    const now = this.#now();
    if (now.getTime() - this.#lastSweep < 60_000) return;
    this.#lastSweep = now.getTime();
    await this.#db.delete(revokedSessions).where(and(lt(revokedSessions.expiresAt, now)));
  }
}
