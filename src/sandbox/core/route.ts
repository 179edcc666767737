// Route registration for simulators: every route names its operations, so armed faults can hit it, and its surface,
// so a fault is answered in the right shape (HTML for browser pages, the network's JSON otherwise).
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { SandboxContext } from './context.ts';
import { takeFault } from './faults.ts';
import { sendJson, sleep } from './http.ts';
import { declareOperations } from './operations.ts';
import { errorPage } from './pages.ts';
import type { PlatformSlice } from './store.ts';
import type { JsonObject, Platform } from './types.ts';
import { documentedFault } from './documented.ts';

/** page = browser-facing HTML; oauth = token/revoke endpoints; api = resource endpoints. */
export type Surface = 'page' | 'oauth' | 'api';

export interface ErrorAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sends `body` (a string) as is with this type instead of as JSON, e.g. S3's XML errors. */
  contentType?: string;
}

export type TransientFault = 'rate_limit' | 'server_error';

export interface Simulator {
  platform: Platform;
  ctx: SandboxContext;
  app: FastifyInstance;
  /** The network's real answer to a throttled / failing call on a JSON surface. */
  faultAnswer(kind: TransientFault, surface: Exclude<Surface, 'page'>): ErrorAnswer;
  /**
   * The network's strict-mode gate (quotas, rate limits: see strict.ts), asked before each call's handler once no
   * fault answered it: an error answer refuses the call, null lets it through.
   */
  gate?(req: FastifyRequest, call: Call, spec: RouteSpec): ErrorAnswer | null;
}

/** Per-call state handed to handlers. */
export interface Call {
  ctx: SandboxContext;
  platform: Platform;
  slice: PlatformSlice;
  /** An armed expire_token / revoke fault, applied to the first credential the handler checks. */
  effect: 'expire_token' | 'revoke' | null;
  /** An armed documented error whose outcome the handler applies to the object it creates (documented.ts). */
  outcome: JsonObject | null;
}

export interface RouteSpec {
  method: HTTPMethods | HTTPMethods[];
  url: string;
  /** Every operation the route can belong to (declared for `_faults`), most specific first. */
  ops: readonly string[];
  /** The operations of one call when they depend on it (e.g. a token endpoint serving both exchange and refresh). */
  opsFor?(req: FastifyRequest): readonly string[];
  surface: Surface;
  /** Overrides the simulator's fault shape for a route served by a different host of the network. */
  faultAnswer?: Simulator['faultAnswer'];
  /** Request body limit in bytes (upload routes); Fastify's default of 1 MiB otherwise. */
  bodyLimit?: number;
  handler(req: FastifyRequest, reply: FastifyReply, call: Call): unknown;
}

export function sendAnswer(reply: FastifyReply, answer: ErrorAnswer): FastifyReply {
  if (answer.contentType) {
    return reply
      .code(answer.status)
      .headers(answer.headers ?? {})
      .type(answer.contentType)
      .send(String(answer.body));
  }
  return sendJson(reply, answer.status, answer.body, answer.headers);
}

function pageFault(reply: FastifyReply, kind: TransientFault, statusOverride?: number): FastifyReply {
  const [status, title] = kind === 'rate_limit' ? [429, 'Too many requests'] : [500, 'Something went wrong'];
  return reply
    .code(statusOverride ?? status)
    .type('text/html; charset=utf-8')
    .send(errorPage(title, 'Please try again later.'));
}

function answerFault(sim: Simulator, spec: RouteSpec, reply: FastifyReply, kind: TransientFault, status?: number) {
  if (spec.surface === 'page') return pageFault(reply, kind, status);
  const answer = (spec.faultAnswer ?? sim.faultAnswer)(kind, spec.surface);
  return sendAnswer(reply, status === undefined ? answer : { ...answer, status });
}

/** Holds the call until the hold elapses, the client hangs up, or the server starts closing. */
async function hold(sim: Simulator, reply: FastifyReply, ms: number): Promise<void> {
  const released = new AbortController();
  const release = (): void => released.abort();
  reply.raw.once('close', release);
  sim.ctx.closing.addEventListener('abort', release, { once: true });
  await sleep(ms, released.signal);
  reply.raw.off('close', release);
  sim.ctx.closing.removeEventListener('abort', release);
}

export function addRoute(sim: Simulator, spec: RouteSpec): void {
  declareOperations(sim.ctx, sim.platform, spec.ops);
  sim.app.route({
    method: spec.method,
    url: spec.url,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    handler: async (req, reply) => {
      const call: Call = {
        ctx: sim.ctx,
        platform: sim.platform,
        slice: sim.ctx.store.slices[sim.platform],
        effect: null,
        outcome: null,
      };
      const armed = takeFault(sim.ctx.store, sim.platform, spec.opsFor?.(req) ?? spec.ops);
      if (armed?.fault === 'rate_limit' || armed?.fault === 'server_error') {
        return answerFault(sim, spec, reply, armed.fault);
      }
      if (armed?.fault === 'timeout') {
        await hold(sim, reply, armed.holdMs);
        if (reply.raw.destroyed) return reply.hijack();
        // Whoever is still listening after the hold gets a gateway timeout in the network's server-error shape.
        return answerFault(sim, spec, reply, 'server_error', 504);
      }
      if (armed?.fault === 'error') {
        const documented = documentedFault(sim.ctx, sim.platform, armed.error);
        if (documented && 'answer' in documented) return sendAnswer(reply, documented.answer);
        call.outcome = documented?.outcome ?? null;
      } else if (armed) call.effect = armed.fault;
      const refused = sim.gate?.(req, call, spec);
      if (refused) return sendAnswer(reply, refused);
      return spec.handler(req, reply, call);
    },
  });
}

/** Unknown paths under a simulator answer in the network's own error shape. */
export function setNotFound(sim: Simulator, answer: (path: string) => ErrorAnswer): void {
  const prefix = `${sim.ctx.mount}/${sim.platform}`;
  sim.app.setNotFoundHandler((req, reply) => {
    const path = new URL(req.url, 'http://sandbox.invalid').pathname;
    // Report the path as the real host would see it, without the sandbox prefix.
    sendAnswer(reply, answer(path.startsWith(prefix) ? path.slice(prefix.length) || '/' : path));
  });
}
