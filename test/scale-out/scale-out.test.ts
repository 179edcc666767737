// Herald scaled out on one machine, as docs/deployment.md describes: two `herald serve` processes and two
// `herald worker` processes, each with a data directory of its own, sharing only PostgreSQL, an S3 store (Swift's
// s3api on loopback) and Redis. The networks are the sandbox's simulators, served by this test's harness (on the same
// database), so what the processes publish is counted in one place. PostgreSQL only: vitest.config.ts includes this
// file in the `db` project when DATABASE_URL is set.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackUrlOf } from '../connections/helpers.ts';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { freePort } from '../helpers/net.ts';
import { poll, until } from '../helpers/poll.ts';
import { startSwift, type SwiftS3 } from '../helpers/swift.ts';
import { filesUnder, mp4, multipart } from '../media-routes/helpers.ts';
import { stopAll } from '../scheduling/helpers.ts';
import { Receiver } from '../webhooks/receiver.ts';

const BIN = fileURLToPath(new URL('../../bin/herald.js', import.meta.url));
const BUCKET = 'herald-scale-out';
const RATE_LIMIT = 60;
const SECRETS = {
  HERALD_JWT_SECRET: randomBytes(32).toString('hex'),
  HERALD_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
};

let swift: SwiftS3;
let h: Harness;
let u: TestUser;
let receiver: Receiver;
const dirs: string[] = [];
const apis: { url: string; proc: ChildProcess; dataDir: string }[] = [];
const workers: ChildProcess[] = [];
let sql: (q: string) => Promise<Record<string, unknown>[]>;

beforeAll(async () => {
  swift = await startSwift({ timeoutMs: 300_000 });
  const admin = new S3Client({
    region: swift.region,
    endpoint: swift.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
  });
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
  admin.destroy();
  const s3 = {
    HERALD_STORAGE: 's3',
    HERALD_S3_BUCKET: BUCKET,
    HERALD_S3_REGION: swift.region,
    HERALD_S3_ENDPOINT: swift.endpoint,
    HERALD_S3_FORCE_PATH_STYLE: 'true',
    HERALD_S3_ACCESS_KEY_ID: swift.accessKeyId,
    HERALD_S3_SECRET_ACCESS_KEY: swift.secretAccessKey,
    HERALD_S3_PUBLIC_URL: 'https://cdn.herald.example/media',
  };
  h = await createHarness({ sandbox: true, clock: () => new Date(), env: { ...SECRETS, ...s3 } });
  sql = async (q) =>
    ((await h.ctx.database.db.execute(q as never)) as unknown as { rows: Record<string, unknown>[] }).rows;
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0, maxRequests: 2000 }),
  });
  u = await h.signup();
  await h.setPlan(u.workspaceId, 'pro');
  receiver = await new Receiver().start();

  const env = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME ?? tmpdir(),
    ...SECRETS,
    ...s3,
    DATABASE_URL: h.config.databaseUrl!,
    HERALD_PUBLIC_URL: h.url,
    HERALD_SANDBOX: '1',
    HERALD_PLANS_FILE: h.config.plansFile!,
    HERALD_LOG_LEVEL: 'warn',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    HERALD_RATE_LIMIT_REDIS_PREFIX: `herald-scale-${randomBytes(4).toString('hex')}:`,
    HERALD_RATE_LIMIT_MAX: String(RATE_LIMIT),
    HERALD_RATE_LIMIT_WINDOW_SECONDS: '3600',
    HERALD_API_KEY_CACHE_SECONDS: '0',
    HERALD_WORKER_IN_PROCESS: '0',
    HERALD_FETCH_ALLOW_HOSTS: '127.0.0.1',
    HERALD_SCHEDULER_POLL_MS: '100',
    HERALD_WEBHOOK_POLL_MS: '100',
    HERALD_COMMENT_SYNC_INTERVAL_SECONDS: '1',
  };
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-scale-'));
    dirs.push(dir);
    return dir;
  };
  const stderr = (proc: ChildProcess, name: string) =>
    proc.stderr?.on('data', (c: Buffer) => process.stderr.write(`[${name}] ${c}`));
  for (const n of [1, 2]) {
    const port = await freePort();
    const dir = dataDir();
    const proc = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...env, PORT: String(port), HOST: '127.0.0.1', HERALD_DATA_DIR: dir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    stderr(proc, `api${n}`);
    apis.push({ url: `http://127.0.0.1:${port}`, proc, dataDir: dir });
    const worker = spawn(process.execPath, [BIN, 'worker'], {
      env: { ...env, HERALD_DATA_DIR: dataDir() },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    stderr(worker, `worker${n}`);
    workers.push(worker);
  }
  for (const api of apis) {
    await until(
      () =>
        fetch(`${api.url}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      {
        timeoutMs: 180_000,
        intervalMs: 250,
      },
    );
  }
}, 900_000);

afterAll(async () => {
  await stopAll([...apis.map((a) => a.proc), ...workers]);
  await receiver?.close();
  await h?.close();
  await swift?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const auth = () => ({ authorization: `Bearer ${u.token}`, 'x-workspace-id': u.workspaceId });
async function call(base: string, method: string, path: string, body?: unknown, headers = auth()) {
  const isForm = body && typeof body === 'object' && 'payload' in body && 'headers' in body;
  const form = isForm ? (body as { payload: Buffer; headers: Record<string, string> }) : undefined;
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(form ? form.headers : body ? { 'content-type': 'application/json' } : {}) },
    ...(form ? { body: new Uint8Array(form.payload) } : body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

describe('two API and two worker processes sharing PostgreSQL, S3 and Redis', () => {
  it('takes the chunks of one upload on both API processes and assembles them in the bucket', async () => {
    const [a, b] = [apis[0]!.url, apis[1]!.url];
    const video = await mp4({ mdatBytes: 2_500_000 });
    const total = Math.ceil(video.length / 1048576);
    expect(total).toBe(3);
    const init = await call(a, 'POST', '/media/storage/init', {
      filename: 'v.mp4',
      file_size: video.length,
      total_chunks: total,
    });
    expect(init.status, init.text).toBe(200);
    const id = init.json().upload_id as string;
    for (let n = 1; n <= total; n++) {
      const form = multipart([
        { name: 'upload_id', value: id },
        { name: 'chunk_number', value: String(n) },
        { name: 'file', filename: 'b', data: video.subarray((n - 1) * 1048576, n * 1048576) },
      ]);
      // Chunk 1 to the second process, 2 to the first, 3 to the second.
      const res = await call(n % 2 ? b : a, 'POST', '/media/storage/chunk', form);
      expect(res.status, res.text).toBe(200);
    }
    const progress = await call(b, 'GET', `/media/storage/progress?upload_id=${id}`);
    expect(progress.json()).toMatchObject({ status: 'ready', uploaded_chunks: total });
    const done = await call(a, 'POST', '/media/storage/complete', { upload_id: id });
    expect(done.status, done.text).toBe(200);
    const key = (done.json().public_url as string).replace('https://cdn.herald.example/media/', '');
    const admin = new S3Client({
      region: swift.region,
      endpoint: swift.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
    });
    const head = await admin.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    admin.destroy();
    expect(head.ContentLength).toBe(video.length);
    // Nothing of the upload stayed in either process's data directory.
    for (const api of apis) expect(filesUnder(join(api.dataDir, 'uploads'))).toEqual([]);
  });

  it('consumes on one API process the OAuth state the other created (connect through the sandbox)', async () => {
    const [a, b] = [apis[0]!.url, apis[1]!.url];
    const res = await call(a, 'POST', '/unified/oauth/url', { platform: ['linkedin'] });
    expect(res.status, res.text).toBe(200);
    const callback = await callbackUrlOf(res.json().results.linkedin.auth_url);
    // The simulator sends the browser to HERALD_PUBLIC_URL; this browser lands on the second process instead.
    const page = await fetch(`${b}${callback.pathname}${callback.search}`, { redirect: 'follow' });
    expect(await page.text()).toContain('data-status="success"');
    // The one state, made by the first process, was used by the second; the connection is there for both.
    const states = await sql(
      `select count(*)::int as n, count(used_at)::int as used from oauth_states where platform = 'linkedin'`,
    );
    expect(states[0]).toEqual({ n: 1, used: 1 });
    const connections = await sql(`select count(*)::int as n from platform_connections where platform = 'linkedin'`);
    expect(connections[0]!.n).toBe(1);
  });

  it('publishes posts scheduled through one API process exactly once, from the workers, and signals each once', async () => {
    const [a, b] = [apis[0]!.url, apis[1]!.url];
    const hook = await call(b, 'POST', '/webhooks', { url: `${receiver.url}/hook`, event_types: ['post.published'] });
    expect(hook.status, hook.text).toBe(201);
    const marker = `scale-out ${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(a, 'POST', '/unified/scheduled-posts', {
        post_type: 'text',
        platforms: ['linkedin'],
        default_text: `${marker} n${i}`,
        scheduled_time: new Date(Date.now() + 600_000).toISOString(),
      });
      expect(res.status, res.text).toBe(200);
      ids.push(res.json().scheduled[0].scheduled_post_id);
    }
    const inIds = `(${ids.map((i) => `'${i}'`).join(',')})`;
    // Time passing, without waiting: the posts' time is moved into the past; the workers' scans find them.
    await sql(`update scheduled_posts set scheduled_time = now() - interval '1 second' where id in ${inIds}`);
    await until(
      async () =>
        (await sql(`select count(*)::int as n from scheduled_posts where status = 'published' and id in ${inIds}`))[0]!
          .n === ids.length,
      { timeoutMs: 180_000, intervalMs: 250 },
    );
    // Exactly once at the network: one post per scheduled post.
    const state = (await (await fetch(`${h.url}/sandbox/_state`)).json()) as Record<
      string,
      { posts: { commentary?: string; text?: string }[] }
    >;
    const texts = state.linkedin!.posts.map((p) => p.commentary ?? p.text ?? '').filter((t) => t.startsWith(marker));
    expect(texts.sort()).toEqual(ids.map((_, i) => `${marker} n${i}`).sort());
    // Claimed by the worker processes, never by the API processes.
    const claims = await sql(
      `select reason from scheduled_post_events where to_status = 'publishing' and scheduled_post_id in ${inIds}`,
    );
    const pids = new Set(claims.map((r) => Number(/worker-(\d+)-/.exec(String(r.reason))?.[1])));
    expect(
      [...pids].every((pid) => workers.some((w) => w.pid === pid)),
      JSON.stringify(claims),
    ).toBe(true);
    // One webhook delivery per published post, whichever worker delivered it.
    const received = await poll(
      () => receiver.received.filter((r) => r.path === '/hook'),
      (list) => list.length >= ids.length,
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    const ids2 = received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids2).size).toBe(ids2.length);
    await until(
      async () =>
        (await sql(`select count(*)::int as n from webhook_deliveries where status in ('pending', 'delivering')`))[0]!
          .n === 0,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(receiver.received.filter((r) => r.path === '/hook')).toHaveLength(ids.length);
  });

  it('spends one rate budget across both API processes through Redis', async () => {
    const [a, b] = [apis[0]!.url, apis[1]!.url];
    const key = await h.createKey(u);
    const spend = (base: string) => call(base, 'GET', '/billing/usage', undefined, { 'x-api-key': key } as never);
    for (let i = 0; i < RATE_LIMIT; i++) {
      const res = await spend(i % 2 ? b : a);
      expect(res.status, res.text).toBe(200);
    }
    // Each process has served only half of the budget; the shared count is spent on both.
    expect((await spend(a)).status).toBe(429);
    expect((await spend(b)).status).toBe(429);
  });

  // Every process that runs the sync enqueues the next round itself, and each starts one at boot: the sends carry
  // pg-boss's throttle window (singletonSeconds) as well as the round's key, so the copies collapse into one job.
  it('runs each round of the comment sync once across the two workers', async () => {
    const rounds = async () =>
      sql(
        `select singleton_key as slot, count(*)::int as runs, count(*) filter (where state = 'completed')::int as done
           from pgboss.job where name = 'herald-comment-sync' group by singleton_key`,
      );
    const seen = await poll(rounds, (r) => r.filter((x) => Number(x.done) > 0).length >= 3, {
      timeoutMs: 120_000,
      intervalMs: 500,
    });
    expect(seen.filter((r) => Number(r.runs) !== 1)).toEqual([]);
  });
});
