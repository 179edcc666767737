// Scheduling tests: a clock the test moves, and the worker driven tick by tick (no sleeps); for the
// multi-process tests, `herald worker` processes against the harness's PostgreSQL and sandbox.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Harness, TestUser } from '../helpers/harness.ts';
import { asUser, createHarness } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';

export class TestClock {
  now: Date;
  constructor(iso: string) {
    this.now = new Date(iso);
  }
  readonly fn = () => new Date(this.now.getTime());
  advance(ms: number): void {
    this.now = new Date(this.now.getTime() + ms);
  }
}

export const HOUR = 3_600_000;

export async function schedule(h: Harness, u: TestUser, payload: Record<string, unknown>) {
  return h.req({
    method: 'POST',
    url: '/unified/scheduled-posts',
    headers: asUser(u),
    payload: { post_type: 'text', ...payload },
  });
}

export async function get(h: Harness, u: TestUser, id: string) {
  const res = await h.req({ method: 'GET', url: '/unified/scheduled-posts?limit=100', headers: asUser(u) });
  return (
    res.json().data.scheduled_posts as { scheduled_post_id: string; status: string; [k: string]: unknown }[]
  ).find((r) => r.scheduled_post_id === id);
}

export const action = (h: Harness, u: TestUser, id: string, what: 'publish-now' | 'move-to-draft') =>
  h.req({ method: 'POST', url: `/unified/scheduled-posts/${id}/${what}`, headers: asUser(u) });

export const patch = (h: Harness, u: TestUser, id: string, payload: Record<string, unknown>) =>
  h.req({ method: 'PATCH', url: `/unified/scheduled-posts/${id}`, headers: asUser(u), payload });

export const cancel = (h: Harness, u: TestUser, id: string) =>
  h.req({ method: 'DELETE', url: `/unified/scheduled-posts/${id}`, headers: asUser(u) });

const BIN = fileURLToPath(new URL('../../bin/herald.js', import.meta.url));

/** Starts `herald worker` processes on the harness's database, publishing to its sandbox. */
export function workerLauncher(h: Harness, env: Record<string, string>): () => ChildProcess {
  const full = {
    ...process.env,
    DATABASE_URL: h.config.databaseUrl!,
    HERALD_DATA_DIR: h.config.dataDir,
    HERALD_PUBLIC_URL: h.url,
    HERALD_SANDBOX: '1',
    HERALD_PLANS_FILE: h.config.plansFile!,
    HERALD_LOG_LEVEL: 'warn',
    ...env,
  };
  return () => spawn(process.execPath, [BIN, 'worker'], { env: full, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Sends `signal` to those still running and waits for every one to exit. */
export async function stopAll(
  children: (ChildProcess | undefined)[],
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  await Promise.all(
    children.map((c) => {
      if (!c || c.exitCode !== null || c.signalCode !== null) return undefined;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill(signal);
      return exited;
    }),
  );
}

/**
 * A harness with the simulators answering at once (no processing delay, a high request cap) and a user with LinkedIn
 * connected: the suites that publish scheduled posts through the real adapters.
 */
export async function linkedinOnSimulators(): Promise<{ h: Harness; u: TestUser }> {
  const h = await createHarness({ sandbox: true, clock: () => new Date(), env: { HERALD_RATE_LIMIT_MAX: '1000000' } });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0, maxRequests: 200 }),
  });
  const u = await h.signup();
  await connect(h, u, 'linkedin');
  return { h, u };
}

/** The posts LinkedIn's simulator holds. */
export const linkedinPosts = async (h: Harness) =>
  (
    (await (await fetch(`${h.url}/sandbox/_state`)).json()) as Record<
      string,
      { posts: { id: string; text?: string; commentary?: string }[] }
    >
  ).linkedin!.posts;

/** Time passing, without waiting: the posts' time is moved into the past. */
export const makeDue = (h: Harness, ids: string[]) =>
  h.ctx.database.db.execute(
    `update scheduled_posts set scheduled_time = now() - interval '1 second' where id in (${ids.map((i) => `'${i}'`).join(',')})` as never,
  );
