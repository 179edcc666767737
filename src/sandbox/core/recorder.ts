// Records every simulator call into its platform slice and applies the configured latency.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context.ts';
import { sleep } from './http.ts';
import type { Platform, RequestRecord } from './types.ts';

const MAX_RECORDED_TEXT = 10_000;

interface InFlight {
  startedAt: number;
  response: unknown;
}

function describeBody(body: unknown): unknown {
  if (Buffer.isBuffer(body)) return { bytes: body.length };
  return body ?? null;
}

function describeResponse(payload: unknown): unknown {
  if (typeof payload !== 'string') return payload === null || payload === undefined ? null : '[stream]';
  try {
    return JSON.parse(payload);
  } catch {
    return payload.length > MAX_RECORDED_TEXT ? `${payload.slice(0, MAX_RECORDED_TEXT)}…` : payload;
  }
}

export function installRecorder(app: FastifyInstance, ctx: SandboxContext, platform: Platform): void {
  const inFlight = new WeakMap<FastifyRequest, InFlight>();

  app.addHook('onRequest', async (req) => {
    inFlight.set(req, { startedAt: Date.now(), response: null });
    const latency = ctx.store.config.latencyMs;
    if (latency > 0) await sleep(latency, ctx.closing);
  });

  app.addHook('onSend', async (req, _reply, payload) => {
    const entry = inFlight.get(req);
    if (entry) entry.response = describeResponse(payload);
    return payload;
  });

  app.addHook('onResponse', async (req, reply) => {
    record(ctx, platform, req, reply.statusCode, inFlight.get(req));
  });

  app.addHook('onRequestAbort', async (req) => {
    // 499 (nginx's "client closed request") marks calls the client gave up on, e.g. under a `timeout` fault.
    record(ctx, platform, req, 499, inFlight.get(req));
  });
}

function record(
  ctx: SandboxContext,
  platform: Platform,
  req: FastifyRequest,
  status: number,
  entry: InFlight | undefined,
): void {
  const url = new URL(req.url, 'http://sandbox.invalid');
  const rec: RequestRecord = {
    method: req.method,
    path: url.pathname,
    query: (req.query ?? {}) as Record<string, unknown>,
    headers: { ...req.headers },
    body: describeBody(req.body),
    status,
    at: ctx.now().toISOString(),
    durationMs: entry ? Date.now() - entry.startedAt : 0,
    response: entry?.response ?? null,
  };
  const list = ctx.store.slices[platform].requests;
  list.push(rec);
  const overflow = list.length - ctx.store.config.maxRequests;
  if (overflow > 0) list.splice(0, overflow);
}
