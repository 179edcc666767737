// Local HTTP(S) servers for safe-fetch tests; the certificate is made at test time with the openssl CLI.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCert {
  key: string;
  cert: string;
}

/** A self-signed certificate valid for the given DNS names (and 127.0.0.1). */
export function makeCert(names: string[]): TestCert {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
  } catch {
    throw new Error('the openssl CLI is needed to make a test certificate (apt-get install -y openssl)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'herald-cert-'));
  try {
    const san = [...names.map((n) => `DNS:${n}`), 'IP:127.0.0.1'].join(',');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-subj',
        `/CN=${names[0] ?? 'localhost'}`,
        '-addext',
        `subjectAltName=${san}`,
      ],
      { stdio: 'pipe' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RunningServer {
  port: number;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler, tls?: TestCert): Promise<RunningServer> {
  const requests: string[] = [];
  const wrapped: Handler = (req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  };
  const server: Server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, wrapped) : createHttpServer(wrapped);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
