// Starts the Herald the browser suite talks to: `bin/herald.js serve` in sandbox mode (every network simulated) on
// a fresh embedded PGlite data directory and a free loopback port, serving the built app (web/dist), with its mail
// sent to a local SMTP catcher that writes each message to a folder (mail.ts reads them). Its URL goes to the tests in
// HERALD_E2E_URL, the folder in HERALD_E2E_MAIL_DIR; the returned teardown stops both and removes their folders.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once GET /readyz answers 200; rejects when the server exits first or `ms` pass. */
async function ready(url: string, server: ChildProcess, log: () => string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  let exited = false;
  server.once('exit', () => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`Herald exited before it was ready:\n${log()}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Herald was not ready within ${ms / 1000} s:\n${log()}`);
}

/** An SMTP server on a free loopback port writing each message (raw) to `dir`, named by time and first recipient. */
async function mailCatcher(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  let n = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (d: Buffer) => chunks.push(d));
      stream.on('end', () => {
        const to = session.envelope.rcptTo[0]?.address ?? 'unknown';
        writeFileSync(join(dir, `${Date.now()}-${++n}-${to}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const { port } = smtp.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(join(root, 'web', 'dist', 'index.html')))
    throw new Error('The web app is not built: run `npm run build:web` first (test:web does).');
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-e2e-'));
  const mailDir = mkdtempSync(join(tmpdir(), 'herald-e2e-mail-'));
  const mail = await mailCatcher(mailDir);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const server = spawn(process.execPath, [join(root, 'bin', 'herald.js'), 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      HERALD_PUBLIC_URL: url,
      HERALD_DATA_DIR: dataDir,
      HERALD_SANDBOX: '1',
      HERALD_SMTP_URL: mail.url,
      HERALD_LOG_FORMAT: 'json',
      HERALD_LOG_LEVEL: 'warn',
      // The suite signs up and in many times from one address.
      HERALD_AUTH_RATE_LIMIT_MAX: '10000',
      HERALD_RATE_LIMIT_MAX: '100000',
      // The feeds spec serves its feeds from a loopback server, which the outbound address policy refuses otherwise.
      HERALD_FETCH_ALLOW_HOSTS: '127.0.0.1',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  server.stdout?.on('data', keep);
  server.stderr?.on('data', keep);
  await ready(url, server, () => output, 120_000);
  process.env.HERALD_E2E_URL = url;
  process.env.HERALD_E2E_MAIL_DIR = mailDir;
  return async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    await mail.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mailDir, { recursive: true, force: true });
  };
}
