// Small request/response helpers shared by every simulator.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type Params = Record<string, string>;

// Repeated keys carry no meaning on any simulated endpoint, so the first value wins.
function flatten(value: unknown): Params {
  const out: Params = {};
  if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return out;
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') out[key] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
    else if (Array.isArray(v) && typeof v[0] === 'string') out[key] = v[0];
  }
  return out;
}

export function queryParams(req: FastifyRequest): Params {
  return flatten(req.query);
}

export function bodyParams(req: FastifyRequest): Params {
  return flatten(req.body);
}

/** Query and body merged, body winning — for endpoints that accept parameters in either place (Graph API). */
export function allParams(req: FastifyRequest): Params {
  return { ...queryParams(req), ...bodyParams(req) };
}

export function headerValue(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function bearerToken(req: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(req, 'authorization') ?? '');
  return match?.[1];
}

export function basicCredentials(req: FastifyRequest): { user: string; password: string } | undefined {
  const match = /^Basic\s+(\S+)\s*$/i.exec(headerValue(req, 'authorization') ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decodeURIComponent(decoded.slice(0, colon)), password: decodeURIComponent(decoded.slice(colon + 1)) };
}

export function sendJson(
  reply: FastifyReply,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): FastifyReply {
  reply.code(status).headers(headers).type('application/json; charset=utf-8');
  return reply.send(JSON.stringify(body));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Body parsers of the sandbox scope: form bodies (every OAuth token endpoint), JSON that tolerates an empty body
 * (real XRPC/TikTok endpoints accept a bare POST with a JSON content type) and raw bytes for anything else (uploads).
 */
export function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = new Error('Body is not valid JSON') as Error & { statusCode: number };
      err.statusCode = 400;
      done(err, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
}

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** The parsed JSON object body, or null (no body, raw bytes, a form, or JSON that is not an object). */
export function jsonBody(req: FastifyRequest): Obj | null {
  const ct = (headerValue(req, 'content-type') ?? '').toLowerCase();
  return ct.startsWith('application/json') && isObj(req.body) ? req.body : null;
}
