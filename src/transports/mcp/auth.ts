// Who calls an MCP endpoint (contract-gaps §8, interface "Authentication" 6).
// - /mcp (CLI clients and agents): an API key as X-API-Key, Authorization: Bearer psk_live_… or ?apikey=. Every
//   failure is reported in-band, as the text of the tool result, in the documented wording.
// - /web/mcp (chat connectors such as Claude and ChatGPT): an OAuth access token of Herald's authorization server
//   (Authorization: Bearer), or a key as ?api-key=, ?apikey= or ?api_key= (connectors cannot send headers). A request
//   with no credential, or with an OAuth token that is not valid for this server, is HTTP 401 with
//   `WWW-Authenticate: Bearer resource_metadata="…"`, so the client starts the OAuth flow by itself.
import { KEY_PREFIX } from '../../auth/api-keys.ts';
import type { Principal } from '../../auth/authenticate.ts';
import { looksLikeJwt } from '../../auth/jwt.ts';
import { fullScope } from '../../auth/scopes.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';

export type McpEndpoint = 'cli' | 'web';

/** The documented in-band wording. */
export const MCP_KEY_REQUIRED = 'API key required';
export const MCP_KEY_INVALID = 'Invalid or expired API key';
export const planUpgrade = (feature: string) => `Plan upgrade required for: ${feature}`;

/** What an MCP request carries: the caller, or the reason (in-band text) it has none. */
export type McpAuth =
  | { ok: true; principal: Principal; oauthGrantId: string | null }
  | { ok: false; message: string };

/**
 * The OAuth side the OAuth authorization server puts on AppContext as `oauth` (src/oauth/): checks an access token's
 * signature, expiry, revocation and audience (`resource`, RFC 8707). Optional: without it, /web/mcp takes keys only.
 */
export interface OAuthTokenVerifier {
  verifyAccessToken(token: string, resource: string): Promise<{ workspaceId: string; userId: string; clientId: string; grantId: string } | null>;
}

const oauthOf = (ctx: AppContext): OAuthTokenVerifier | undefined => (ctx as AppContext & { oauth?: OAuthTokenVerifier | undefined }).oauth;

/** The protected-resource metadata a 401 on /web/mcp points at (RFC 9728), published by the OAuth server. */
export const resourceMetadataUrl = (ctx: AppContext) => `${ctx.config.publicUrl}/.well-known/oauth-protected-resource`;

/** The resource (audience) Herald's OAuth access tokens are issued for: the service's public origin. */
export const oauthResource = (ctx: AppContext) => ctx.config.publicUrl;

type Headers = Record<string, string | string[] | undefined>;
type Query = Record<string, unknown> | undefined;

const first = (v: unknown): string | undefined => {
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined;
};

const bearerOf = (headers: Headers): string | undefined => {
  const auth = first(headers.authorization);
  const m = auth ? /^Bearer\s+(.+)$/i.exec(auth) : null;
  return m?.[1]?.trim() || undefined;
};

function unauthorizedWeb(ctx: AppContext, error?: 'invalid_token'): AppError {
  const challenge = `Bearer resource_metadata="${resourceMetadataUrl(ctx)}"${error ? `, error="${error}", error_description="The access token is invalid, expired or revoked"` : ''}`;
  return new AppError('unauthorized', error ? 'Invalid or expired access token.' : 'Not authenticated', { headers: { 'www-authenticate': challenge } });
}

/** An API key's principal, or the in-band reason it has none. */
async function byKey(ctx: AppContext, key: string): Promise<McpAuth> {
  // A user session is not an MCP credential: it needs a workspace header no MCP client sends.
  if (looksLikeJwt(key)) return { ok: false, message: MCP_KEY_INVALID };
  try {
    return { ok: true, principal: await ctx.auth.workspace({ token: key, workspaceHeader: undefined }), oauthGrantId: null };
  } catch (err) {
    return { ok: false, message: inBandAuthError(err) };
  }
}

function inBandAuthError(err: unknown): string {
  if (err instanceof AppError) {
    if (err.code === 'plan_required' && typeof err.detail === 'object' && !Array.isArray(err.detail)) return planUpgrade(String(err.detail.feature));
    if (err.status === 401) return MCP_KEY_INVALID;
  }
  throw err;
}

/** The OAuth access token's principal: the user, as a member of the token's workspace. Null when not valid here. */
async function byOAuth(ctx: AppContext, oauth: OAuthTokenVerifier, token: string): Promise<McpAuth | null> {
  const grant = await oauth.verifyAccessToken(token, oauthResource(ctx));
  if (!grant) return null;
  const [m, user] = await Promise.all([ctx.workspaces.membership(grant.workspaceId, grant.userId), ctx.accounts.byId(grant.userId)]);
  // The user left the workspace (or was deleted) since the grant: the token no longer speaks for anyone.
  if (!m || !user) return null;
  const principal: Principal = {
    kind: 'jwt',
    user,
    workspaceId: m.ws.id,
    planId: m.ws.planId,
    role: m.role,
    scope: fullScope(ctx.platforms.slugs),
    keyId: null,
  };
  return { ok: true, principal, oauthGrantId: grant.grantId };
}

/**
 * Resolves the caller of one HTTP request to an MCP endpoint. Throws only what is transport-level: /web/mcp's 401
 * challenge. Everything else comes back as `{ok: false, message}` for the tool result.
 */
export async function authenticateMcp(ctx: AppContext, endpoint: McpEndpoint, headers: Headers, query: Query): Promise<McpAuth> {
  if (endpoint === 'cli') {
    const key = first(headers['x-api-key']) ?? bearerOf(headers) ?? first(query?.apikey);
    return key ? byKey(ctx, key) : { ok: false, message: MCP_KEY_REQUIRED };
  }
  const bearer = bearerOf(headers);
  // A key sent as a bearer token is taken as on /mcp (a connector that can send headers).
  if (bearer?.startsWith(KEY_PREFIX)) return byKey(ctx, bearer);
  if (bearer) {
    const oauth = oauthOf(ctx);
    const viaOAuth = oauth && looksLikeJwt(bearer) ? await byOAuth(ctx, oauth, bearer) : null;
    if (viaOAuth) return viaOAuth;
    throw unauthorizedWeb(ctx, 'invalid_token');
  }
  const key = first(query?.['api-key']) ?? first(query?.apikey) ?? first(query?.api_key);
  if (key) return byKey(ctx, key);
  throw unauthorizedWeb(ctx);
}
