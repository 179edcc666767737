// Prometheus metrics per app instance (a registry of its own, so several apps can live in one process).
// /metrics can require a bearer token (HERALD_METRICS_TOKEN) and/or be served on a listener of its own
// (HERALD_METRICS_PORT), typically bound to an internal address the public port does not expose.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
}

export function installMetrics(app: FastifyInstance, opts: { defaultMetrics: boolean }): HttpMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'herald_' });
  const requests = new Counter({
    name: 'herald_http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'herald_http_request_duration_seconds',
    help: 'HTTP request latency by route, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    // The route pattern, never the raw URL: ids in paths would explode label cardinality.
    const labels = { method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });
  return { registry };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the request carries `Authorization: Bearer <token>` (always true when no token is configured). */
export function metricsAuthorized(headers: IncomingHttpHeaders, token: string | undefined): boolean {
  if (!token) return true;
  const m = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '');
  // Compared as digests: equal lengths, and no early exit that would time the prefix.
  return m !== null && timingSafeEqual(digest(m[1]!.trim()), digest(token));
}

export const METRICS_UNAUTHORIZED = { detail: 'Not authenticated' };

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** Serves GET /metrics alone on its own address (nothing else of Herald is reachable there). */
export async function listenMetrics(
  registry: Registry,
  opts: { host: string; port: number; token: string | undefined },
): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') return json(404, { detail: 'Not Found' });
    if (!metricsAuthorized(req.headers, opts.token))
      return json(401, METRICS_UNAUTHORIZED, { 'www-authenticate': 'Bearer' });
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => json(500, { detail: 'Internal Server Error' }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
