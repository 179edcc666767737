// oidc-provider's storage adapter over Drizzle (table oauth_entities, src/db/schema-oauth.ts).
// Bearer values — authorization codes, refresh tokens, session and interaction ids, registration access
// tokens — are stored under the SHA-256 of the value, and the value itself is removed from the payload
// (it is put back from the id the provider looks up with), so the table never holds one that works.
// Clients and grants keep their ids: a client id is public and grant ids are what revocation names.
import { createHash } from 'node:crypto';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { and, eq, lt } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { oauthEntities } from '../db/schema-oauth.ts';

const PLAIN_IDS = new Set(['Client', 'Grant']);
// A browser session is also found by its uid (findByUid), which must give its id back: its payload keeps it.
const KEEP_ID = new Set(['Session']);

export const sha256 = (v: string) => createHash('sha256').update(v).digest('base64url');

export interface AdapterDeps {
  db: Db;
  now: () => Date;
  /** Called on every write: the service drops expired rows from time to time. */
  wrote?: () => void;
  /**
   * How long a registered client is kept until it completes an authorization (registration.ts, keepClient).
   * A client saved again keeps the expiry it has.
   */
  clientTtlSeconds?: number;
}

export class DrizzleAdapter implements Adapter {
  readonly #model: string;
  readonly #db: Db;
  readonly #now: () => Date;
  readonly #hashed: boolean;
  readonly #wrote: (() => void) | undefined;
  readonly #clientTtl: number | undefined;

  constructor(model: string, deps: AdapterDeps) {
    this.#model = model;
    this.#db = deps.db;
    this.#now = deps.now;
    this.#hashed = !PLAIN_IDS.has(model);
    this.#wrote = deps.wrote;
    this.#clientTtl = this.#model === 'Client' ? deps.clientTtlSeconds : undefined;
  }

  #key(id: string): string {
    return this.#hashed ? sha256(id) : id;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const stored: Record<string, unknown> = { ...payload };
    if (this.#hashed && !KEEP_ID.has(this.#model) && stored.jti === id) delete stored.jti;
    const ttl = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : this.#clientTtl;
    const expiresAt = ttl ? new Date(this.#now().getTime() + ttl * 1000) : null;
    const row = {
      model: this.#model,
      id: this.#key(id),
      payload: stored,
      grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      expiresAt,
      consumedAt: null,
    };
    await this.#db
      .insert(oauthEntities)
      .values(row)
      .onConflictDoUpdate({
        target: [oauthEntities.model, oauthEntities.id],
        set: {
          payload: row.payload,
          grantId: row.grantId,
          uid: row.uid,
          consumedAt: null,
          ...(this.#clientTtl ? {} : { expiresAt }),
        },
      });
    this.#wrote?.();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const [row] = await this.#db
      .select()
      .from(oauthEntities)
      .where(and(eq(oauthEntities.model, this.#model), eq(oauthEntities.id, this.#key(id))));
    return this.#payload(row, id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const [row] = await this.#db
      .select()
      .from(oauthEntities)
      .where(and(eq(oauthEntities.model, this.#model), eq(oauthEntities.uid, uid)));
    // A session found by uid: its id (the cookie value) is not recoverable from a hash, and the provider
    // only uses this lookup for sessions it then re-saves under the id it already holds.
    return row ? this.#payload(row, typeof row.payload.jti === 'string' ? row.payload.jti : undefined) : undefined;
  }

  async findByUserCode(): Promise<AdapterPayload | undefined> {
    return undefined; // the device flow is not enabled
  }

  async consume(id: string): Promise<void> {
    await this.#db
      .update(oauthEntities)
      .set({ consumedAt: this.#now() })
      .where(and(eq(oauthEntities.model, this.#model), eq(oauthEntities.id, this.#key(id))));
  }

  async destroy(id: string): Promise<void> {
    await this.#db
      .delete(oauthEntities)
      .where(and(eq(oauthEntities.model, this.#model), eq(oauthEntities.id, this.#key(id))));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#db
      .delete(oauthEntities)
      .where(and(eq(oauthEntities.model, this.#model), eq(oauthEntities.grantId, grantId)));
  }

  #payload(row: typeof oauthEntities.$inferSelect | undefined, id: string | undefined): AdapterPayload | undefined {
    if (!row) return undefined;
    if (row.expiresAt && row.expiresAt.getTime() <= this.#now().getTime()) return undefined;
    const payload: AdapterPayload = { ...(row.payload as AdapterPayload) };
    if (this.#hashed && id !== undefined && payload.jti === undefined) payload.jti = id;
    if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
    return payload;
  }
}

/** Drops entities past their expiry (called now and then by the OAuth service). */
export async function sweepExpired(db: Db, now: Date): Promise<void> {
  await db.delete(oauthEntities).where(lt(oauthEntities.expiresAt, now));
}
