// Workspace API keys. Only a SHA-256 of the secret is stored; lookups are cached for at most a second
// (auth-cache.ts) so key-authenticated requests stay fast while a revoked key stops working everywhere within it.
import { createHash, randomBytes } from 'node:crypto';
import type { LRUCache } from 'lru-cache';
import { and, desc, eq, isNull } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { apiKeys, workspaces } from '../db/schema.ts';
import { AppError, notFound, validationField } from '../errors.ts';
import { authCache } from './auth-cache.ts';
import { parseScope, ScopeSyntaxError, type Scope } from './scopes.ts';

export const KEY_PREFIX = 'psk_live_';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export interface ResolvedKey {
  id: string;
  workspaceId: string;
  planId: string;
  scope: Scope;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function keyToWire(k: ApiKeyRow) {
  return {
    id: k.id,
    workspace_id: k.workspaceId,
    key_prefix: k.keyPrefix,
    name: k.name,
    scope: k.scope,
    created_at: k.createdAt.toISOString(),
    expires_at: k.expiresAt?.toISOString() ?? null,
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
  };
}

export class ApiKeyService {
  readonly #db: Db;
  readonly #now: () => Date;
  readonly #cache: LRUCache<string, { key: ResolvedKey | null }> | undefined;
  /** The registry's networks: what a scope may name. */
  readonly #slugs: readonly string[] | undefined;

  constructor(db: Db, cacheSeconds: number, now: () => Date, slugs?: readonly string[]) {
    this.#db = db;
    this.#slugs = slugs;
    this.#now = now;
    this.#cache = authCache(cacheSeconds * 1000, now);
  }

  async create(input: {
    workspaceId: string;
    name: string | null;
    scope: string;
    createdBy: string | null;
    expiresAt?: Date | null;
  }) {
    let scope: Scope;
    try {
      scope = parseScope(input.scope, this.#slugs);
    } catch (err) {
      if (err instanceof ScopeSyntaxError) throw validationField(['body', 'scope'], err.message);
      throw err;
    }
    if (input.expiresAt && input.expiresAt.getTime() <= this.#now().getTime()) {
      throw validationField(['body', 'expires_at'], 'expires_at must be in the future');
    }
    const secret = KEY_PREFIX + randomBytes(32).toString('base64url');
    const [row] = await this.#db
      .insert(apiKeys)
      .values({
        workspaceId: input.workspaceId,
        name: input.name,
        scope: scope.raw,
        keyPrefix: secret.slice(0, 8),
        keyHash: hashKey(secret),
        createdBy: input.createdBy,
        expiresAt: input.expiresAt ?? null,
      })
      .returning();
    return { row: row!, secret };
  }

  async list(workspaceId: string): Promise<ApiKeyRow[]> {
    return this.#db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.createdAt));
  }

  async revoke(workspaceId: string, keyId: string): Promise<void> {
    const [row] = await this.#db
      .update(apiKeys)
      .set({ revokedAt: this.#now() })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)))
      .returning({ hash: apiKeys.keyHash });
    if (!row) throw notFound('API key not found');
    this.#cache?.delete(row.hash);
  }

  /** Resolves a presented secret or throws the interface's 401 key errors. */
  async authenticate(secret: string): Promise<ResolvedKey> {
    const hash = hashKey(secret);
    const now = this.#now();
    let entry = this.#cache?.get(hash);
    if (!entry) {
      entry = { key: await this.#load(hash) };
      this.#cache?.set(hash, entry);
    }
    const key = entry.key;
    if (!key) throw new AppError('APIKEY_INVALID', { error: 'APIKEY_INVALID', message: 'Invalid API key.' });
    if (key.revokedAt)
      throw new AppError('APIKEY_REVOKED', { error: 'APIKEY_REVOKED', message: 'API key has been revoked.' });
    if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) {
      throw new AppError('APIKEY_EXPIRED', { error: 'APIKEY_EXPIRED', message: 'API key has expired.' });
    }
    return key;
  }

  async #load(hash: string): Promise<ResolvedKey | null> {
    const [row] = await this.#db
      .select({ key: apiKeys, planId: workspaces.planId })
      .from(apiKeys)
      .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
      .where(eq(apiKeys.keyHash, hash));
    if (!row) return null;
    return {
      id: row.key.id,
      workspaceId: row.key.workspaceId,
      planId: row.planId,
      scope: parseScope(row.key.scope, this.#slugs),
      expiresAt: row.key.expiresAt,
      revokedAt: row.key.revokedAt,
    };
  }

  /** Drops cached lookups, e.g. after a workspace's plan changed. */
  invalidate(): void {
    this.#cache?.clear();
  }
}
