// OAuth / connection routes of the interface, the per-network callbacks, and user profiles.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import type { Platform } from '../../../platforms/slugs.ts';
import { profileSliceSchema } from '../../../connections/profiles.ts';
import { AppError } from '../../../errors.ts';
import { principalOf } from '../access.ts';
import { workspaceSecurity } from '../schemas.ts';
import { callbackPage } from './callback-page.ts';
import { parsePlatforms, splitPlatforms } from '../../../platforms/arguments.ts';

const repeatable = z.union([z.string(), z.array(z.string())]).optional();

const resultSchema = z.object({ success: z.boolean(), message: z.string() });

export async function connectionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const networks = ctx.platforms;
  const knownIn = (values: string[]) => values.filter((v) => networks.has(v));
  const usesAppPassword = (p: Platform) => networks.network(p).authKind === 'app_password';

  const urlBody = z.object({
    platform: z.union([z.string().min(1), z.array(z.string()).min(1)]),
    handle: z.string().max(253).optional(),
    app_password: z.string().max(200).optional(),
  });
  r.post(
    '/unified/oauth/url',
    {
      config: {
        access: {
          kind: 'workspace',
          platforms: (req) => knownIn(splitPlatforms((req.body as z.infer<typeof urlBody>).platform)),
        },
      },
      schema: {
        tags: ['connections'],
        operationId: 'startConnection',
        summary: 'Start OAuth for networks, or connect Bluesky with a handle and app password',
        responseDescription: 'Per network: the URL to authorize at, or the connection made.',
        security: workspaceSecurity,
        body: urlBody,
        response: {
          200: z.object({ results: z.record(z.string(), resultSchema.extend({ auth_url: z.string().nullable() })) }),
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const platforms = parsePlatforms(networks, splitPlatforms(req.body.platform));
      if (!platforms.length) throw new AppError('bad_request', 'platforms must have at least one platform');
      const withPassword = platforms.find(usesAppPassword);
      if (withPassword && (!req.body.handle?.trim() || !req.body.app_password?.trim())) {
        throw new AppError('bad_request', `handle and app_password are required for ${withPassword}`);
      }
      const ws = { id: p.workspaceId, planId: p.planId };
      const results: Record<string, { success: boolean; message: string; auth_url: string | null }> = {};
      for (const platform of platforms) {
        results[platform] = usesAppPassword(platform)
          ? await ctx.connections.connectWithAppPassword(ws, platform, req.body.handle!, req.body.app_password!)
          : await ctx.connections.startOAuth(ws, platform, p.user?.id ?? null);
      }
      ctx.usage.forget(p.workspaceId);
      return { results };
    },
  );

  const tokenQuery = z.object({ platform: repeatable });
  const requested = (req: FastifyRequest) => splitPlatforms((req.query as z.infer<typeof tokenQuery>).platform);

  r.get(
    '/unified/oauth/token',
    {
      config: { access: { kind: 'workspace', platforms: (req) => knownIn(requested(req)) } },
      schema: {
        tags: ['connections'],
        operationId: 'getConnectionStatus',
        summary: 'Connection status per network (no token values)',
        responseDescription: 'Per network: whether it is connected.',
        security: workspaceSecurity,
        querystring: tokenQuery,
        // `connected` beside `success`: the documented setup guide reads it (docs/compatibility.md).
        response: { 200: z.object({ results: z.record(z.string(), resultSchema.extend({ connected: z.boolean() })) }) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const asked = requested(req);
      const platforms = asked.length
        ? parsePlatforms(networks, asked)
        : networks.slugs.filter((x) => p.scope.platforms.has(x));
      return { results: await ctx.connections.status(p.workspaceId, platforms) };
    },
  );

  r.delete(
    '/unified/oauth/token',
    {
      config: { access: { kind: 'workspace', platforms: (req) => knownIn(requested(req)) } },
      schema: {
        tags: ['connections'],
        operationId: 'disconnectNetworks',
        summary: 'Disconnect networks: revoke at the network where possible and delete the tokens',
        responseDescription: 'Per network: whether it was disconnected.',
        security: workspaceSecurity,
        querystring: tokenQuery,
        response: { 200: z.object({ results: z.record(z.string(), resultSchema.extend({ data: z.null() })) }) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const platforms = parsePlatforms(networks, requested(req));
      if (!platforms.length)
        throw new AppError('validation', [
          { loc: ['query', 'platform'], msg: 'At least one platform is required', type: 'missing' },
        ]);
      const results: Record<string, { success: boolean; message: string; data: null }> = {};
      for (const platform of platforms) results[platform] = await ctx.connections.disconnect(p.workspaceId, platform);
      ctx.usage.forget(p.workspaceId);
      return { results };
    },
  );

  const callbackQuery = z.object({
    code: z.string().max(4096).optional(),
    state: z.string().max(512).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(1000).optional(),
  });
  for (const platform of networks.slugs.filter((p) => !usesAppPassword(p))) {
    r.get(
      `/${platform}/oauth/callback`,
      {
        config: { access: { kind: 'public' } },
        schema: {
          tags: ['connections'],
          summary: `${platform} OAuth callback (browser)`,
          querystring: callbackQuery,
          hide: true,
        },
      },
      async (req, reply) => {
        const result = await ctx.connections.completeOAuth(platform, req.query);
        if (result.workspaceId) ctx.usage.forget(result.workspaceId);
        return respondToBrowser(reply, ctx.config.oauthResultUrl, result);
      },
    );
  }

  const profileQuery = z.object({
    platforms: repeatable,
    force_refresh: z.enum(['true', 'false', '1', '0']).optional(),
  });
  r.get(
    '/unified/user-profiles',
    {
      config: {
        access: {
          kind: 'workspace',
          platforms: (req) => knownIn(splitPlatforms((req.query as z.infer<typeof profileQuery>).platforms)),
        },
      },
      schema: {
        tags: ['connections'],
        operationId: 'listUserProfiles',
        summary: 'Profiles of the connected accounts, one slice per network (null when not connected)',
        security: workspaceSecurity,
        querystring: profileQuery,
        response: {
          200: z
            .record(z.string(), profileSliceSchema.nullable())
            .describe('One slice per network asked for (by slug), null when it is not connected.'),
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const asked = splitPlatforms(req.query.platforms);
      const platforms = asked.length ? parsePlatforms(networks, asked) : undefined;
      const force = req.query.force_refresh === 'true' || req.query.force_refresh === '1';
      const slices = await ctx.profiles.profiles(p.workspaceId, platforms, force);
      // A key only sees the networks in its scope.
      return Object.fromEntries(Object.entries(slices).filter(([k]) => p.scope.platforms.has(k as Platform)));
    },
  );
}

function respondToBrowser(
  reply: FastifyReply,
  resultUrl: string | undefined,
  result: { ok: boolean; platform: string; message: string; workspaceName?: string | undefined },
) {
  if (resultUrl) {
    const u = new URL(resultUrl);
    u.searchParams.set('platform', result.platform);
    u.searchParams.set('status', result.ok ? 'success' : 'error');
    u.searchParams.set('message', result.message);
    return reply.redirect(u.toString(), 302);
  }
  return reply
    .code(result.ok ? 200 : 400)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
    .send(callbackPage(result));
}
