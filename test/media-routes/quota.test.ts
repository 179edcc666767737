// The per-workspace storage quota (plan limit storage_bytes): direct uploads, URL imports, batches and
// chunked uploads (reserved at init, checked on every chunk), and what GET /billing/usage shows.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from '../../src/db/orm.ts';
import { media } from '../../src/db/schema-media.ts';
import type { HostLookup } from '../../src/media/safe-fetch.ts';
import { restrictedPlansFile } from '../helpers/security-matrix.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { makeCert, startServer, type RunningServer } from '../media/helpers/test-server.ts';
import { filesUnder, mediaDirs, mp4, multipart, png, upload } from './helpers.ts';

const MiB = 1024 * 1024;
let h: Harness;
let server: RunningServer;
let image: Buffer;
let video: Buffer;
let fetched = 0;
let base: string;

const plan = (storage_bytes: number | null) => ({ display_name: 'quota test', limits: { storage_bytes } });

beforeAll(async () => {
  image = await png(64, 48);
  video = await mp4({ mdatBytes: Math.round(2.5 * MiB), width: 640, height: 360, durationSec: 10 });
  const dir = mkdtempSync(join(tmpdir(), 'herald-quota-'));
  const plansFile = join(dir, 'plans.json');
  // Room for two images but not three; for the video and a little more; nothing at all.
  writeFileSync(
    plansFile,
    JSON.stringify({
      plans: {
        ...restrictedPlansFile.plans,
        two_images: plan(image.length * 2 + 10),
        video_plus: plan(4 * MiB),
        two_mib: plan(2 * MiB),
        none: plan(0),
        unlimited: plan(null),
      },
    }),
  );
  const cert = makeCert(['media.test']);
  server = await startServer((_req, res) => {
    fetched++;
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length }).end(image);
  }, cert);
  base = `https://media.test:${server.port}`;
  const lookup: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];
  h = await createHarness({
    env: {
      HERALD_PLANS_FILE: plansFile,
      HERALD_FETCH_ALLOW_HOSTS: 'media.test',
      HERALD_MEDIA_MAX_VIDEO_BYTES: String(64 * MiB),
    },
    overrides: { media: { fetch: { lookup, ca: cert.cert } } },
  });
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});

const uploadImage = (u: TestUser) =>
  upload(h, asUser(u), [
    { name: 'media_type', value: 'image' },
    { name: 'media', filename: 'pic.png', data: image },
  ]);
const usage = async (u: TestUser) => (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json();
const objectsOf = (u: TestUser) =>
  filesUnder(mediaDirs(h).objects).filter((f) => f.includes(u.workspaceId) && !f.includes('.meta'));
const mediaRows = async (u: TestUser) =>
  h.ctx.database.db.select().from(media).where(eq(media.workspaceId, u.workspaceId));

function expectStorageLimit(res: { statusCode: number; json(): { detail: unknown } }, limit: number) {
  expect(res.statusCode).toBe(403);
  expect(res.json().detail).toMatchObject({
    error: 'storage_limit',
    limit,
    used: expect.any(Number),
    requested: expect.any(Number),
    message: expect.stringContaining('Storage limit reached'),
  });
}

describe('storage quota', () => {
  it('direct uploads stop at the limit with 403 storage_limit and leave no file behind; usage shows it', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'two_images');
    const limit = image.length * 2 + 10;
    expect((await uploadImage(u)).statusCode).toBe(200);
    expect((await uploadImage(u)).statusCode).toBe(200);
    const before = objectsOf(u).length;
    const refused = await uploadImage(u);
    expectStorageLimit(refused, limit);
    expect(refused.json().detail).toMatchObject({ used: image.length * 2, requested: image.length });
    expect(objectsOf(u)).toHaveLength(before);
    expect(await mediaRows(u)).toHaveLength(2);
    const report = await usage(u);
    expect(report.limits.storage_bytes).toBe(limit);
    expect(report.usage_counts).toMatchObject({ storage_bytes: image.length * 2, storage_reserved_bytes: 0 });
    expect(report.remaining.storage_bytes).toBe(10);
    // Deleting media frees room again.
    const id = (await mediaRows(u))[0]!.id;
    expect((await h.req({ method: 'DELETE', url: `/media/${id}`, headers: asUser(u) })).statusCode).toBe(200);
    expect((await uploadImage(u)).statusCode).toBe(200);
  });

  it('a batch stores what fits and reports the rest', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'two_images');
    const parts = [
      { name: 'media_type', value: 'images' },
      ...[1, 2, 3].map((i) => ({ name: 'images', filename: `p${i}.png`, data: image })),
    ];
    const res = await upload(h, asUser(u), parts);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ uploaded_count: 2, failed_count: 1 });
    expect(res.json().errors[0].error).toContain('Storage limit reached');
    expect(await mediaRows(u)).toHaveLength(2);
  });

  it('URL imports are refused before downloading when the workspace is full, and checked against the room left', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'none');
    const seen = fetched;
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'media_url', value: `${base}/img/a.png` },
    ]);
    expectStorageLimit(res, 0);
    expect(fetched).toBe(seen);
    await h.setPlan(u.workspaceId, 'two_images');
    const ok = await h.req({
      method: 'POST',
      url: '/media/upload',
      headers: asUser(u),
      payload: { media_type: 'images', image_urls: [1, 2, 3].map((i) => `${base}/img/${i}.png`) },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ uploaded_count: 2, failed_count: 1 });
  });

  it('chunked uploads reserve their declared size at init and every chunk is checked, so they cannot fill the disk', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'video_plus');
    const headers = asUser(u);
    const init = (file_size: number) =>
      h.req({
        method: 'POST',
        url: '/media/storage/init',
        headers,
        payload: { filename: 'v.mp4', file_size, total_chunks: Math.ceil(file_size / MiB) },
      });
    expectStorageLimit(await init(5 * MiB), 4 * MiB);
    const started = await init(video.length);
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().upload_id;
    expect((await usage(u)).usage_counts).toMatchObject({ storage_bytes: 0, storage_reserved_bytes: video.length });
    // The reservation counts: a second upload that would not fit beside it is refused.
    expectStorageLimit(await init(2 * MiB), 4 * MiB);
    const chunk = (n: number) => {
      const body = multipart([
        { name: 'upload_id', value: id },
        { name: 'chunk_number', value: String(n) },
        { name: 'file', filename: 'blob', data: video.subarray((n - 1) * MiB, n * MiB) },
      ]);
      return h.req({
        method: 'POST',
        url: '/media/storage/chunk',
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
    };
    expect((await chunk(1)).statusCode).toBe(200);
    // The plan shrinks under a running upload: the next chunk is refused.
    await h.setPlan(u.workspaceId, 'two_mib');
    expectStorageLimit(await chunk(2), 2 * MiB);
    await h.setPlan(u.workspaceId, 'video_plus');
    expect((await chunk(2)).statusCode).toBe(200);
    expect((await chunk(3)).statusCode).toBe(200);
    const done = await h.req({ method: 'POST', url: '/media/storage/complete', headers, payload: { upload_id: id } });
    expect(done.statusCode, done.body).toBe(200);
    // Completing turns the reservation into stored bytes without counting them twice.
    expect((await usage(u)).usage_counts).toMatchObject({ storage_bytes: video.length, storage_reserved_bytes: 0 });
  });

  it('the default plans have a quota; null means unlimited', async () => {
    const u = await h.signup();
    expect((await usage(u)).limits.storage_bytes).toBe(100 * 1024 * MiB); // Pro
    await h.setPlan(u.workspaceId, 'unlimited');
    expect((await uploadImage(u)).statusCode).toBe(200);
    const report = await usage(u);
    expect(report.limits.storage_bytes).toBeNull();
    expect(report.remaining.storage_bytes).toBeNull();
    expect(report.usage_counts.storage_bytes).toBe(image.length);
  });
});
