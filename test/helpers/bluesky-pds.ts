// A real Bluesky PDS (@atproto/pds) with an in-memory PLC directory (@did-plc/server), both on 127.0.0.1, for tests
// that must meet the reference server's behaviour rather than our simulator's idea of it. The servers run in a child
// process (pds-process.ts); accounts and app passwords are made over XRPC like any client would.
//
// Offline by construction: no AppView, moderation or report service is configured, no crawlers, no SMTP, the PLC URL
// is the local one, and accounts use the service's own handle domain, which the PDS resolves without DNS.
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { AtpAgent } from '@atproto/api';

export interface PdsAccount {
  did: string;
  handle: string;
  /** The account (main) password. */
  password: string;
  email: string;
}

export interface LocalPds {
  /** The PDS service URL, also the `#atproto_pds` endpoint of every account's DID document. */
  url: string;
  plcUrl: string;
  /** Handles of this PDS end with it, e.g. `.test`. */
  handleDomain: string;
  /** Milliseconds from the call to both servers listening. */
  startMs: number;
  /** A new account; `handle` defaults to a unique one, and a bare name gets `handleDomain` appended. */
  createAccount(handle?: string): Promise<PdsAccount>;
  /** An app password (`xxxx-xxxx-xxxx-xxxx`) created with a session of the account password. */
  createAppPassword(account: PdsAccount, name?: string): Promise<string>;
  /** An agent logged in with the account password, for reading records back. */
  agentFor(account: PdsAccount): Promise<AtpAgent>;
  stop(): Promise<void>;
}

const secret = (bytes = 16) => randomBytes(bytes).toString('hex');
let handleCounter = 0;

export async function startLocalPds(): Promise<LocalPds> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(import.meta.dirname, 'pds-process.ts')], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = await new Promise<{ url: string; plcUrl: string; handleDomain: string }>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve(JSON.parse(line) as { url: string; plcUrl: string; handleDomain: string }));
    child.once('exit', (code) => reject(new Error(`the local PDS exited (${code}) before it was ready:\n${stderr}`)));
  });
  const { url, plcUrl, handleDomain } = ready;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }));
  const agentFor = async (account: PdsAccount): Promise<AtpAgent> => {
    const agent = new AtpAgent({ service: url });
    await agent.login({ identifier: account.handle, password: account.password });
    return agent;
  };
  return {
    url,
    plcUrl,
    handleDomain,
    startMs: Math.round(performance.now() - started),
    async createAccount(wanted) {
      handleCounter += 1;
      const handle = !wanted
        ? `u${Date.now().toString(36).slice(-5)}${handleCounter}${randomBytes(2).toString('hex')}${handleDomain}`
        : wanted.includes('.')
          ? wanted
          : `${wanted}${handleDomain}`;
      const password = `pw-${secret()}`;
      const email = `${handle.split('.')[0]}@herald-tests.dev`;
      const res = await new AtpAgent({ service: url }).createAccount({ handle, email, password });
      return { did: res.data.did, handle: res.data.handle, password, email };
    },
    async createAppPassword(account, name = `herald-${secret().slice(0, 8)}`) {
      const agent = await agentFor(account);
      return (await agent.com.atproto.server.createAppPassword({ name })).data.password;
    },
    agentFor,
    stop,
  };
}
