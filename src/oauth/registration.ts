// Dynamic client registration (RFC 7591), bounded: what a client may ask for (client authentication
// methods, redirect URIs, the size of its metadata), how many registrations one address and the whole
// instance may make, and how long a client that never completed an authorization is kept.
import { createHmac, randomUUID } from 'node:crypto';
import type { errors as OidcErrors, KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import { and, asc, count, eq, gt, isNotNull, sql } from '../db/orm.ts';
import { oauthEntities } from '../db/schema-oauth.ts';

/** A registered client that has not completed an authorization (a code exchanged) within this time is removed. */
export const PENDING_CLIENT_TTL_SECONDS = 24 * 3600;

/**
 * The client authentication methods Herald serves: public clients with PKCE, and a secret in the body or a Basic
 * header.
 */
export const CLIENT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;

export const METADATA_LIMITS = {
  redirectUris: 10,
  uriLength: 1000,
  clientName: 200,
  contacts: 5,
  contactLength: 254,
  /** The whole registration request, as JSON. */
  totalLength: 16 * 1024,
} as const;

/** The name under which the check is hooked into the provider's client metadata (never stored). */
export const POLICY_PROPERTY = 'herald_registration_policy';

const URI_FIELDS = ['client_uri', 'logo_uri', 'policy_uri', 'tos_uri', 'initiate_login_uri'] as const;
/**
 * Metadata that makes the provider fetch or use a client's keys: Herald authenticates clients by secret or PKCE only.
 */
const REFUSED_FIELDS = ['jwks_uri', 'jwks', 'sector_identifier_uri', 'request_uris'] as const;

/** Plain http is for loopback redirect URIs only (OAuth 2.1, RFC 8252 §7.3; the MCP authorization spec). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * The provider's `extraClientMetadata.validator`: runs on the metadata of every registration before the provider's own
 * checks, and throws the RFC 7591 error a client can act on (the provider answers a description about redirect_uris as
 * `invalid_redirect_uri`, any other as `invalid_client_metadata`). Operator-configured clients (HERALD_OAUTH_CLIENTS)
 * are checked at start-up instead (config.ts).
 */
export function registrationPolicy(errors: typeof OidcErrors) {
  const invalid = (msg: string) => new errors.InvalidClientMetadata(msg);
  return (
    ctx: KoaContextWithOIDC | undefined,
    key: string,
    _value: unknown,
    metadata: Record<string, unknown>,
  ): void => {
    if (key !== POLICY_PROPERTY) return;
    metadata[POLICY_PROPERTY] = undefined;
    if (ctx?.oidc?.route !== 'registration') return;
    if (JSON.stringify(metadata).length > METADATA_LIMITS.totalLength)
      throw invalid(`client metadata must not exceed ${METADATA_LIMITS.totalLength} characters of JSON`);
    for (const field of REFUSED_FIELDS) {
      if (metadata[field] !== undefined)
        throw invalid(
          `${field} is not supported: Herald authenticates clients with PKCE (token_endpoint_auth_method none) or a client secret, never with client keys`,
        );
    }
    const method = metadata.token_endpoint_auth_method;
    if (method !== undefined && !(CLIENT_AUTH_METHODS as readonly unknown[]).includes(method)) {
      throw invalid(`token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(', ')}`);
    }
    const uris = metadata.redirect_uris;
    if (Array.isArray(uris)) {
      if (uris.length > METADATA_LIMITS.redirectUris)
        throw invalid(`redirect_uris must have at most ${METADATA_LIMITS.redirectUris} entries`);
      for (const uri of uris) {
        if (typeof uri !== 'string') continue; // the provider's own check names it
        if (uri.length > METADATA_LIMITS.uriLength)
          throw invalid(`redirect_uris entries must be at most ${METADATA_LIMITS.uriLength} characters`);
        let url: URL;
        try {
          url = new URL(uri);
        } catch {
          continue;
        }
        if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
          throw invalid(
            'redirect_uris must use https; plain http is allowed only on a loopback host (localhost, 127.0.0.1, [::1])',
          );
        }
      }
    }
    const name = metadata.client_name;
    if (typeof name === 'string' && name.length > METADATA_LIMITS.clientName)
      throw invalid(`client_name must be at most ${METADATA_LIMITS.clientName} characters`);
    for (const field of URI_FIELDS) {
      const v = metadata[field];
      if (typeof v === 'string' && v.length > METADATA_LIMITS.uriLength)
        throw invalid(`${field} must be at most ${METADATA_LIMITS.uriLength} characters`);
    }
    const contacts = metadata.contacts;
    if (Array.isArray(contacts)) {
      if (contacts.length > METADATA_LIMITS.contacts)
        throw invalid(`contacts must have at most ${METADATA_LIMITS.contacts} entries`);
      if (contacts.some((c) => typeof c === 'string' && c.length > METADATA_LIMITS.contactLength))
        throw invalid(`contacts entries must be at most ${METADATA_LIMITS.contactLength} characters`);
    }
  };
}

export interface RegistrationLimitsDeps {
  db: Db;
  clock: () => Date;
  /** Keys the address hash: the table never holds a client address. */
  key: Buffer;
  perAddressPerHour: number;
  pendingMax: number;
}

/** A registration Herald refuses for now, and how long until it would not. */
export interface RegistrationRefusal {
  retryAfterSeconds: number;
  description: string;
}

const ATTEMPT_MODEL = 'RegistrationAttempt';
const HOUR_MS = 3600_000;

/**
 * The registration caps, kept in the database so every instance counts alike: a row per client an address
 * registered (under a keyed hash of the address, for an hour), and the clients still pending.
 */
export class RegistrationLimits {
  readonly #d: RegistrationLimitsDeps;
  /** The client address of a registration request being handled, by its raw request. */
  readonly addresses = new WeakMap<object, string>();

  constructor(deps: RegistrationLimitsDeps) {
    this.#d = deps;
  }

  /** Why a registration from `address` (IPv6 grouped by /64 by the caller) is refused now, or null. */
  async admit(address: string): Promise<RegistrationRefusal | null> {
    const { db, clock, perAddressPerHour, pendingMax } = this.#d;
    const now = clock();
    const hashed = this.#hash(address);
    const mine = and(
      eq(oauthEntities.model, ATTEMPT_MODEL),
      gt(oauthEntities.expiresAt, now),
      sql`${oauthEntities.payload}->>'address' = ${hashed}`,
    );
    const [byAddress] = await db
      .select({ n: count(), first: sql<string | null>`min(${oauthEntities.expiresAt})` })
      .from(oauthEntities)
      .where(mine);
    if ((byAddress?.n ?? 0) >= perAddressPerHour) {
      return {
        retryAfterSeconds: secondsUntil(byAddress?.first, now, 3600),
        description: `too many client registrations from this address (at most ${perAddressPerHour} an hour)`,
      };
    }
    const pending = and(
      eq(oauthEntities.model, 'Client'),
      isNotNull(oauthEntities.expiresAt),
      gt(oauthEntities.expiresAt, now),
    );
    const [open] = await db.select({ n: count() }).from(oauthEntities).where(pending);
    if ((open?.n ?? 0) >= pendingMax) {
      const [oldest] = await db
        .select({ at: oauthEntities.expiresAt })
        .from(oauthEntities)
        .where(pending)
        .orderBy(asc(oauthEntities.expiresAt))
        .limit(1);
      return {
        retryAfterSeconds: secondsUntil(oldest?.at, now, 3600),
        description: 'too many clients registered and not yet used on this server; try again later',
      };
    }
    return null;
  }

  /**
   * Counts a registration `address` made (only those that created a client: a refused request leaves no row, so
   * the rows are bounded by the clients). Requests running at the same moment may pass the cap by their number.
   */
  async record(address: string): Promise<void> {
    const expiresAt = new Date(this.#d.clock().getTime() + HOUR_MS);
    await this.#d.db
      .insert(oauthEntities)
      .values({ model: ATTEMPT_MODEL, id: randomUUID(), payload: { address: this.#hash(address) }, expiresAt });
  }

  #hash(address: string): string {
    return createHmac('sha256', this.#d.key).update(address).digest('base64url');
  }
}

function secondsUntil(at: Date | string | null | undefined, now: Date, fallback: number): number {
  if (!at) return fallback;
  return Math.max(1, Math.ceil((new Date(at).getTime() - now.getTime()) / 1000));
}

/** A client completed an authorization: it is kept from now on. */
export async function keepClient(db: Db, clientId: string): Promise<void> {
  await db
    .update(oauthEntities)
    .set({ expiresAt: null })
    .where(and(eq(oauthEntities.model, 'Client'), eq(oauthEntities.id, clientId), isNotNull(oauthEntities.expiresAt)));
}

/** Registration access tokens of clients that are gone (expired unused, swept). */
export async function sweepOrphanRegistrationTokens(db: Db): Promise<void> {
  await db
    .delete(oauthEntities)
    .where(
      and(
        eq(oauthEntities.model, 'RegistrationAccessToken'),
        sql`not exists (select 1 from oauth_entities c where c.model = 'Client' and c.id = oauth_entities.payload->>'clientId')`,
      ),
    );
}
