// The one access mechanism. Every route declares `config.access`; this plugin authenticates in
// onRequest (so a caller without credentials gets 401 before any body validation), charges the
// request to its rate budget (rate-limit.ts: failed authentications included) and applies the plan
// feature and platform-scope checks in preHandler, once the body is parsed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../../app-context.ts';
import type { Principal, UserPrincipal } from '../../auth/authenticate.ts';
import { credentialsFrom, UUID } from '../../auth/authenticate.ts';
import type { Feature } from '../../auth/plans.ts';
import { assertPlatformsAllowed, assertRouteAllowed } from '../../auth/scopes.ts';
import { AppError, validationField } from '../../errors.ts';
import type { Budget, Charge } from './rate-limit.ts';
import { type BrowserSessions, sessionCookie } from './browser-session.ts';

export type Access =
  /**
   * No credential. Budget: the client address's general budget (default); `auth` for sign-in and
   * account-recovery routes (a smaller per-address budget, HERALD_AUTH_RATE_LIMIT_MAX); `none` for
   * health checks and metrics.
   */
  | { kind: 'public'; budget?: Budget }
  /** The network simulators (sandbox mode): they answer as the networks do, outside Herald's rules. */
  | { kind: 'simulator' }
  | { kind: 'user' }
  | { kind: 'admin' }
  /**
   * The MCP endpoints (src/transports/mcp/): credentials in their own forms (keys in the query, OAuth access tokens),
   * failures reported in-band by the route. `authenticate` runs here, before the body is read, and stores what the
   * route needs on the request; the request spends the budget of the principal it returns (the address's without).
   */
  | { kind: 'mcp'; authenticate: (req: FastifyRequest) => Promise<Principal | null> }
  | {
      kind: 'workspace';
      feature?: Feature;
      /**
       * The status of a plan without `feature`: 403 plan_required (default), or 402 (GPT Actions, as the interface
       * says).
       */
      planStatus?: 402;
      /** Platforms the request acts on, checked against the key's scope. */
      platforms?: (req: FastifyRequest) => Iterable<string>;
      /** GET /unified/posts only: the one route a read-only `linkedin_posts` key may call. */
      postsRead?: boolean;
      /** Owners only (e.g. key management). */
      ownerOnly?: boolean;
      /**
       * The route names its workspace in the query (`workspace_id`, the AI routes): it stands in for
       * X-Workspace-Id with a session, and must match the key's or the header's workspace (403 otherwise).
       * Without it, the credential's own workspace is meant.
       */
      workspaceQuery?: boolean;
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal?: Principal;
    userPrincipal?: UserPrincipal;
    /** Authenticated by the browser session cookie (the web app), not by a header. */
    cookieSession?: boolean;
  }
}

const workspaceIdRequired = () =>
  validationField(['query', 'workspace_id'], "workspace_id is required: the workspace's UUID", 'missing');

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new Error(`route ${req.routeOptions.url} used principalOf without workspace access`);
  return req.principal;
}

export function userOf(req: FastifyRequest): UserPrincipal {
  if (!req.userPrincipal) throw new Error(`route ${req.routeOptions.url} used userOf without user access`);
  return req.userPrincipal;
}

// Routes registered by plugins rather than by Herald's route files: the API reference page, and the
// network simulators (mounted only in sandbox mode).
const SIMULATOR_PREFIX = '/sandbox/';

/** The rate budget a route spends when its caller is anonymous or failed to authenticate. */
function budgetOf(access: Access | undefined): Budget {
  if (!access) return 'general'; // unmatched URLs (404) count too: scanning is not free
  if (access.kind === 'simulator') return 'none';
  return access.kind === 'public' ? (access.budget ?? 'general') : 'general';
}

interface AccessOptions {
  ctx: AppContext;
  charge: Charge;
  browser: BrowserSessions;
}

export const accessPlugin = fp(async (app: FastifyInstance, opts: AccessOptions) => {
  const { auth } = opts.ctx;
  const { charge } = opts;

  app.addHook('onRoute', (route) => {
    if (route.config?.access) return;
    if (route.url.startsWith(SIMULATOR_PREFIX)) {
      route.config = { ...route.config, access: { kind: 'simulator' } };
    } else if (route.url.startsWith('/docs') || route.method === 'HEAD') {
      route.config = { ...route.config, access: { kind: 'public' } };
    } else {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule`);
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    const access = req.routeOptions.config.access;
    if (!access || access.kind === 'public' || access.kind === 'simulator') {
      await charge(req, reply, budgetOf(access));
      return;
    }
    if (access.kind === 'mcp') {
      let principal: Principal | null;
      try {
        principal = await access.authenticate(req);
      } catch (err) {
        await charge(req, reply, 'general');
        throw err;
      }
      await charge(req, reply, 'general', principal ?? undefined);
      return;
    }
    // The URL called, for the audience check of OAuth access tokens.
    let creds = {
      ...credentialsFrom(req.headers, sessionCookie(req)),
      resource: `${opts.ctx.config.publicUrl}${req.url.replace(/[?#].*$/, '')}`,
    };
    const queried =
      access.kind === 'workspace' && access.workspaceQuery
        ? (req.query as Record<string, unknown> | undefined)?.workspace_id
        : undefined;
    if (typeof queried === 'string' && UUID.test(queried) && creds.workspaceHeader === undefined)
      creds = { ...creds, workspaceHeader: queried };
    let who: Principal | UserPrincipal;
    try {
      who = access.kind === 'workspace' ? await auth.workspace(creds) : await auth.user(creds);
    } catch (err) {
      // A failed authentication spends the address's budget, so guessing keys is limited too.
      await charge(req, reply, 'general');
      // A session that names no workspace on a route that takes it in the query: say which field is missing.
      if (
        queried === undefined &&
        creds.workspaceHeader === undefined &&
        access.kind === 'workspace' &&
        access.workspaceQuery &&
        err instanceof AppError &&
        err.code === 'bad_request'
      )
        throw workspaceIdRequired();
      throw err;
    }
    await charge(req, reply, 'general', who);
    // The browser's cookie is sent with any request to this site: a write must also prove it comes from Herald's app.
    if (creds.fromCookie) {
      await opts.browser.assertCsrf(req);
      req.cookieSession = true;
    }
    if (access.kind === 'user' || access.kind === 'admin') {
      req.userPrincipal = who as UserPrincipal;
      if (access.kind === 'admin' && !req.userPrincipal.user.isAdmin) {
        throw new AppError('forbidden', 'Administrator access required.');
      }
      return;
    }
    const principal = who as Principal;
    if (access.workspaceQuery) {
      // Absent, the workspace is the one the credential already names (an API key's, or X-Workspace-Id with a
      // session); a session naming none was refused above with its own 400, so only a malformed value lands here.
      if (queried !== undefined && (typeof queried !== 'string' || !UUID.test(queried)))
        throw validationField(['query', 'workspace_id'], "workspace_id must be the workspace's UUID", 'uuid_parsing');
      if (typeof queried === 'string' && queried.toLowerCase() !== principal.workspaceId.toLowerCase())
        throw new AppError('forbidden', 'workspace does not match API key');
    }
    req.principal = principal;
    assertRouteAllowed(principal.scope, { postsRead: access.postsRead ?? false });
    if (access.feature) {
      try {
        opts.ctx.plans.assertFeature(principal.planId, access.feature);
      } catch (err) {
        if (access.planStatus === 402 && err instanceof AppError && err.code === 'plan_required')
          throw new AppError('plan_upgrade_required', err.detail);
        throw err;
      }
    }
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
