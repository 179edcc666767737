// A webhook receiver on loopback, as a customer would run one: it records every request and verifies signatures with
// the `standardwebhooks` package. What it answers is scripted per request (status, headers, or no answer at all).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: Record<string, string>;
  body: string;
  path: string;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export class Receiver {
  readonly received: Received[] = [];
  /** Answers for the next requests, in order; then `fallback`. */
  readonly script: Answer[] = [];
  fallback: Answer = { status: 200, body: 'ok' };
  /** Called with each request as it arrives, before it is answered. */
  onRequest: ((r: Received, answer: Answer) => void) | undefined;
  readonly #server: Server;
  readonly #hanging = new Set<ServerResponse>();
  url = '';

  constructor() {
    this.#server = createServer((req, res) => this.#handle(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const got = { headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/' };
      this.received.push(got);
      const answer = this.script.shift() ?? this.fallback;
      this.onRequest?.(got, answer);
      if (answer === 'hang') {
        this.#hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  }

  /** The requests whose webhook-id is `id`. */
  byId(id: string): Received[] {
    return this.received.filter((r) => r.headers['webhook-id'] === id);
  }

  async close(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** Verifies a request as a receiver would (throws on a bad signature or a stale timestamp); the parsed body. */
export function verify(secret: string, r: Received): Record<string, unknown> {
  return new Webhook(secret).verify(r.body, r.headers) as Record<string, unknown>;
}
