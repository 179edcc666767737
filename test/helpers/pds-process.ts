// Run as a child process by bluesky-pds.ts: a real Bluesky PDS (@atproto/pds) with an in-memory PLC directory
// (@did-plc/server), both on 127.0.0.1. In a process of its own because the PDS's SQLite addon and sharp (loaded by
// Herald's media code) abort the process now and then when both live in one. Prints one JSON line {url, plcUrl}
// when ready; stops on SIGTERM. For tests
// that must meet the reference server's behaviour rather than our simulator's idea of it.
//
// Offline by construction: no AppView, moderation or report service is configured (so nothing is proxied out), no
// crawlers, no SMTP (mail goes to a JSON transport), the PLC URL is the local one, and accounts only use the
// service's own handle domain, which the PDS resolves from its database without DNS. App.bsky reads that need an
// AppView (getProfile, feeds) therefore answer 400 "No service configured".
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envToCfg, envToSecrets, PDS } from '@atproto/pds';
import { Database as PlcDatabase, PlcServer } from '@did-plc/server';
import { freePort } from './net.ts';

const HOST = '127.0.0.1';
const HANDLE_DOMAIN = '.test';

function secret(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

/** A fresh secp256k1 private key as hex, for the PDS's PLC rotation key. */
function k256PrivateKeyHex(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const d = privateKey.export({ format: 'jwk' }).d;
  if (!d) throw new Error('secp256k1 key export gave no private scalar');
  return Buffer.from(d, 'base64url').toString('hex').padStart(64, '0');
}

async function listen(server: Server): Promise<number> {
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err))]);
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  return address.port;
}

async function closeServer(server: Server | undefined): Promise<void> {
  if (!server?.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive sockets (the PDS sets a 90 s keep-alive) would otherwise hold close() open.
  server.closeAllConnections();
  await closed;
}

function isAddrInUse(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

interface RunningPds {
  pds: PDS;
  server: Server;
  url: string;
}

/**
 * The PDS bakes its port into its public URL (and so into every DID document it writes) before it listens, so the
 * port is chosen first; another process may take it in between, hence the caller's retry on EADDRINUSE.
 */
async function startPds(dir: string, plcUrl: string): Promise<RunningPds> {
  const port = await freePort();
  const env = {
    devMode: true,
    port,
    hostname: 'localhost',
    dataDirectory: dir,
    blobstoreDiskLocation: join(dir, 'blobs'),
    didPlcUrl: plcUrl,
    serviceHandleDomains: [HANDLE_DOMAIN],
    inviteRequired: false,
    rateLimitsEnabled: false,
    crawlers: [],
    jwtSecret: secret(),
    adminPassword: secret(),
    // The OAuth provider insists on exactly 32 bytes here.
    dpopSecret: secret(32),
    plcRotationKeyK256PrivateKeyHex: k256PrivateKeyHex(),
  };
  const cfg = envToCfg(env);
  // "localhost" may resolve to ::1 first while we listen on IPv4 loopback only; the OAuth issuer must match the URL.
  const url = `http://${HOST}:${port}`;
  cfg.service.publicUrl = url;
  cfg.oauth.issuer = url;
  const pds = await PDS.create(cfg, envToSecrets(env));
  let server: Server | undefined;
  try {
    // PDS.start() would listen on every interface; this does what it does, on loopback only. The app's listen() is
    // the one the XRPC server patched to accept WebSocket upgrades (subscribeRepos).
    await pds.ctx.sequencer.start();
    server = pds.app.listen(port, HOST);
    if (!server) throw new Error('the PDS app did not create a server');
    await listen(server);
    return { pds, server, url };
  } catch (err) {
    await closeServer(server);
    await pds.destroy().catch(() => {});
    throw err;
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'herald-pds-'));
  let plcServer: Server | undefined;
  let plc: PlcServer | undefined;
  let running: RunningPds | undefined;
  const shutdown = async (): Promise<void> => {
    await closeServer(running?.server);
    await running?.pds.destroy().catch(() => {});
    await closeServer(plcServer);
    await plc?.ctx.db.close().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  process.once('SIGTERM', () => void shutdown().finally(() => process.exit(0)));
  // The parent's end of stdin closes when it exits: never outlive it.
  process.stdin.on('close', () => void shutdown().finally(() => process.exit(0)));
  process.stdin.resume();
  plc = PlcServer.create({ db: PlcDatabase.mock() });
  plcServer = plc.app.listen(0, HOST);
  if (!plcServer) throw new Error('the PLC app did not create a server');
  const plcUrl = `http://${HOST}:${await listen(plcServer)}`;
  for (let attempt = 1; !running; attempt += 1) {
    try {
      const attemptDir = join(dir, `pds-${attempt}`);
      await mkdir(attemptDir);
      running = await startPds(attemptDir, plcUrl);
    } catch (err) {
      if (!isAddrInUse(err) || attempt >= 5) throw err;
    }
  }
  process.stdout.write(`${JSON.stringify({ url: running.url, plcUrl, handleDomain: HANDLE_DOMAIN })}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
