// A killed process never loses or duplicates a delivery's webhook-id: `herald serve` (its webhook worker in process)
// is SIGKILLed while a receiver holds its delivery requests open, and restarted on the same database (the embedded
// data directory, or the PostgreSQL database of DATABASE_URL). Every delivery must end delivered, each under the one
// webhook-id it was first sent with, and no event may reach the receiver under two ids.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabaseUrl } from '../helpers/harness.ts';
import { freePort } from '../helpers/net.ts';
import { poll, until } from '../helpers/poll.ts';
import { stopAll } from '../scheduling/helpers.ts';
import { Receiver, verify } from './receiver.ts';

const BIN = fileURLToPath(new URL('../../bin/herald.js', import.meta.url));
const KILLS = 3;
const DELIVERIES = 6;

let server: ChildProcess | undefined;
let dataDir = '';
let url = '';
let db: { url: string; drop: () => Promise<void> } | undefined;
let env: Record<string, string | undefined> = {};
const receiver = new Receiver();
let kills = 0;
let restarting: Promise<void> | undefined;

const start = () => {
  server = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
};

beforeAll(async () => {
  await receiver.start();
  dataDir = mkdtempSync(join(tmpdir(), 'herald-webhook-crash-'));
  db = await createTestDatabaseUrl();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const { DATABASE_URL: _pg, ...base } = process.env;
  env = {
    ...base,
    ...(db ? { DATABASE_URL: db.url } : {}),
    HERALD_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    HERALD_PUBLIC_URL: url,
    HERALD_LOG_LEVEL: 'warn',
    HERALD_RATE_LIMIT_MAX: '1000000',
    HERALD_FETCH_ALLOW_HOSTS: '127.0.0.1',
    HERALD_WEBHOOK_TIMEOUT_SECONDS: '1',
    HERALD_WEBHOOK_POLL_MS: '100',
    HERALD_WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1,0.1,0.1',
  };
  // The first requests are held open and the server is killed under them; later ones are answered.
  receiver.fallback = { status: 200 };
  for (let i = 0; i < KILLS; i++) receiver.script.push('hang');
  receiver.onRequest = (_r, answer) => {
    if (answer !== 'hang') return;
    kills++;
    const previous = restarting ?? Promise.resolve();
    restarting = previous.then(async () => {
      await stopAll([server], 'SIGKILL');
      start();
    });
  };
  start();
}, 120_000);

afterAll(async () => {
  await restarting;
  await stopAll([server]);
  await receiver.close();
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A call that survives the server's restarts: retried until it answers. */
async function call<T>(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  let result: { status: number; body: T } | undefined;
  await until(
    async () => {
      try {
        const res = await fetch(`${url}${path}`, {
          method: init.method ?? 'GET',
          headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
          ...(init.body ? { body: JSON.stringify(init.body) } : {}),
        });
        if (res.status >= 500) return false;
        result = { status: res.status, body: (await res.json()) as T };
        return true;
      } catch {
        return false;
      }
    },
    { timeoutMs: 120_000 },
  );
  return result!;
}

describe('a worker killed mid-delivery', () => {
  it('resends each delivery under its one webhook-id until delivered, never under a second id', {
    timeout: 300_000,
  }, async () => {
    const signup = await call<{ access_token: string }>('/auth/signup', {
      method: 'POST',
      body: { email: 'crash@example.test', password: 'correct horse battery' },
    });
    expect(signup.status).toBe(201);
    const auth = { authorization: `Bearer ${signup.body.access_token}` };
    const ws = await call<{ id: string }[]>('/workspaces', { headers: auth });
    const headers = { ...auth, 'x-workspace-id': ws.body[0]!.id };
    const made = await call<{ id: string; secret: string }>('/webhooks', {
      method: 'POST',
      headers,
      body: { url: `${receiver.url}/hook` },
    });
    expect(made.status).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < DELIVERIES; i++) {
      const t = await call<{ id: string }>(`/webhooks/${made.body.id}/test`, { method: 'POST', headers });
      expect(t.status).toBe(202);
      ids.push(t.body.id);
    }
    const log = await poll(
      () => call<{ deliveries: { id: string; status: string }[] }>(`/webhooks/${made.body.id}/deliveries`, { headers }),
      // A test request cut off by a kill is sent again by `call`, which may add a delivery: at least those made.
      (r) =>
        ids.every((id) => r.body.deliveries.some((d) => d.id === id)) &&
        r.body.deliveries.every((d) => d.status === 'succeeded'),
      {
        timeoutMs: 240_000,
        intervalMs: 200,
        why: async () => {
          const last = await call<{ deliveries: Record<string, unknown>[] }>(`/webhooks/${made.body.id}/deliveries`, {
            headers,
          });
          const brief = last.body.deliveries.map((d) => [d.id, d.status, d.attempts, d.next_attempt_at, d.error]);
          return `deliveries: ${JSON.stringify(brief)}; kills: ${kills}; received: ${receiver.received.length}`;
        },
      },
    );
    expect(kills).toBe(KILLS);
    const logged = log.body.deliveries.map((d) => d.id);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set(logged));
    // Every request carried one of the deliveries' ids, and each event (the body's id) came under one id alone.
    const idOfEvent = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      const body = verify(made.body.secret, r);
      const seen = idOfEvent.get(body.id as string) ?? new Set();
      seen.add(r.headers['webhook-id']!);
      idOfEvent.set(body.id as string, seen);
    }
    expect(idOfEvent.size).toBe(logged.length);
    for (const seen of idOfEvent.values()) expect(seen.size).toBe(1);
    // The deliveries held open when the server died were sent again.
    expect(receiver.received.length).toBeGreaterThanOrEqual(logged.length + KILLS);
  });
});
