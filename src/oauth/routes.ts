// HTTP side of the OAuth authorization server: oidc-provider's endpoints mounted in Fastify (the request
// is handed over raw, body unread), the sign-in pages (/auth/oauth/login, /auth/oauth/select-workspace)
// and the RFC 9728 protected-resource metadata.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { AppError } from '../errors.ts';
import { UUID } from '../auth/authenticate.ts';
import { HERALD_SCOPE, OAUTH_PATHS, accountIdOf, deriveKey } from './service.ts';
import { loginPage, messagePage, workspacePage } from './pages.ts';

const CSRF_COOKIE = 'herald_oauth_csrf';
const LOGIN_COOKIE = 'herald_oauth_login';
const COOKIE_PATH = '/auth/oauth';
/** How long the signed-in step waits for the workspace choice. */
const LOGIN_STEP_SECONDS = 600;

const CORS = { 'access-control-allow-origin': '*' };

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

function cookiesOf(req: FastifyRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out.set(part.slice(0, i).trim(), decodeURIComponent(part.slice(i + 1).trim()));
  }
  return out;
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

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
  const secure = pub.protocol === 'https:';
  const pageKey = deriveKey(ctx.secrets.jwtSecret, 'pages');
  const sign = (v: string) => createHmac('sha256', pageKey).update(v).digest('base64url');
  const cookie = (name: string, value: string, maxAge: number) =>
    `${name}=${encodeURIComponent(value)}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

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
  await app.register(async (pages) => {
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, body, done) => {
        const params = new URLSearchParams(body as string);
        const out: Record<string, string> = {};
        for (const [k, v] of params) if (!(k in out)) out[k] = v;
        done(null, out);
      },
    );
    const page = (reply: FastifyReply, status: number, html: string, extra: Record<string, string | string[]> = {}) =>
      reply
        .code(status)
        .headers({ ...PAGE_HEADERS, ...extra })
        .send(html);
    const auth = { access: { kind: 'public' as const, budget: 'auth' as const } };
    const uidQuery = z.object({ uid: z.string().min(1).max(200) });
    const form = z.record(z.string(), z.string().max(1000));

    const interactionOf = async (uid: string) => {
      const interaction = await (await oauth.provider()).Interaction.find(uid);
      if (!interaction) return null;
      const clientId = String(interaction.params.client_id ?? '');
      const client = clientId ? await (await oauth.provider()).Client.find(clientId) : undefined;
      if (!client) return null;
      return { interaction, client, clientName: client.clientName ?? client.clientId };
    };
    const expired = (reply: FastifyReply) =>
      page(
        reply,
        400,
        messagePage('This sign-in has expired', 'Start connecting again from the app that sent you here.'),
      );
    const csrfFor = (req: FastifyRequest, uid: string) => {
      const nonce = cookiesOf(req).get(CSRF_COOKIE);
      return nonce ? sign(`csrf|${nonce}|${uid}`) : null;
    };
    const csrfOk = (req: FastifyRequest, uid: string, presented: string | undefined) => {
      const expected = csrfFor(req, uid);
      return Boolean(expected && presented && same(expected, presented));
    };
    /** The user who signed in for this authorization request, from the signed step cookie. */
    const signedIn = (req: FastifyRequest, uid: string): string | null => {
      // value: uid.userId.exp.mac
      const v = cookiesOf(req).get(LOGIN_COOKIE);
      const [cUid, userId, exp, mac] = v?.split('.') ?? [];
      if (!cUid || !userId || !exp || !mac || cUid !== uid) return null;
      if (!same(mac, sign(`login|${cUid}|${userId}|${exp}`))) return null;
      if (Number(exp) * 1000 < ctx.clock().getTime()) return null;
      return userId;
    };

    pages.get(
      OAUTH_PATHS.login,
      { config: auth, schema: { hide: true, querystring: uidQuery } },
      async (req, reply) => {
        const { uid } = req.query as z.infer<typeof uidQuery>;
        const found = await interactionOf(uid);
        if (!found) return expired(reply);
        let nonce = cookiesOf(req).get(CSRF_COOKIE);
        const headers: Record<string, string> = {};
        if (!nonce || !/^[A-Za-z0-9_-]{43}$/.test(nonce)) {
          nonce = randomBytes(32).toString('base64url');
          headers['set-cookie'] = cookie(CSRF_COOKIE, nonce, 3600);
        }
        return page(
          reply,
          200,
          loginPage({ action: OAUTH_PATHS.login, uid, csrf: sign(`csrf|${nonce}|${uid}`), client: found.clientName }),
          headers,
        );
      },
    );

    pages.post(OAUTH_PATHS.login, { config: auth, schema: { hide: true, body: form } }, async (req, reply) => {
      const body = req.body as Record<string, string>;
      const uid = body.uid ?? '';
      const found = uid ? await interactionOf(uid) : null;
      if (!found) return expired(reply);
      const csrf = csrfFor(req, uid) ?? '';
      const again = (status: number, error: string, extra: Record<string, string> = {}) =>
        page(
          reply,
          status,
          loginPage({ action: OAUTH_PATHS.login, uid, csrf, client: found.clientName, email: body.email ?? '', error }),
          extra,
        );
      if (!csrfOk(req, uid, body.csrf)) {
        return page(
          reply,
          403,
          messagePage('Sign-in refused', 'The form was not sent from this sign-in page. Reload it and try again.'),
        );
      }
      const email = (body.email ?? '').trim();
      const password = body.password ?? '';
      if (!email || !password) return again(422, 'Enter your email and password.');
      try {
        await ctx.loginThrottle.attempt('oauth_login', email);
      } catch (err) {
        if (err instanceof AppError && err.status === 429) {
          const retry = String(err.headers?.['retry-after'] ?? '1');
          return again(
            429,
            `Too many attempts for this account. Try again in ${retry} second${retry === '1' ? '' : 's'}.`,
            { 'retry-after': retry },
          );
        }
        throw err;
      }
      const user = await ctx.accounts.login(email, password);
      if (!user) return again(401, 'The email or password is not correct.');
      await ctx.loginThrottle.succeeded('oauth_login', email);
      const exp = Math.floor(ctx.clock().getTime() / 1000) + LOGIN_STEP_SECONDS;
      const value = `${uid}.${user.id}.${exp}.${sign(`login|${uid}|${user.id}|${exp}`)}`;
      return reply
        .code(303)
        .headers({
          'cache-control': 'no-store',
          'set-cookie': cookie(LOGIN_COOKIE, value, LOGIN_STEP_SECONDS),
          location: `${OAUTH_PATHS.selectWorkspace}?uid=${encodeURIComponent(uid)}`,
        })
        .send();
    });

    const workspacesOf = async (userId: string) =>
      (await ctx.workspaces.listForUser(userId)).map((w) => ({ id: w.id, name: w.name }));

    pages.get(
      OAUTH_PATHS.selectWorkspace,
      { config: auth, schema: { hide: true, querystring: uidQuery } },
      async (req, reply) => {
        const { uid } = req.query as z.infer<typeof uidQuery>;
        const found = await interactionOf(uid);
        const userId = found && signedIn(req, uid);
        if (!found || !userId) return expired(reply);
        const csrf = csrfFor(req, uid);
        if (!csrf) return expired(reply);
        return page(
          reply,
          200,
          workspacePage({
            action: OAUTH_PATHS.selectWorkspace,
            uid,
            csrf,
            client: found.clientName,
            workspaces: await workspacesOf(userId),
          }),
        );
      },
    );

    pages.post(
      OAUTH_PATHS.selectWorkspace,
      { config: auth, schema: { hide: true, body: form } },
      async (req, reply) => {
        const body = req.body as Record<string, string>;
        const uid = body.uid ?? '';
        const found = uid ? await interactionOf(uid) : null;
        const userId = found && signedIn(req, uid);
        if (!found || !userId) return expired(reply);
        if (!csrfOk(req, uid, body.csrf)) {
          return page(
            reply,
            403,
            messagePage('Sign-in refused', 'The form was not sent from this sign-in page. Reload it and try again.'),
          );
        }
        const wsId = (body.workspace_id ?? '').toLowerCase();
        const member = UUID.test(wsId) ? await ctx.workspaces.membership(wsId, userId) : undefined;
        if (!member) {
          return page(
            reply,
            403,
            workspacePage({
              action: OAUTH_PATHS.selectWorkspace,
              uid,
              csrf: csrfFor(req, uid) ?? '',
              client: found.clientName,
              workspaces: await workspacesOf(userId),
              error: 'Choose one of your workspaces.',
            }),
          );
        }
        const { interaction, client } = found;
        const user = await ctx.accounts.byId(userId);
        if (!user?.isActive) return expired(reply);
        const accountId = accountIdOf(userId, member.ws.id, user.sessionVersion);
        const grant = new (await oauth.provider()).Grant({ accountId, clientId: client.clientId });
        const requested = grantedScopes(String(interaction.params.scope ?? ''), client.scope);
        // The provider finishes the request with the scope it stored: the default scope when there was none.
        interaction.params.scope = requested.join(' ');
        const oidcScopes = requested.filter((s) => s === 'openid' || s === 'offline_access' || s === HERALD_SCOPE);
        if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(' '));
        const resourceParam = interaction.params.resource;
        const resources = (
          Array.isArray(resourceParam) ? resourceParam : resourceParam ? [resourceParam] : [oauth.resources.api]
        ).map(String);
        for (const resource of resources) grant.addResourceScope(resource, HERALD_SCOPE);
        const grantId = await grant.save();
        interaction.result = { login: { accountId, remember: false }, consent: { grantId } };
        await interaction.save(Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000)));
        return reply
          .code(303)
          .headers({
            'cache-control': 'no-store',
            'set-cookie': cookie(LOGIN_COOKIE, '', 0),
            location: interaction.returnTo,
          })
          .send();
      },
    );
  });
}

/**
 * The scopes a sign-in grants: those asked for, plus Herald's API scope, which is what choosing a workspace
 * gives (the member's rights there). No scope asked (it is optional in OAuth): the client's registered
 * scope, else the API scope. A client registered with a scope that leaves out the API scope keeps to it.
 */
export function grantedScopes(requested: string, clientScope: string | undefined): string[] {
  const allowed = clientScope?.split(' ').filter(Boolean);
  const asked = requested.split(' ').filter(Boolean);
  const scopes = new Set(asked.length ? asked : (allowed ?? [HERALD_SCOPE]));
  if (!allowed || allowed.includes(HERALD_SCOPE)) scopes.add(HERALD_SCOPE);
  return [...scopes];
}
