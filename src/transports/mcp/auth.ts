// Who calls an MCP endpoint (contract-gaps §8, interface "Authentication" 6).
// - /mcp (CLI clients and agents): an API key as X-API-Key, Authorization: Bearer psk_live_… or ?apikey=. Every
//   failure is reported in-band, as the text of the tool result, in the documented wording.
// - /web/mcp (chat connectors such as Claude and ChatGPT): an OAuth access token of Herald's authorization server
//   (Authorization: Bearer; src/oauth/, issued for this endpoint or for the whole API), or a key as ?api-key=, ?apikey=
//   or ?api_key= (connectors cannot send headers). A request with no credential, or with an OAuth token that is not
//   valid for this server, is HTTP 401 with `WWW-Authenticate: Bearer resource_metadata="…"`, so the client starts the
//   OAuth flow by itself.
import { KEY_PREFIX } from '../../auth/api-keys.ts';
import type { Principal } from '../../auth/authenticate.ts';
import { looksLikeJwt } from '../../auth/jwt.ts';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../errors.ts';
import { errorText } from '../../tools/errors.ts';

export type McpEndpoint = 'cli' | 'web';

/** The documented in-band wording. */
export const MCP_KEY_REQUIRED = 'API key required';
export const MCP_KEY_INVALID = 'Invalid or expired API key';

/** What an MCP request carries: the caller, or the reason (in-band text) it has none. */
export type McpAuth = { ok: true; principal: Principal; oauthGrantId: string | null } | { ok: false; message: string };

/**
 * The protected-resource metadata (RFC 9728) a 401 on /web/mcp points at: the MCP endpoint's own document, whose
 * `resource` is `{public URL}/web/mcp`, so a connector asks for a token for this endpoint only (src/oauth/routes.ts).
 */
export const resourceMetadataUrl = (ctx: AppContext) =>
  `${ctx.config.publicUrl}/.well-known/oauth-protected-resource/web/mcp`;

/** The audience an OAuth access token must cover to be taken on /web/mcp (a token for the API root covers it too). */
export const mcpResource = (ctx: AppContext) => `${ctx.config.publicUrl}/web/mcp`;

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
  return new AppError('unauthorized', error ? 'Invalid or expired access token.' : 'Not authenticated', {
    headers: { 'www-authenticate': challenge },
  });
}

/** An API key's principal, or the in-band reason it has none. */
async function byKey(ctx: AppContext, key: string): Promise<McpAuth> {
  // A user session is not an MCP credential: it needs a workspace header no MCP client sends.
  if (looksLikeJwt(key)) return { ok: false, message: MCP_KEY_INVALID };
  try {
    return {
      ok: true,
      principal: await ctx.auth.workspace({ token: key, workspaceHeader: undefined }),
      oauthGrantId: null,
    };
  } catch (err) {
    return { ok: false, message: inBandAuthError(err) };
  }
}

function inBandAuthError(err: unknown): string {
  if (err instanceof AppError) {
    if (err.code === 'plan_required') return errorText(err);
    if (err.status === 401) return MCP_KEY_INVALID;
  }
  throw err;
}

/** An OAuth access token's principal (the auth layer checks signature, expiry, revocation, audience, membership). */
async function byOAuth(ctx: AppContext, token: string): Promise<McpAuth | null> {
  let principal: Principal;
  try {
    principal = await ctx.auth.workspace({ token, workspaceHeader: undefined, resource: mcpResource(ctx) });
  } catch (err) {
    // A session without a workspace (400) is no connector's credential either.
    if (err instanceof AppError && err.status < 500) return null;
    throw err;
  }
  return principal.oauthGrantId ? { ok: true, principal, oauthGrantId: principal.oauthGrantId } : null;
}

/**
 * Resolves the caller of one HTTP request to an MCP endpoint. Throws only what is transport-level: /web/mcp's 401
 * challenge. Everything else comes back as `{ok: false, message}` for the tool result.
 */
export async function authenticateMcp(
  ctx: AppContext,
  endpoint: McpEndpoint,
  headers: Headers,
  query: Query,
): Promise<McpAuth> {
  if (endpoint === 'cli') {
    const key = first(headers['x-api-key']) ?? bearerOf(headers) ?? first(query?.apikey);
    return key ? byKey(ctx, key) : { ok: false, message: MCP_KEY_REQUIRED };
  }
  const bearer = bearerOf(headers);
  // A key sent as a bearer token is taken as on /mcp (a connector that can send headers).
  if (bearer?.startsWith(KEY_PREFIX)) return byKey(ctx, bearer);
  if (bearer) {
    const viaOAuth = looksLikeJwt(bearer) ? await byOAuth(ctx, bearer) : null;
    if (viaOAuth) return viaOAuth;
    throw unauthorizedWeb(ctx, 'invalid_token');
  }
  const key = first(query?.['api-key']) ?? first(query?.apikey) ?? first(query?.api_key);
  if (key) return byKey(ctx, key);
  throw unauthorizedWeb(ctx);
}
