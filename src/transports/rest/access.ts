// The one access mechanism. Every route declares `config.access`; this plugin authenticates in
// onRequest (so a caller without credentials gets 401 before any body validation) and applies the
// plan feature and platform-scope checks in preHandler, once the body is parsed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import type { Principal, UserPrincipal } from '../../auth/authenticate.ts';
import { credentialsFrom } from '../../auth/authenticate.ts';
import type { Feature } from '../../auth/plans.ts';
import { assertPlatformsAllowed, assertRouteAllowed } from '../../auth/scopes.ts';
import { AppError } from '../../errors.ts';

export type Access =
  | { kind: 'public' }
  | { kind: 'user' }
  | { kind: 'admin' }
  | {
      kind: 'workspace';
      feature?: Feature;
      /** Platforms the request acts on, checked against the key's scope. */
      platforms?: (req: FastifyRequest) => Iterable<string>;
      /** GET /unified/posts only: the one route a read-only `linkedin_posts` key may call. */
      postsRead?: boolean;
      /** Owners only (e.g. key management). */
      ownerOnly?: boolean;
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal?: Principal;
    userPrincipal?: UserPrincipal;
  }
}

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new Error(`route ${req.routeOptions.url} used principalOf without workspace access`);
  return req.principal;
}

export function userOf(req: FastifyRequest): UserPrincipal {
  if (!req.userPrincipal) throw new Error(`route ${req.routeOptions.url} used userOf without user access`);
  return req.userPrincipal;
}

// Routes registered by plugins rather than by Herald's route files: the API reference page, and the
// network simulators (mounted only in sandbox mode; they answer as the networks do, without Herald auth).
const PLUGIN_PREFIXES = ['/docs', '/sandbox/'];

export const accessPlugin = fp(async (app: FastifyInstance, opts: { ctx: AppContext }) => {
  const { auth } = opts.ctx;

  app.addHook('onRoute', (route) => {
    if (route.config?.access) return;
    if (PLUGIN_PREFIXES.some((p) => route.url.startsWith(p)) || route.method === 'HEAD') {
      route.config = { ...route.config, access: { kind: 'public' } };
      return;
    }
    throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule`);
  });

  app.addHook('onRequest', async (req) => {
    const access = req.routeOptions.config.access;
    if (!access || access.kind === 'public') return;
    const creds = credentialsFrom(req.headers);
    if (access.kind === 'user' || access.kind === 'admin') {
      req.userPrincipal = await auth.user(creds);
      if (access.kind === 'admin' && !req.userPrincipal.user.isAdmin) {
        throw new AppError('forbidden', 'Administrator access required.');
      }
      return;
    }
    const principal = await auth.workspace(creds);
    req.principal = principal;
    assertRouteAllowed(principal.scope, { postsRead: access.postsRead ?? false });
    if (access.feature) opts.ctx.plans.assertFeature(principal.planId, access.feature);
    if (access.ownerOnly && principal.kind === 'jwt' && principal.role !== 'owner') {
      throw new AppError('forbidden', 'Only workspace owners can do this.');
    }
  });

  app.addHook('preHandler', async (req) => {
    const access = req.routeOptions.config.access;
    if (access?.kind !== 'workspace' || !access.platforms || !req.principal) return;
    assertPlatformsAllowed(req.principal.scope, access.platforms(req));
  });
});
