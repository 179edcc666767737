// The tool layer: every capability a chat assistant may use, defined once and served three ways — the MCP server,
// ChatGPT GPT Actions (REST) and the workspace agent. A tool is its zod input schema (the argument names of
// contract-gaps §8), a description written for a model, annotations, its credit cost and a handler that calls the
// same services as the REST routes, with the same scope, plan and credit checks. Which surface lists which tool is
// declared in one place: index.ts.
import type { z } from 'zod';
import type { Principal } from '../auth/authenticate.ts';
import type { Feature } from '../auth/plans.ts';
import { assertPlatformsAllowed, assertRouteAllowed } from '../auth/scopes.ts';
import type { ToolServices } from './services.ts';
import { holdAction } from './pending-actions.ts';

export type Surface = 'mcp' | 'gpt' | 'agent';

/** Who calls and through what. */
export interface ToolCaller {
  principal: Principal;
  surface: Surface;
  /**
   * The OAuth grant behind the call (chat connectors), for disconnect_gpt_connector; null with an API key or a session.
   */
  oauthGrantId: string | null;
  /** Set only when a member approved this call (pending-actions.ts): it runs instead of being held again. */
  approvedBy?: string;
}

/**
 * What a call changes, for the approval step (the workspace setting `tool_posts_need_approval`). Every tool declares
 * it; test/tools/approval-tools.test.ts fails for a tool without it, and holds each held tool through the invoker.
 * - read: changes nothing (it may read the networks, spend AI credits and return generated text or images).
 * - write, held 'post': publishes; its handler holds its posts as drafts pending approval (publishing/approval.ts).
 * - write, held 'action': writes to a network or removes something; its handler calls `ctx.hold` before it does,
 *   which saves the call as a pending action a member approves (pending-actions.ts) when the setting is on.
 * - write, held 'never': changes only what `why` says, which is never held.
 */
export type ToolEffect =
  | { kind: 'read' }
  | { kind: 'write'; held: 'post' }
  | { kind: 'write'; held: 'action' }
  | { kind: 'write'; held: 'never'; why: string };

/** What a held action will do, as the tool describes it before doing it. */
export interface HeldActionPlan {
  /** The network it acts on (the caller's key scope and the approver's are checked against it). */
  platform: string;
  /** For members: e.g. "Reply to comment X on LinkedIn: '…'". */
  summary: string;
  /** Argument names whose values are secrets: stored sealed, shown as "[hidden]". */
  secretArgs?: readonly string[];
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
  app: ToolServices;
  caller: ToolCaller;
  /** 403 (in-band for tools) unless the caller's key scope covers these networks, exactly as REST checks it. */
  allow(platforms: Iterable<string>): void;
  /** 403 plan_required unless the workspace's plan has the feature. */
  require(feature: Feature): void;
  /**
   * Before a held action writes (effect held 'action'): null when it may go ahead now (the setting is off, or a member
   * approved this call); otherwise the call was saved as a pending action, and the handler returns this answer.
   */
  hold(plan: HeldActionPlan): Promise<ToolResult | null>;
}

export interface Tool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  /** For a model: what it does, when to use it, what it costs. At most 300 characters (ChatGPT's limit). */
  description: string;
  input: S;
  annotations: ToolAnnotations;
  /** Read or write, and whether the approval step holds it (see ToolEffect). */
  effect: ToolEffect;
  /** AI or post credits a call may spend (the services charge them; this is what the description promises). */
  credits: { type: 'ai' | 'posts'; amount: number; per?: string } | null;
  /** Whether this server can run it (web_search_searxng: only with HERALD_SEARXNG_URL); surfaces list it only then. */
  available?: (app: ToolServices) => boolean;
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
    // The held call is saved with this tool's name and these arguments.
    return t.run({ ...ctx, hold: (plan) => holdAction(ctx, t.name, args, plan) }, args);
  },
});

export function toolContext(app: ToolServices, caller: ToolCaller): ToolContext {
  return {
    app,
    caller,
    allow: (platforms) => assertPlatformsAllowed(caller.principal.scope, platforms),
    require: (feature) => app.plans.assertFeature(caller.principal.planId, feature),
    hold: () => Promise.reject(new Error('hold() is given to a tool by defineTool')),
  };
}
