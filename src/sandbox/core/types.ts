// Shared record shapes of the sandbox. Everything is plain JSON-able data so `GET /_state` can dump it as is.

// The networks simulated are the simulators' (simulators.ts, keyed by the registry's slugs): the store holds their
// slugs and the control routes validate against it. This type names the built-in slugs, for typing only.
import type { Platform } from '../../platforms/slugs.ts';

export type { Platform };
export type OAuthPlatform = Exclude<Platform, 'bluesky'>;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A page, organization, board, channel, playlist or linked business account owned by an account. */
export interface AssetRecord {
  type: string;
  id: string;
  name: string;
  parentId?: string;
  fields: JsonObject;
}

export interface AccountRecord {
  id: string;
  /** The sandbox user this account belongs to (X-Sandbox-User header or consent form; default "sandbox-user"). */
  userKey: string;
  username: string;
  name: string;
  email: string;
  avatarUrl: string;
  createdAt: string;
  fields: JsonObject;
  assets: AssetRecord[];
}

/**
 * One user consent for one client; every code and token issued from it points back here, so revoking it kills them all.
 */
export interface GrantRecord {
  id: string;
  clientId: string;
  accountId: string;
  scopes: string[];
  createdAt: number;
  revokedAt: number | null;
  /** Whether a refresh token was issued under this grant (Google only sends one on the first offline consent). */
  refreshIssued: boolean;
}

export interface PendingAuthorization {
  id: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  extras: Record<string, string>;
  createdAt: number;
}

export interface CodeRecord {
  code: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  accountId: string;
  grantId: string;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  extras: Record<string, string>;
  issuedAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export interface TokenRecord {
  token: string;
  /** Platform-specific kind: access, refresh, short, long, page, session_access, session_refresh … */
  kind: string;
  clientId: string | null;
  accountId: string;
  grantId: string;
  scopes: string[];
  issuedAt: number;
  /** Epoch ms; null = never expires (e.g. a Facebook page token minted from a long-lived user token). */
  expiresAt: number | null;
  revokedAt: number | null;
  /** Set when a rotating refresh replaced this token. */
  rotatedAt: number | null;
  replacedBy: string | null;
  /** The page/asset a page-scoped token acts as. */
  assetId: string | null;
}

export interface RequestRecord {
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
  status: number;
  at: string;
  durationMs: number;
  response: unknown;
}

/** Posts, media, containers and uploads added by publishing simulators: free-form, but always carry these keys. */
export type ObjectRecord = JsonObject & { id: string; accountId: string; createdAt: string };

export const FAULT_KINDS = ['rate_limit', 'server_error', 'expire_token', 'revoke', 'timeout', 'error'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRecord {
  id: string;
  platform: Platform;
  operation: string;
  fault: FaultKind;
  /** For `error`: the name of the network's documented error (see documented.ts). */
  error?: string;
  remaining: number;
  holdMs: number;
  createdAt: string;
}
