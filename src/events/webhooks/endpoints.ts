// A workspace's webhook endpoints: URL (checked against the outbound address policy when saved, and again at every
// delivery), description, the event types it receives, enabled or not, and its signing secret, shown once and kept
// sealed (AES-256-GCM, bound to the row) so Herald can sign with it. Rotating keeps the old secret signing beside
// the new one for a day, so receivers can switch without losing a delivery.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { and, desc, eq, inArray, sql } from '../../db/orm.ts';
import { webhookEndpoints } from '../../db/schema-webhooks.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Clock } from '../../clock.ts';
import type { Scope } from '../../auth/scopes.ts';
import { AppError, validationField } from '../../errors.ts';
import type { OutboundPolicy } from '../../net/outbound-policy.ts';
import { UrlRefusedError } from '../../net/outbound-policy.ts';
import { newSigningSecret } from './signing.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** How long the secret before a rotation keeps signing. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export interface EndpointInput {
  url: string;
  description?: string | undefined;
  event_types?: string[] | undefined;
  enabled?: boolean | undefined;
}

/** The wire shape of an endpoint (never its secret). */
export interface EndpointView {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  scope: string;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export function endpointView(r: EndpointRow, now: Date): EndpointView {
  const overlap = r.previousSecretExpiresAt && r.previousSecretExpiresAt > now ? r.previousSecretExpiresAt : null;
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    event_types: r.eventTypes,
    enabled: r.enabled,
    disabled_reason: r.disabledReason,
    scope: r.scope || 'full',
    previous_secret_expires_at: overlap?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** The networks a principal's scope stands for, as stored on an endpoint ('' = every network). */
export function scopeKey(scope: Scope): string {
  return scope.full ? '' : [...scope.platforms].sort().join(',');
}

/**
 * Whether an endpoint of `stored` scope is the caller's to see: full callers see all, scoped ones their own networks'.
 */
function visibleTo(scope: Scope, stored: string): boolean {
  if (scope.full) return true;
  if (stored === '') return false;
  return stored.split(',').every((p) => scope.platforms.has(p as never));
}

export interface EndpointsDeps {
  db: Db;
  box: SecretBox;
  clock: Clock;
  policy: OutboundPolicy;
  /** The event types an endpoint may subscribe to. */
  eventTypes: readonly string[];
}

/**
 * How long the worker reuses an endpoint's row; a change made here is seen at once, one from another process within
 * this.
 */
const CACHE_MS = 1000;

export class WebhookEndpoints {
  readonly #d: EndpointsDeps;
  readonly #cache = new Map<string, { row: EndpointRow | undefined; at: number }>();

  constructor(deps: EndpointsDeps) {
    this.#d = deps;
  }

  get eventTypes(): readonly string[] {
    return this.#d.eventTypes;
  }

  /** The URL as the policy allows it now: https (or a host the operator trusts), no credentials, public addresses. */
  async #checkUrl(raw: string): Promise<string> {
    const loc = ['body', 'url'];
    try {
      const url = this.#d.policy.checkUrl(raw);
      const host = url.hostname;
      await this.#d.policy.resolve(host, !this.#d.policy.trusted(url));
      return url.href;
    } catch (err) {
      if (err instanceof UrlRefusedError) throw validationField(loc, `The endpoint URL is refused: ${err.message}`);
      throw err;
    }
  }

  #checkTypes(types: string[] | undefined): string[] {
    const list = [...new Set(types ?? [])];
    const unknown = list.filter((t) => !this.#d.eventTypes.includes(t));
    if (unknown.length)
      throw validationField(
        ['body', 'event_types'],
        `Unknown event type(s): ${unknown.join(', ')}. Known: ${this.#d.eventTypes.join(', ')}`,
      );
    return list.sort();
  }

  async create(
    workspaceId: string,
    scope: Scope,
    createdBy: string | null,
    input: EndpointInput,
  ): Promise<{ endpoint: EndpointRow; secret: string }> {
    const url = await this.#checkUrl(input.url);
    const eventTypes = this.#checkTypes(input.event_types);
    const id = randomUUID();
    const secret = newSigningSecret();
    const now = this.#d.clock();
    const [row] = await this.#d.db
      .insert(webhookEndpoints)
      .values({
        id,
        workspaceId,
        url,
        description: input.description ?? '',
        eventTypes,
        enabled: input.enabled ?? true,
        scope: scopeKey(scope),
        secret: this.#d.box.seal(secret, aad(id)),
        createdBy,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { endpoint: row!, secret };
  }

  async list(workspaceId: string, scope: Scope): Promise<EndpointRow[]> {
    const rows = await this.#d.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.workspaceId, workspaceId))
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
    return rows.filter((r) => visibleTo(scope, r.scope));
  }

  /** One endpoint of the workspace that the caller may see; 404 otherwise (another workspace's id included). */
  async get(workspaceId: string, scope: Scope, id: string): Promise<EndpointRow> {
    const [row] = await this.#d.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)));
    if (!row || !visibleTo(scope, row.scope)) throw new AppError('not_found', 'Webhook endpoint not found');
    return row;
  }

  async update(workspaceId: string, scope: Scope, id: string, patch: Partial<EndpointInput>): Promise<EndpointRow> {
    await this.get(workspaceId, scope, id);
    const set: Partial<typeof webhookEndpoints.$inferInsert> = { updatedAt: this.#d.clock() };
    if (patch.url !== undefined) set.url = await this.#checkUrl(patch.url);
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.event_types !== undefined) set.eventTypes = this.#checkTypes(patch.event_types);
    if (patch.enabled !== undefined) {
      set.enabled = patch.enabled;
      // Enabled again by a person: the failure streak that disabled it starts over.
      set.disabledReason = null;
      if (patch.enabled) set.failingSince = null;
    }
    const [row] = await this.#d.db
      .update(webhookEndpoints)
      .set(set)
      .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)))
      .returning();
    this.#cache.delete(id);
    return row!;
  }

  async remove(workspaceId: string, scope: Scope, id: string): Promise<void> {
    await this.get(workspaceId, scope, id);
    await this.#d.db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)));
    this.#cache.delete(id);
  }

  /** A new secret; the current one keeps signing beside it for a day. Returns the new one (shown once). */
  async rotate(workspaceId: string, scope: Scope, id: string): Promise<{ endpoint: EndpointRow; secret: string }> {
    const current = await this.get(workspaceId, scope, id);
    const secret = newSigningSecret();
    const now = this.#d.clock();
    const [row] = await this.#d.db
      .update(webhookEndpoints)
      .set({
        secret: this.#d.box.seal(secret, aad(id)),
        previousSecret: current.secret,
        previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
        updatedAt: now,
      })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.secret, current.secret)))
      .returning();
    this.#cache.delete(id);
    if (!row) throw new AppError('conflict', 'The secret was rotated meanwhile; try again');
    return { endpoint: row, secret };
  }

  /** The secrets that sign a delivery now: the current one, and the previous one during its overlap. */
  secretsOf(row: EndpointRow, now: Date): string[] {
    const out = [this.#d.box.open(row.secret, aad(row.id))];
    if (row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now)
      out.push(this.#d.box.open(row.previousSecret, aad(row.id)));
    return out;
  }

  /** Enabled endpoints of these workspaces (the dispatcher's fan-out). */
  async enabledIn(db: Db, workspaceIds: readonly string[]): Promise<EndpointRow[]> {
    if (!workspaceIds.length) return [];
    return db
      .select()
      .from(webhookEndpoints)
      .where(and(inArray(webhookEndpoints.workspaceId, [...workspaceIds]), eq(webhookEndpoints.enabled, true)));
  }

  /** The endpoint's row as the worker sends with it, read again after a second or after any change made here. */
  async cached(id: string): Promise<EndpointRow | undefined> {
    const hit = this.#cache.get(id);
    if (hit && performance.now() - hit.at < CACHE_MS) return hit.row;
    const row = await this.byId(id);
    if (this.#cache.size > 1000) this.#cache.clear();
    this.#cache.set(id, { row, at: performance.now() });
    return row;
  }

  async byId(id: string): Promise<EndpointRow | undefined> {
    const [row] = await this.#d.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return row;
  }

  /** Turns an endpoint off on Herald's own account (410 Gone, failing for days); false if it already was off. */
  async disable(tx: Db, id: string, reason: string): Promise<boolean> {
    const rows = await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: reason, updatedAt: this.#d.clock() })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, true)))
      .returning({ id: webhookEndpoints.id });
    this.#cache.delete(id);
    return rows.length > 0;
  }

  /** After a failed attempt: starts a failure streak if none is running. Returns its start. */
  async noteFailure(tx: Db, id: string, at: Date): Promise<Date | null> {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)` })
      .where(eq(webhookEndpoints.id, id))
      .returning({ failingSince: webhookEndpoints.failingSince });
    this.#cache.delete(id);
    return row?.failingSince ?? null;
  }
}

const aad = (id: string) => `webhook-endpoint:${id}`;

/** Whether an endpoint receives this event: its types (none = all), its networks, and created before the event. */
export function wants(e: EndpointRow, event: { type: string; network: string | null; occurredAt: Date }): boolean {
  if (e.eventTypes.length && !e.eventTypes.includes(event.type)) return false;
  if (e.scope !== '' && (event.network === null || !e.scope.split(',').includes(event.network))) return false;
  return e.createdAt.getTime() <= event.occurredAt.getTime();
}
