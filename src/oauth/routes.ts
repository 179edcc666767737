// HTTP side of the OAuth authorization server: oidc-provider's endpoints mounted in Fastify (the request
// is handed over raw, body unread), the sign-in pages (/auth/oauth/login, /auth/oauth/select-workspace,
// in sign-in-routes.ts) and the RFC 9728 protected-resource metadata.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { HERALD_SCOPE, OAUTH_PATHS } from './service.ts';
import { signInPages } from './sign-in-routes.ts';

export { grantedScopes } from './sign-in-routes.ts';

const CORS = { 'access-control-allow-origin': '*' };

const protectedResource = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
  resource_name: z.string(),
  resource_documentation: z.string().optional(),
});

export async function oauthRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { oauth } = ctx;
  const pub = new URL(ctx.config.publicUrl);

  // RFC 9728: the API as a whole, and the MCP endpoint on its own (clients look there first).
  const r = app.withTypeProvider<ZodTypeProvider>();
  const prm = (resource: string) => ({
    resource,
    authorization_servers: [oauth.issuer],
    scopes_supported: [HERALD_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Herald',
    resource_documentation: `${oauth.issuer}/docs`,
  });
  const discovery = { access: { kind: 'public' as const } };
  // Browser-based MCP clients (an inspector on localhost) read the metadata, register and exchange codes
  // from their page: these endpoints answer CORS for any origin. None of them relies on cookies.
  const preflight = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(204)
      .headers({
        ...CORS,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
        'access-control-max-age': '600',
      })
      .send();
  for (const [url, resource, operationId, summary] of [
    [
      '/.well-known/oauth-protected-resource',
      oauth.resources.api,
      'getProtectedResourceMetadata',
      'Protected resource metadata (RFC 9728) of the API',
    ],
    [
      '/.well-known/oauth-protected-resource/web/mcp',
      oauth.resources.mcp,
      'getMcpProtectedResourceMetadata',
      'Protected resource metadata (RFC 9728) of the MCP endpoint for chat connectors',
    ],
  ] as const) {
    r.get(
      url,
      {
        config: discovery,
        schema: {
          tags: ['oauth'],
          operationId,
          summary,
          responseDescription: 'The protected resource metadata (RFC 9728).',
          response: { 200: protectedResource },
        },
      },
      async (_req, reply) => {
        reply.headers(CORS);
        return prm(resource);
      },
    );
    app.options(url, { config: discovery, schema: { hide: true } }, preflight);
  }

  // oidc-provider's own endpoints, in a context of their own whose body parser leaves the body unread.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    // The provider is made on the first request that needs it (service.ts).
    let callback: ReturnType<Provider['callback']> | undefined;
    const handle = async (req: FastifyRequest, reply: FastifyReply) => {
      callback ??= (await oauth.provider()).callback();
      reply.hijack();
      const msg = req.raw as IncomingMessage & { originalUrl?: string };
      msg.originalUrl = msg.url;
      // Every URL the provider writes (endpoints, redirects, cookies' Secure flag) follows HERALD_PUBLIC_URL.
      msg.headers.host = pub.host;
      msg.headers['x-forwarded-proto'] = pub.protocol.slice(0, -1);
      delete msg.headers['x-forwarded-host'];
      for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v as string);
      await new Promise<void>((resolve) => {
        reply.raw.once('finish', resolve);
        reply.raw.once('close', resolve);
        void callback!(msg, reply.raw);
      });
    };
    const general = { access: { kind: 'public' as const } };
    const auth = { access: { kind: 'public' as const, budget: 'auth' as const } };
    const hide = { hide: true };
    // The provider answers CORS (preflights included) on discovery, token, revocation and JWKS itself.
    for (const url of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      OAUTH_PATHS.jwks,
    ]) {
      raw.get(url, { config: general, schema: hide }, handle);
      raw.options(url, { config: general, schema: hide }, handle);
    }
    raw.options(OAUTH_PATHS.token, { config: general, schema: hide }, handle);
    raw.options(OAUTH_PATHS.revocation, { config: general, schema: hide }, handle);
    raw.get(OAUTH_PATHS.authorization, { config: auth, schema: hide }, handle);
    raw.post(OAUTH_PATHS.authorization, { config: auth, schema: hide }, handle);
    raw.get(`${OAUTH_PATHS.authorization}/:uid`, { config: auth, schema: hide }, handle);
    raw.post(OAUTH_PATHS.token, { config: general, schema: hide }, handle);
    raw.post(OAUTH_PATHS.revocation, { config: general, schema: hide }, handle);
    if (ctx.config.oauth.registration === 'open') {
      // Registration has no CORS in the provider: Herald adds it (any origin; the endpoint is public anyway).
      raw.post(OAUTH_PATHS.registration, { config: auth, schema: hide }, async (req, reply) => {
        reply.headers(CORS);
        // Per client address (IPv6: its /64) and for the whole instance (registration.ts).
        const address = normalizeIP(req.ip);
        const refused = await oauth.registrations.admit(address);
        if (refused) {
          return reply
            .code(429)
            .headers({ 'retry-after': String(refused.retryAfterSeconds), 'cache-control': 'no-store' })
            .send({ error: 'temporarily_unavailable', error_description: refused.description });
        }
        // The provider counts the registration before it answers (service.ts), by the address Herald sees.
        oauth.registrations.addresses.set(req.raw, address);
        return handle(req, reply);
      });
      raw.options(OAUTH_PATHS.registration, { config: auth, schema: hide }, preflight);
      // RFC 7592 read of a registration, with the registration access token the registration answered.
      raw.get(`${OAUTH_PATHS.registration}/:clientId`, { config: general, schema: hide }, handle);
    }
  });

  // The sign-in pages: HTML forms posted as application/x-www-form-urlencoded.
  await app.register(async (pages) => signInPages(pages, ctx));
}
