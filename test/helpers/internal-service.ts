// Stand-ins for what an SSRF would reach: an "internal service" on loopback that records every connection (not just
// every request, so even a TLS handshake attempt counts) and answers with text that must never come back to a user.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const INTERNAL_SECRET = 'internal service says: the admin token is s3cr3t-marker';

export interface RecordedRequest {
  method: string;
  url: string;
  body: string;
}

export interface InternalService {
  port: number;
  /** TCP connections accepted, on any of its addresses. */
  connections: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

const answerSecret: Handler = (_req, _body, res) => {
  res
    .writeHead(400, { 'content-type': 'application/json' })
    .end(JSON.stringify({ error: 'InvalidRequest', message: INTERNAL_SECRET }));
};

function listen(server: Server, port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });
}

/** Listens on 127.0.0.1 and, where the host has IPv6, on ::1 at the same port. */
export async function startInternalService(handler: Handler = answerSecret): Promise<InternalService> {
  const state = { connections: 0, requests: [] as RecordedRequest[] };
  const make = (): Server => {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        state.requests.push({ method: req.method ?? '', url: req.url ?? '', body });
        handler(req, body, res);
      });
    });
    server.on('connection', () => state.connections++);
    return server;
  };
  const v4 = make();
  await listen(v4, 0, '127.0.0.1');
  const { port } = v4.address() as AddressInfo;
  const v6 = make();
  const hasV6 = await listen(v6, port, '::1');
  const servers = hasV6 ? [v4, v6] : [v4];
  return {
    port,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}

/** A plain HTTP server on 127.0.0.1 with a handler that sees the whole request body. */
export async function startJsonServer(
  handler: Handler,
): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const service = await startInternalService(handler);
  return { url: `http://127.0.0.1:${service.port}`, requests: service.requests, close: service.close };
}
