// The OAuth authorization server's settings: registered clients, registration, token lifetimes, limits (docs/mcp.md).
import { z } from 'zod';
import { ConfigError, optionalString } from './env.ts';

export const oauthEnvSchema = z.object({
  HERALD_OAUTH_CLIENTS: optionalString,
  HERALD_OAUTH_REGISTRATION: z.enum(['open', 'closed']).default('open'),
  HERALD_OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(24 * 3600)
    .default(3600),
  HERALD_OAUTH_REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .max(365 * 24 * 3600)
    .default(30 * 24 * 3600),
  HERALD_OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(10),
  HERALD_OAUTH_PENDING_CLIENTS_MAX: z.coerce.number().int().min(1).max(1_000_000).default(1000),
});

/** An OAuth client the operator registered (GPT Actions asks for a client id and secret). */
export interface OAuthStaticClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  client_name?: string | undefined;
  /**
   * How the client sends its secret to the token endpoint: in the POST body (GPT Actions' default) or a Basic header.
   */
  token_endpoint_auth_method: 'client_secret_post' | 'client_secret_basic';
}

/** The OAuth authorization server for chat connectors (docs/mcp.md, src/oauth/). */
export interface OAuthConfig {
  clients: OAuthStaticClient[];
  /** Dynamic client registration (RFC 7591) at /auth/oauth/register. */
  registration: 'open' | 'closed';
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Registrations one client address (IPv6: its /64) may make in an hour. */
  registrationsPerAddressPerHour: number;
  /** Registered clients that have not completed an authorization yet, at most, across the instance. */
  pendingClientsMax: number;
}

const oauthClientsSchema = z.array(
  z.strictObject({
    client_id: z.string().regex(/^[A-Za-z0-9._~-]{3,100}$/, 'client_id: 3–100 characters of A–Z a–z 0–9 . _ ~ -'),
    client_secret: z.string().min(32, 'client_secret must be at least 32 characters').max(200),
    redirect_uris: z.array(z.url()).min(1).max(20),
    client_name: z.string().min(1).max(100).optional(),
    token_endpoint_auth_method: z.enum(['client_secret_post', 'client_secret_basic']).default('client_secret_post'),
  }),
);

function oauthClients(raw: string | undefined): OAuthStaticClient[] {
  if (!raw) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ConfigError(
      'Invalid configuration:\n  HERALD_OAUTH_CLIENTS: must be a JSON array of {client_id, client_secret, redirect_uris, client_name?}',
    );
  }
  const parsed = oauthClientsSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid configuration:\n  HERALD_OAUTH_CLIENTS: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const ids = parsed.data.map((c) => c.client_id);
  if (new Set(ids).size !== ids.length)
    throw new ConfigError('Invalid configuration:\n  HERALD_OAUTH_CLIENTS: client_id values must be unique');
  return parsed.data;
}

export function toOAuthConfig(e: z.infer<typeof oauthEnvSchema>): OAuthConfig {
  return {
    clients: oauthClients(e.HERALD_OAUTH_CLIENTS),
    registration: e.HERALD_OAUTH_REGISTRATION,
    accessTokenTtlSeconds: e.HERALD_OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.HERALD_OAUTH_REFRESH_TOKEN_TTL_SECONDS,
    registrationsPerAddressPerHour: e.HERALD_OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR,
    pendingClientsMax: e.HERALD_OAUTH_PENDING_CLIENTS_MAX,
  };
}
