// The adapter contract. An adapter is a stateless HTTP client of one network's real API: tokens come
// in per call, base URLs and app credentials come from its config block, and every failure is a
// PlatformError whose kind tells the caller what to do next.
import type { Logger } from 'pino';
import type { Platform } from './slugs.ts';
import type { PlatformHttp } from './http.ts';
import type { Engagement } from './engagement.ts';
import type { Publisher } from './publishing.ts';
import { cleanMessage } from './error-text.ts';

export type { Platform };

export type PlatformErrorKind =
  /** The access token expired: refresh, then retry once. */
  | 'auth_expired'
  /** The grant is gone (revoked, invalid refresh token): the user must reconnect. */
  | 'reauth_required'
  /** Throttled; `retryAfterSeconds` when the network said. */
  | 'rate_limited'
  /** The network refused the content or request as invalid; retrying the same request is pointless. */
  | 'invalid_content'
  /** Timeouts, 5xx, connection resets: may succeed later. */
  | 'transient'
  /** The network (or this account) cannot do this. */
  | 'unsupported'
  /** The object asked for does not exist. */
  | 'not_found'
  /** Missing permission for this operation (scope not granted, not a page admin). */
  | 'permission';

/** The longest PlatformError message, in characters. */
const MESSAGE_MAX = 600;

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly platform: Platform;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** The network's own error code, when it gave one (e.g. `ExpiredToken`, `190`). */
  readonly code: string | undefined;
  /**
   * A state of the account (a publishing gate, a restriction, a ban), not of this post or the grant: every post fails
   * until the owner acts at the network. Publishing notes it on the connection, which stays usable.
   */
  readonly accountCondition: boolean;

  constructor(
    platform: Platform,
    kind: PlatformErrorKind,
    message: string,
    opts: {
      status?: number;
      retryAfterSeconds?: number;
      code?: string;
      cause?: unknown;
      serverConfig?: boolean;
      accountCondition?: boolean;
    } = {},
  ) {
    // The message reaches API answers (connect and publishing results, profiles): always one clean line, long
    // enough for Herald's own explanations (a missing permission and what to do about it) to arrive whole; text a
    // network wrote is cut much shorter where it is read (safeText).
    super(cleanMessage(message, MESSAGE_MAX), opts.cause ? { cause: opts.cause } : undefined);
    this.name = 'PlatformError';
    this.platform = platform;
    this.kind = kind;
    this.status = opts.status;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.code = opts.code;
    this.accountCondition = opts.accountCondition === true;
    this.#serverConfig = opts.serverConfig === true;
  }

  readonly #serverConfig: boolean;

  /**
   * The network refused this server's own app credentials (OAuth `invalid_client`, Graph's 101 on a token call): a
   * configuration problem for the operator, not the user's grant, so no connection should be marked "needs reconnect".
   */
  get serverConfig(): boolean {
    return this.#serverConfig || this.code === 'invalid_client';
  }

  get retryable(): boolean {
    return this.kind === 'transient' || this.kind === 'rate_limited' || this.kind === 'auth_expired';
  }
}

/** Tokens as the network issued them. Stored encrypted as a whole; never logged or returned. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string | null;
  expiresAt?: Date | null;
  refreshExpiresAt?: Date | null;
  scopes?: string[];
  /** Network-specific secrets kept with the tokens (e.g. Facebook page tokens by page id, a PDS URL). */
  extra?: Record<string, string>;
}

/** Somewhere the account can post to, besides itself. */
export interface Destination {
  kind: 'page' | 'organization' | 'board' | 'channel' | 'business_account' | 'playlist';
  id: string;
  name: string;
  avatarUrl?: string | null;
  /** Extra public fields for the profile slice. */
  meta?: Record<string, unknown>;
}

export interface AccountIdentity {
  /** The network's id for the connected account (platform_user_id). */
  id: string;
  name: string;
  username?: string | null;
  avatarUrl?: string | null;
  destinations: Destination[];
  /** The slice served by GET /unified/user-profiles/ for this network (contract-gaps §5 field names). */
  slice: Record<string, unknown>;
}

export interface OAuth2Auth {
  kind: 'oauth2';
  /** Whether the network supports PKCE (S256); Herald then always uses it. */
  pkce: boolean;
  authorizeUrl(p: { state: string; redirectUri: string; codeChallenge?: string }): string;
  exchangeCode(p: { code: string; redirectUri: string; codeVerifier?: string }): Promise<TokenSet>;
  /** Absent when the network issues no refresh tokens: an expired token then needs a reconnect. */
  refresh?(tokens: TokenSet): Promise<TokenSet>;
  /**
   * Whether these tokens can be refreshed at all (absent: whenever `refresh` exists). False for a grant that came
   * without a refresh token (LinkedIn gives most apps none): its access token is used until it really expires, the
   * user is warned ahead, and only then does the connection need a reconnect.
   */
  canRefresh?(tokens: TokenSet): boolean;
  revoke?(tokens: TokenSet): Promise<void>;
}

export interface AppPasswordAuth {
  kind: 'app_password';
  /** Why a value cannot be one of the network's app passwords (its format), or null. */
  refusePassword?(appPassword: string): string | null;
  /** Why a session that logged in is refused anyway (e.g. it came from the account password), or null. */
  refuseSession?(tokens: TokenSet): string | null;
  login(p: { handle: string; appPassword: string }): Promise<TokenSet>;
  refresh(tokens: TokenSet): Promise<TokenSet>;
  revoke?(tokens: TokenSet): Promise<void>;
}

export interface TextLimit {
  max: number;
  /** How the network counts: UTF-16 code units, user-perceived characters, or UTF-8 bytes. */
  unit: 'utf16' | 'graphemes' | 'bytes';
  /** A UTF-8 size limit on top of the count (Bluesky: 300 graphemes and 3000 bytes). */
  maxBytes?: number;
}

/** What a network can do, as data (publishing validators read this). */
export interface Capabilities {
  postTypes: ('text' | 'image' | 'carousel' | 'video')[];
  text?: TextLimit;
  asyncProcessing: boolean;
}

export interface PlatformAppConfig {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  /** Base URLs by key; the adapter's defaults are the real network's. */
  urls: Record<string, string>;
  /** The OAuth scopes this install asks for instead of the adapter's default list (HERALD_<PLATFORM>_SCOPES). */
  scopes?: readonly string[] | undefined;
  /** What the operator declares about the app (HERALD_<PLATFORM>_<KEY>; e.g. TikTok's `audited`). */
  settings?: Readonly<Record<string, string>> | undefined;
}

export interface AdapterDeps {
  http: PlatformHttp;
  config: PlatformAppConfig;
  clock: () => Date;
  logger: Logger;
}

export interface PlatformAdapter {
  platform: Platform;
  displayName: string;
  capabilities: Capabilities;
  auth: OAuth2Auth | AppPasswordAuth;
  /** Whether this server has what the network needs to connect (app credentials). */
  configured: boolean;
  /** The connected account: identity, profile slice and destinations (pages, orgs, boards, channels). */
  fetchAccount(tokens: TokenSet): Promise<AccountIdentity>;
  /** Publishing (see publishing.ts); absent until the network's publishing flow is implemented. */
  publisher?: Publisher;
  /** The read side (see engagement.ts): recent posts and metrics, comments and replies, deletion. */
  engagement?: Engagement;
}

export type AdapterFactory = (deps: AdapterDeps) => PlatformAdapter;
