// Reading and writing connections. Tokens are sealed with the row id as associated data.
import type { Db } from '../db/client.ts';
import { and, asc, eq, inArray, sql } from '../db/orm.ts';
import { platformConnections } from '../db/schema-connections.ts';
import type { SecretBox } from '../crypto.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { AccountIdentity, Destination, TokenSet } from '../platforms/types.ts';

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

  async list(workspaceId: string, platform?: Platform, tx: Db = this.#db): Promise<ConnectionRow[]> {
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

  /** The connections of several workspaces in one read (the scheduling worker, once per claimed batch), each in list() order. */
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

  /** Notes on a usable connection that its account's state at the network stops publishing (see ACCOUNT_NOTE_PREFIX). */
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

  async markNeedsReconnect(id: string, reason: string): Promise<void> {
    await this.#db
      .update(platformConnections)
      .set({ status: 'needs_reconnect', statusReason: reason, updatedAt: this.#now() })
      .where(eq(platformConnections.id, id));
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

  async delete(workspaceId: string, platform: Platform): Promise<number> {
    const rows = await this.#db
      .delete(platformConnections)
      .where(and(eq(platformConnections.workspaceId, workspaceId), eq(platformConnections.platform, platform)))
      .returning({ id: platformConnections.id });
    return rows.length;
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
