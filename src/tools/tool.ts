// The tool layer: every capability a chat assistant may use, defined once and served three ways — the MCP server,
// ChatGPT GPT Actions (REST) and the workspace agent. A tool is its zod input schema (the argument names of
// contract-gaps §8), a description written for a model, annotations, its credit cost and a handler that calls the
// same services as the REST routes, with the same scope, plan and credit checks. Which surface lists which tool is
// declared in one place: index.ts.
import type { z } from 'zod';
import type { Principal } from '../auth/authenticate.ts';
import type { Feature } from '../auth/plans.ts';
import { assertPlatformsAllowed, assertRouteAllowed } from '../auth/scopes.ts';
import type { AppContext } from '../context.ts';

export type Surface = 'mcp' | 'gpt' | 'agent';

/** Who calls and through what. */
export interface ToolCaller {
  principal: Principal;
  surface: Surface;
  /** The OAuth grant behind the call (chat connectors), for disconnect_gpt_connector; null with an API key or a session. */
  oauthGrantId: string | null;
}

/** MCP's tool annotations; GPT Actions mark read-only tools `x-openai-isConsequential: false`. */
export interface ToolAnnotations {
  readOnly: boolean;
  /** It deletes or irreversibly changes something (a disconnect, a publish). */
  destructive: boolean;
  /** Calling it twice with the same arguments does no more than once. */
  idempotent: boolean;
  /** It reaches outside Herald (the networks, a model, the web). */
  openWorld: boolean;
}

/** A tool's answer: a JSON object with `success`; a failure the model should read is `{success: false, message}`. */
export type ToolResult = { success: boolean } & Record<string, unknown>;

export interface ToolContext {
  app: AppContext;
  caller: ToolCaller;
  /** 403 (in-band for tools) unless the caller's key scope covers these networks, exactly as REST checks it. */
  allow(platforms: Iterable<string>): void;
  /** 403 plan_required unless the workspace's plan has the feature. */
  require(feature: Feature): void;
}

export interface Tool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  /** For a model: what it does, when to use it, what it costs. At most 300 characters (ChatGPT's limit). */
  description: string;
  input: S;
  annotations: ToolAnnotations;
  /** AI or post credits a call may spend (the services charge them; this is what the description promises). */
  credits: { type: 'ai' | 'posts'; amount: number; per?: string } | null;
  /** Whether this server can run it (web_search_searxng: only with HERALD_SEARXNG_URL); surfaces list it only then. */
  available?: (app: AppContext) => boolean;
  /** Only get_user_posts: the one tool a read-only `linkedin_posts` key may call, as GET /unified/posts on REST. */
  postsRead?: boolean;
  run(ctx: ToolContext, args: z.infer<S>): Promise<ToolResult>;
}

/**
 * A tool, its handler wrapped in the route-level check REST's access hook makes before any handler: a read-only
 * `linkedin_posts` key may call only get_user_posts (403 scope_denied otherwise), whichever surface calls it.
 */
export const defineTool = <S extends z.ZodObject>(t: Tool<S>): Tool<S> => ({
  ...t,
  run: (ctx, args) => {
    assertRouteAllowed(ctx.caller.principal.scope, { postsRead: t.postsRead ?? false });
    return t.run(ctx, args);
  },
});

export function toolContext(app: AppContext, caller: ToolCaller): ToolContext {
  return {
    app,
    caller,
    allow: (platforms) => assertPlatformsAllowed(caller.principal.scope, platforms),
    require: (feature) => app.plans.assertFeature(caller.principal.planId, feature),
  };
}
