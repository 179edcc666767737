// Crash safety of the embedded default: `herald serve` on PGlite (its worker in-process) SIGKILLed at
// random calls of its scheduled Bluesky publishes, before or after the network acted, and restarted on
// the same data directory each time. The database must come back (stale lock, crash recovery), every
// post must end published, and the network must hold each post exactly once. The Bluesky simulator runs
// in this test process (the server reaches it through HERALD_BLUESKY_*_URL), so it outlives the kills.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxBaseUrls } from '../../src/sandbox/index.ts';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { freePort } from '../helpers/net.ts';
import { APP_PASSWORD } from '../connections/helpers.ts';
import { stopAll } from './helpers.ts';
import { KillSwitch } from './kill-switch.ts';
import { until } from '../helpers/poll.ts';
import { chaosRandom } from '../helpers/chaos-seed.ts';

const KILLS = Number(process.env.CHAOS_EMBEDDED_KILLS ?? 8);
const POSTS_PER_ROUND = 4;
const BIN = fileURLToPath(new URL('../../bin/herald.js', import.meta.url));

let h: Harness;
let server: ChildProcess | undefined;
let url = '';
let dataDir = '';
let startServer: () => void;
const chaos = new KillSwitch(/^\/sandbox\/bluesky\//, async () => {
  await stopAll([server], 'SIGKILL');
  // Restarted at once on the same data directory; it does not wait here, the round waits for the posts.
  startServer();
});

beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date(), configureApp: chaos.install });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0, maxRequests: 500 }),
  });
  dataDir = mkdtempSync(join(tmpdir(), 'herald-embedded-chaos-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const bsky = sandboxBaseUrls(h.url).bluesky;
  const { DATABASE_URL: _pg, ...base } = process.env;
  const env = {
    ...base,
    HERALD_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    HERALD_PUBLIC_URL: url,
    HERALD_LOG_LEVEL: 'warn',
    HERALD_RATE_LIMIT_MAX: '1000000',
    // The scan alone (no pg-boss): with pg-boss the scan that resumes a dead process's claims runs only
    // every 5 s, which makes the rounds slow without changing what is tested (claims, journals, recovery).
    HERALD_SCHEDULER_QUEUE: 'scan',
    HERALD_SCHEDULER_POLL_MS: '100',
    HERALD_SCHEDULER_LEASE_SECONDS: '1',
    // The reconciler runs beside the worker, as it does in production, only more often.
    HERALD_RECONCILE_SECONDS: '1',
    HERALD_STUCK_AFTER_SECONDS: '2',
    HERALD_BLUESKY_SERVICE_URL: bsky.service,
    HERALD_BLUESKY_APP_VIEW_URL: bsky.appView,
    HERALD_BLUESKY_PLC_URL: bsky.plc,
    HERALD_BLUESKY_VIDEO_URL: bsky.video,
  };
  startServer = () => {
    server = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  };
}, 120_000);

afterAll(async () => {
  await stopAll([server]);
  await h?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const up = async () => {
  try {
    return (await fetch(`${url}/healthz`)).ok;
  } catch {
    return false;
  }
};

/** A call to the server that survives its restarts: retried until it answers. */
async function call<T>(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<T> {
  let result: T | undefined;
  await until(
    async () => {
      try {
        const res = await fetch(`${url}${path}`, {
          ...init,
          headers: { 'content-type': 'application/json', ...init.headers },
        });
        if (res.status >= 500) return false;
        result = (await res.json()) as T;
        return true;
      } catch {
        return false;
      }
    },
    { timeoutMs: 300_000 },
  );
  return result!;
}

const blueskyPosts = async () =>
  (
    (await (await fetch(`${h.url}/sandbox/_state?platform=bluesky`)).json()) as { bluesky: { posts: unknown[] } }
  ).bluesky.posts.map((p) => JSON.stringify(p));

describe('the embedded server (PGlite, in-process worker) SIGKILLed at random points of its publishes', () => {
  it(`loses nothing and publishes nothing twice, over ${KILLS} kills and restarts`, {
    timeout: 1_800_000,
  }, async () => {
    const random = chaosRandom('embedded chaos');
    startServer();
    await until(up, { timeoutMs: 300_000 });
    const session = await call<{ access_token: string }>('/auth/signup', {
      method: 'POST',
      body: JSON.stringify({ email: 'chaos@example.test', password: 'a long chaos password' }),
    });
    const auth: Record<string, string> = { authorization: `Bearer ${session.access_token}` };
    const [ws] = await call<{ id: string }[]>('/workspaces', { headers: auth });
    auth['x-workspace-id'] = ws!.id;
    const connected = await call<{ results: { bluesky: { success: boolean } } }>('/unified/oauth/url', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ platform: ['bluesky'], handle: 'embedded.sandbox', app_password: APP_PASSWORD }),
    });
    expect(connected.results.bluesky.success, JSON.stringify(connected)).toBe(true);

    const markers: string[] = [];
    const round = async (n: number, k: number, phase: 'before' | 'after') => {
      const t0 = Date.now();
      const marker = `embedded-${randomUUID().slice(0, 8)}`;
      markers.push(marker);
      // Room for every create request to land before the time passes on a loaded machine (1.5 s was not).
      const due = new Date(Date.now() + 5000).toISOString();
      for (let i = 0; i < POSTS_PER_ROUND; i++) {
        const res = await call<{ success: boolean }>('/unified/scheduled-posts', {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            post_type: 'text',
            platforms: ['bluesky'],
            default_text: `${marker} #${i}`,
            scheduled_time: due,
          }),
        });
        expect(res.success, JSON.stringify(res)).toBe(true);
      }
      chaos.arm(n, k, phase);
      const ended = async () => {
        const list = await call<{
          data: {
            scheduled_posts: {
              default_text?: string;
              post_data: { default_text: string };
              status: string;
              error_message: string | null;
            }[];
          };
        }>('/unified/scheduled-posts?limit=100', { headers: auth });
        return list.data.scheduled_posts.filter((r) => r.post_data.default_text.startsWith(marker));
      };
      await until(async () => (await ended()).every((r) => r.status === 'published' || r.status === 'failed'), {
        timeoutMs: 300_000,
        why: async () => JSON.stringify(await ended()),
      });
      chaos.disarm();
      if (process.env.CHAOS_VERBOSE) console.log(`round ${n}: ${Date.now() - t0} ms, kills ${chaos.kills.length}`);
      expect((await ended()).filter((r) => r.status !== 'published')).toEqual([]);
    };

    await round(0, Number.POSITIVE_INFINITY, 'before');
    const callsPerRound = chaos.seen;
    expect(callsPerRound).toBeGreaterThanOrEqual(POSTS_PER_ROUND);
    for (let n = 1; chaos.kills.length < KILLS; n++) {
      expect(n, 'too many rounds without a kill').toBeLessThan(KILLS * 3);
      // The call is random; the phase alternates so both are always covered.
      await round(n, random.int(1, callsPerRound), n % 2 ? 'before' : 'after');
    }
    // Exactly once on the network, for every post of every round.
    const posts = await blueskyPosts();
    const counts = markers
      .flatMap((m) => Array.from({ length: POSTS_PER_ROUND }, (_, i) => `${m} #${i}`))
      .map((text) => ({ text, n: posts.filter((p) => p.includes(`"${text}"`)).length }));
    expect(
      counts.filter((c) => c.n !== 1),
      JSON.stringify(chaos.kills),
    ).toEqual([]);
    expect(new Set(chaos.kills.map((k) => k.phase)).size).toBe(2);
    // Exactly one outcome event per post, written with the change that ended it: none lost, none twice.
    const entries = (
      await call<{ data: { scheduled_posts: { scheduled_post_id: string; post_data: { default_text: string } }[] } }>(
        '/unified/scheduled-posts?limit=100',
        { headers: auth },
      )
    ).data.scheduled_posts.filter((r) => markers.some((m) => r.post_data.default_text.startsWith(m)));
    expect(entries).toHaveLength(markers.length * POSTS_PER_ROUND);
    const outcomes: { type: string; data: { scheduled_post_id: string | null } }[] = [];
    for (let cursor: string | null = ''; cursor !== null; ) {
      const page: { events: typeof outcomes; next_cursor: string | null } = await call(
        `/events?type=post.published,post.partially_published,post.failed&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
        { headers: auth },
      );
      outcomes.push(...page.events);
      cursor = page.next_cursor;
    }
    const perEntry = entries.map((e) => ({
      id: e.scheduled_post_id,
      events: outcomes.filter((o) => o.data.scheduled_post_id === e.scheduled_post_id).map((o) => o.type),
    }));
    expect(perEntry.filter((p) => p.events.join() !== 'post.published')).toEqual([]);
  });
});
