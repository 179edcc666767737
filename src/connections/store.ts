// Reading and writing connections. Tokens are sealed with the row id as associated data.
import type { Db } from '../db/client.ts';
import { and, asc, eq, inArray, type SQL, sql } from '../db/orm.ts';
import { platformConnections } from '../db/schema-connections.ts';
import type { SecretBox } from '../crypto.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { AccountIdentity, Destination, TokenSet } from '../platforms/types.ts';
import { recordEvent } from '../events/index.ts';
import { lazy, rowsOf } from '../db/raw.ts';

/** `insert into events …` of an account event for each platform_connections row of `rows`. */
function accountEvent(type: string, rows: SQL, reason: SQL, at: Date): SQL {
  return sql`
    insert into events (workspace_id, type, post_id, platform, data, occurred_at)
    select workspace_id, ${type}, null, platform,
      jsonb_build_object('platform', platform, 'platform_user_id', account_id, 'display_name', display_name,
        'reason', ${reason}, 'expires_at',
        to_char(access_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
      ${at.toISOString()}::timestamptz
    from ${rows} r`;
}

export type ConnectionRow = typeof platformConnections.$inferSelect;

/**
 * How a note left by publishing begins: the account's state at the network stops every post (a publishing gate, a
 * restriction) until its owner acts there. The prefix tells it from other notes (a token-expiry warning), which a
 * later successful publish must not clear.
 */
export const ACCOUNT_NOTE_PREFIX = 'The last publish was refused: ';

interface StoredTokens {
  accessToken: string;
  refreshToken?: string | null;
  expiresAt?: string | null;
  refreshExpiresAt?: string | null;
  scopes?: string[];
  extra?: Record<string, string>;
}

export class ConnectionStore {
  readonly #db: Db;
  readonly #box: SecretBox;
  readonly #now: () => Date;

  constructor(db: Db, box: SecretBox, now: () => Date) {
    this.#db = db;
    this.#box = box;
    this.#now = now;
  }

  seal(rowId: string, tokens: TokenSet): string {
    const stored: StoredTokens = {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken ?? null,
      expiresAt: tokens.expiresAt?.toISOString() ?? null,
      refreshExpiresAt: tokens.refreshExpiresAt?.toISOString() ?? null,
      ...(tokens.scopes ? { scopes: tokens.scopes } : {}),
      ...(tokens.extra ? { extra: tokens.extra } : {}),
    };
    return this.#box.seal(JSON.stringify(stored), `connection:${rowId}`);
  }

  tokens(row: ConnectionRow): TokenSet {
    const s = JSON.parse(this.#box.open(row.tokensEnc, `connection:${row.id}`)) as StoredTokens;
    return {
      accessToken: s.accessToken,
      refreshToken: s.refreshToken ?? null,
      expiresAt: s.expiresAt ? new Date(s.expiresAt) : null,
      refreshExpiresAt: s.refreshExpiresAt ? new Date(s.refreshExpiresAt) : null,
      ...(s.scopes ? { scopes: s.scopes } : {}),
      ...(s.extra ? { extra: s.extra } : {}),
    };
  }

  /** The workspace's connections, the read of every publish: prepared once (its SQL built once, planned once). */
  #listAll = lazy(() =>
    this.#db
      .select()
      .from(platformConnections)
      .where(eq(platformConnections.workspaceId, sql.placeholder('ws')))
      .orderBy(asc(platformConnections.createdAt))
      .prepare('herald_connections_list'),
  );

  async list(workspaceId: string, platform?: Platform, tx: Db = this.#db): Promise<ConnectionRow[]> {
    if (!platform && tx === this.#db) return this.#listAll().execute({ ws: workspaceId });
    return tx
      .select()
      .from(platformConnections)
      .where(
        platform
          ? and(eq(platformConnections.workspaceId, workspaceId), eq(platformConnections.platform, platform))
          : eq(platformConnections.workspaceId, workspaceId),
      )
      .orderBy(asc(platformConnections.createdAt));
  }

  /**
   * The connections of several workspaces in one read (the scheduling worker, once per claimed batch), each in list()
   * order.
   */
  async listMany(workspaceIds: string[]): Promise<Map<string, ConnectionRow[]>> {
    const out = new Map<string, ConnectionRow[]>(workspaceIds.map((id) => [id, []]));
    if (!workspaceIds.length) return out;
    const rows = await this.#db
      .select()
      .from(platformConnections)
      .where(inArray(platformConnections.workspaceId, workspaceIds))
      .orderBy(asc(platformConnections.createdAt));
    for (const r of rows) out.get(r.workspaceId)?.push(r);
    return out;
  }

  async byId(id: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.#db.select().from(platformConnections).where(eq(platformConnections.id, id));
    return row;
  }

  async count(workspaceId: string, tx: Db = this.#db): Promise<number> {
    const [r] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(platformConnections)
      .where(eq(platformConnections.workspaceId, workspaceId));
    return Number(r?.n ?? 0);
  }

  /** Inserts or updates (same workspace, network and account) in one statement; returns the row. */
  async upsert(
    workspaceId: string,
    platform: Platform,
    identity: AccountIdentity,
    tokens: TokenSet,
    tx: Db = this.#db,
  ): Promise<{ row: ConnectionRow; created: boolean }> {
    // The row and its account.connected event commit together.
    if (tx === this.#db)
      return this.#db.transaction((t) => this.upsert(workspaceId, platform, identity, tokens, t as unknown as Db));
    const out = await this.#upsert(workspaceId, platform, identity, tokens, tx);
    await recordEvent(
      tx,
      workspaceId,
      'account.connected',
      {
        platform,
        platform_user_id: identity.id,
        display_name: identity.name,
        reason: out.created ? null : 'reconnected',
        expires_at: tokens.expiresAt?.toISOString() ?? null,
      },
      { at: this.#now() },
    );
    return out;
  }

  async #upsert(
    workspaceId: string,
    platform: Platform,
    identity: AccountIdentity,
    tokens: TokenSet,
    tx: Db,
  ): Promise<{ row: ConnectionRow; created: boolean }> {
    const [existing] = await tx
      .select({ id: platformConnections.id, version: platformConnections.tokenVersion })
      .from(platformConnections)
      .where(
        and(
          eq(platformConnections.workspaceId, workspaceId),
          eq(platformConnections.platform, platform),
          eq(platformConnections.accountId, identity.id),
        ),
      );
    const id = existing?.id ?? crypto.randomUUID();
    const now = this.#now();
    const values = {
      displayName: identity.name,
      username: identity.username ?? null,
      avatarUrl: identity.avatarUrl ?? null,
      status: 'connected',
      statusReason: null,
      tokensEnc: this.seal(id, tokens),
      accessExpiresAt: tokens.expiresAt ?? null,
      refreshExpiresAt: tokens.refreshExpiresAt ?? null,
      scopes: tokens.scopes?.join(' ') ?? null,
      destinations: identity.destinations as Destination[],
      profile: identity.slice,
      profileFetchedAt: now,
      updatedAt: now,
    };
    if (existing) {
      const [row] = await tx
        .update(platformConnections)
        .set({ ...values, tokenVersion: existing.version + 1 })
        .where(eq(platformConnections.id, id))
        .returning();
      return { row: row!, created: false };
    }
    const [row] = await tx
      .insert(platformConnections)
      .values({ id, workspaceId, platform, accountId: identity.id, ...values })
      .returning();
    return { row: row!, created: true };
  }

  /** Writes refreshed tokens only if nobody else wrote since `version` (optimistic check). */
  async replaceTokens(row: ConnectionRow, tokens: TokenSet): Promise<ConnectionRow | undefined> {
    const now = this.#now();
    const [updated] = await this.#db
      .update(platformConnections)
      .set({
        tokensEnc: this.seal(row.id, tokens),
        tokenVersion: row.tokenVersion + 1,
        accessExpiresAt: tokens.expiresAt ?? null,
        refreshExpiresAt: tokens.refreshExpiresAt ?? null,
        status: 'connected',
        statusReason: null,
        lastRefreshedAt: now,
        updatedAt: now,
      })
      .where(and(eq(platformConnections.id, row.id), eq(platformConnections.tokenVersion, row.tokenVersion)))
      .returning();
    return updated;
  }

  /** Connected rows whose access token expires before `at` (for the background refresh sweep). */
  async expiringBefore(at: Date): Promise<ConnectionRow[]> {
    return this.#db
      .select()
      .from(platformConnections)
      .where(
        and(
          eq(platformConnections.status, 'connected'),
          sql`${platformConnections.accessExpiresAt} is not null`,
          sql`${platformConnections.accessExpiresAt} < ${at}`,
        ),
      );
  }

  /** A note on a connection that stays usable (e.g. "expires on …, reconnect before then"); null clears it. */
  async setStatusReason(id: string, reason: string | null): Promise<void> {
    await this.#db
      .update(platformConnections)
      .set({ statusReason: reason, updatedAt: this.#now() })
      .where(and(eq(platformConnections.id, id), eq(platformConnections.status, 'connected')));
  }

  /**
   * Notes on a usable connection that its account's state at the network stops publishing (see ACCOUNT_NOTE_PREFIX).
   */
  async noteAccountCondition(id: string, words: string): Promise<void> {
    await this.setStatusReason(id, `${ACCOUNT_NOTE_PREFIX}${words}`);
  }

  /** Clears a note left by noteAccountCondition, and only such a note (a token-expiry warning stays). */
  async clearAccountCondition(id: string): Promise<void> {
    await this.#db
      .update(platformConnections)
      .set({ statusReason: null, updatedAt: this.#now() })
      .where(
        and(
          eq(platformConnections.id, id),
          sql`starts_with(${platformConnections.statusReason}, ${ACCOUNT_NOTE_PREFIX})`,
        ),
      );
  }

  /**
   * The connection cannot be used until its owner reconnects; account.needs_reconnect the first time, in the same
   * statement.
   */
  async markNeedsReconnect(id: string, reason: string): Promise<void> {
    const now = this.#now();
    await this.#db.execute(sql`
      with before as (select id, status from platform_connections where id = ${id}::uuid for update),
      c as (
        update platform_connections pc set status = 'needs_reconnect', status_reason = ${reason},
          updated_at = ${now.toISOString()}::timestamptz
        from before where pc.id = before.id
        returning pc.*, before.status as prior_status
      ),
      ev as (${accountEvent('account.needs_reconnect', sql`(select * from c where prior_status <> 'needs_reconnect')`, sql`${reason}::text`, now)})
      select 1`);
  }

  /**
   * A usable connection whose token expires soon and cannot be renewed: the note on it, and — the first time this
   * note is set — account.token_expiring, in one statement.
   */
  async warnExpiring(id: string, reason: string): Promise<void> {
    const now = this.#now();
    await this.#db.execute(sql`
      with c as (
        update platform_connections set status_reason = ${reason}, updated_at = ${now.toISOString()}::timestamptz
        where id = ${id}::uuid and status = 'connected' and status_reason is distinct from ${reason}
        returning *
      ),
      ev as (${accountEvent('account.token_expiring', sql`c`, sql`${reason}::text`, now)})
      select 1`);
  }

  async saveProfile(id: string, identity: AccountIdentity): Promise<void> {
    await this.#db
      .update(platformConnections)
      .set({
        displayName: identity.name,
        username: identity.username ?? null,
        avatarUrl: identity.avatarUrl ?? null,
        destinations: identity.destinations,
        profile: identity.slice,
        profileFetchedAt: this.#now(),
        updatedAt: this.#now(),
      })
      .where(eq(platformConnections.id, id));
  }

  /** Deletes the network's connections of the workspace, each with its account.disconnected event, in one statement. */
  async delete(workspaceId: string, platform: Platform, reason = 'disconnected by the workspace'): Promise<number> {
    const now = this.#now();
    const res = await this.#db.execute(sql`
      with gone as (
        delete from platform_connections where workspace_id = ${workspaceId}::uuid and platform = ${platform}
        returning *
      ),
      ev as (${accountEvent('account.disconnected', sql`gone`, sql`${reason}::text`, now)})
      select id from gone`);
    return rowsOf(res).length;
  }

  async connectedByWorkspace(workspaceIds: string[]): Promise<Map<string, Set<Platform>>> {
    const out = new Map<string, Set<Platform>>();
    if (!workspaceIds.length) return out;
    const rows = await this.#db
      .select({ ws: platformConnections.workspaceId, platform: platformConnections.platform })
      .from(platformConnections)
      .where(
        and(sql`${platformConnections.workspaceId} in ${workspaceIds}`, eq(platformConnections.status, 'connected')),
      );
    for (const r of rows) {
      if (!out.has(r.ws)) out.set(r.ws, new Set());
      out.get(r.ws)!.add(r.platform as Platform);
    }
    return out;
  }
}
