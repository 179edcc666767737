import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from '../../src/db/orm.ts';
import { media, uploadSessions } from '../../src/db/schema-media.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connectAccount, filesUnder, mediaDirs, mp4, multipart, storagePath } from './helpers.ts';

const MiB = 1024 * 1024;
let h: Harness;
let now = new Date('2026-03-01T12:00:00Z');
let video: Buffer;

beforeAll(async () => {
  video = await mp4({ mdatBytes: Math.round(2.5 * MiB), width: 1920, height: 1080, durationSec: 30 });
  h = await createHarness({
    clock: () => now,
    env: { HERALD_UPLOAD_SESSION_TTL_SECONDS: '3600', HERALD_MEDIA_MAX_VIDEO_BYTES: String(64 * MiB) },
  });
});
afterAll(async () => h?.close());

const chunkOf = (bytes: Buffer, n: number) => bytes.subarray((n - 1) * MiB, n * MiB);

async function init(u: TestUser, body: Record<string, unknown> = {}, headers: Record<string, string> = asUser(u)) {
  return h.req({
    method: 'POST',
    url: '/media/storage/init',
    headers,
    payload: { filename: 'Big Video.mp4', file_size: video.length, total_chunks: 3, ...body },
  });
}

async function sendChunk(headers: Record<string, string>, uploadId: string, n: number | string, data: Buffer) {
  const body = multipart([
    { name: 'upload_id', value: uploadId },
    { name: 'chunk_number', value: String(n) },
    { name: 'file', filename: 'blob', data },
  ]);
  return h.req({
    method: 'POST',
    url: '/media/storage/chunk',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

const progress = (headers: Record<string, string>, id: string) =>
  h.req({ method: 'GET', url: `/media/storage/progress?upload_id=${id}`, headers });
const complete = (headers: Record<string, string>, payload: Record<string, unknown>) =>
  h.req({ method: 'POST', url: '/media/storage/complete', headers, payload });

describe('chunked upload', () => {
  it('init → chunks in any order (repeatable) → complete → media record; chunks are removed', async () => {
    const u = await h.signup();
    const started = await init(u);
    expect(started.statusCode, started.body).toBe(200);
    const { upload_id: id, chunk_size } = started.json();
    expect(chunk_size).toBe(1048576);
    expect((await progress(asUser(u), id)).json()).toMatchObject({
      upload_id: id,
      uploaded_chunks: 0,
      total_chunks: 3,
      status: 'pending',
      missing_chunks: [1, 2, 3],
    });

    for (const n of [3, 1])
      expect((await sendChunk(asUser(u), id, n, chunkOf(video, n))).json()).toEqual({ success: true });
    // The same chunk again is accepted and changes nothing.
    expect((await sendChunk(asUser(u), id, 1, chunkOf(video, 1))).statusCode).toBe(200);
    expect((await progress(asUser(u), id)).json()).toMatchObject({
      uploaded_chunks: 2,
      status: 'uploading',
      missing_chunks: [2],
    });
    await sendChunk(asUser(u), id, 2, chunkOf(video, 2));
    expect((await progress(asUser(u), id)).json()).toMatchObject({ uploaded_chunks: 3, status: 'ready' });

    const done = await complete(asUser(u), { upload_id: id });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      success: true,
      message: 'Media uploaded successfully',
      upload_id: id,
      media_type: 'video',
      file_size: video.length,
      width: 1920,
      height: 1080,
      duration: 30,
      filename: 'Big-Video.mp4',
      original_filename: 'Big Video.mp4',
    });
    const served = await h.req({ method: 'GET', url: storagePath(done.json().public_url) });
    expect(served.rawPayload.equals(video)).toBe(true);
    expect((await progress(asUser(u), id)).json()).toMatchObject({
      status: 'complete',
      uploaded_chunks: 3,
      media_id: done.json().media_id,
    });
    expect(filesUnder(mediaDirs(h).chunks)).toEqual([]);
    expect(filesUnder(mediaDirs(h).temp)).toEqual([]);
    // Completing again answers the same record.
    expect((await complete(asUser(u), { upload_id: id })).json().media_id).toBe(done.json().media_id);
  });

  it('validates init: total_chunks, media_type, size limit, unconnected platform', async () => {
    const u = await h.signup();
    const wrong = await init(u, { total_chunks: 2 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail[0]).toMatchObject({
      loc: ['body', 'total_chunks'],
      msg: expect.stringContaining('= 3'),
    });
    expect((await init(u, { media_type: 'audio' })).statusCode).toBe(422);
    expect((await init(u, { file_size: 0, total_chunks: 0 })).statusCode).toBe(422);
    const tooBig = await init(u, { file_size: 65 * MiB, total_chunks: 65 });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().detail).toContain('64 MiB');
    const unconnected = await init(u, { platform: 'youtube' });
    expect(unconnected.statusCode).toBe(400);
    expect(unconnected.json().detail.error).toBe('NOT_CONNECTED');
  });

  it('refuses out-of-range numbers and wrong sizes with 422', async () => {
    const u = await h.signup();
    const id = (await init(u)).json().upload_id;
    for (const n of [0, 4, -1, 'x']) {
      const res = await sendChunk(asUser(u), id, n, chunkOf(video, 1));
      expect(res.statusCode, String(n)).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', 'chunk_number']);
    }
    const short = await sendChunk(asUser(u), id, 1, chunkOf(video, 1).subarray(0, 1000));
    expect(short.statusCode).toBe(422);
    expect(short.json().detail[0]).toMatchObject({
      loc: ['body', 'file'],
      msg: 'Chunk 1 must be exactly 1048576 bytes (got 1000).',
    });
    const lastTooLong = await sendChunk(asUser(u), id, 3, chunkOf(video, 2));
    expect(lastTooLong.statusCode).toBe(422);
    const oversized = await sendChunk(asUser(u), id, 1, Buffer.concat([chunkOf(video, 1), Buffer.alloc(10)]));
    expect(oversized.statusCode, oversized.body).toBe(422);
    const noFile = multipart([
      { name: 'upload_id', value: id },
      { name: 'chunk_number', value: '1' },
    ]);
    const missingFields = await h.req({
      method: 'POST',
      url: '/media/storage/chunk',
      headers: { ...asUser(u), ...noFile.headers },
      payload: noFile.payload,
    });
    expect(missingFields.statusCode).toBe(422);
    expect(missingFields.json().detail[0]).toMatchObject({ loc: ['body', 'file'], type: 'missing' });
    expect((await progress(asUser(u), id)).json().uploaded_chunks).toBe(0);
    expect(filesUnder(mediaDirs(h).temp)).toEqual([]);
  });

  it('resumes: complete with chunks missing names them, and succeeds once they are sent', async () => {
    const u = await h.signup();
    const id = (await init(u)).json().upload_id;
    await sendChunk(asUser(u), id, 1, chunkOf(video, 1));
    await sendChunk(asUser(u), id, 3, chunkOf(video, 3));
    const early = await complete(asUser(u), { upload_id: id });
    expect(early.statusCode).toBe(422);
    expect(early.json().detail[0]).toMatchObject({
      loc: ['body', 'upload_id'],
      type: 'missing_chunks',
      msg: expect.stringContaining('1 chunk(s) missing: 2'),
    });
    expect((await progress(asUser(u), id)).json()).toMatchObject({ status: 'uploading', missing_chunks: [2] });
    await sendChunk(asUser(u), id, 2, chunkOf(video, 2));
    expect((await complete(asUser(u), { upload_id: id })).statusCode).toBe(200);
  });

  it('platform at complete must match init', async () => {
    const u = await h.signup();
    const account = await connectAccount(h, u, 'instagram');
    const id = (await init(u, { platform: 'instagram' })).json().upload_id;
    for (let n = 1; n <= 3; n++) await sendChunk(asUser(u), id, n, chunkOf(video, n));
    const mismatch = await complete(asUser(u), { upload_id: id, platform: 'tiktok' });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().detail[0]).toMatchObject({
      loc: ['body', 'platform'],
      msg: 'platform must match the one given at init (instagram).',
    });
    expect((await complete(asUser(u), { upload_id: id, media_type: 'image' })).statusCode).toBe(422);
    const ok = await complete(asUser(u), { upload_id: id, platform: 'instagram' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ platform: 'instagram', platform_user_id: account });
  });

  it('content checks at complete: bytes that are not a video fail the session for good', async () => {
    const u = await h.signup();
    const junk = Buffer.alloc(MiB + 10, 7);
    const id = (
      await h.req({
        method: 'POST',
        url: '/media/storage/init',
        headers: asUser(u),
        payload: { filename: 'x.mp4', file_size: junk.length, total_chunks: 2 },
      })
    ).json().upload_id;
    await sendChunk(asUser(u), id, 1, junk.subarray(0, MiB));
    await sendChunk(asUser(u), id, 2, junk.subarray(MiB));
    const res = await complete(asUser(u), { upload_id: id });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].type).toBe('media_format');
    expect((await progress(asUser(u), id)).json()).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('Unsupported file format'),
    });
    expect((await sendChunk(asUser(u), id, 1, junk.subarray(0, MiB))).statusCode).toBe(409);
    expect(filesUnder(mediaDirs(h).chunks)).toEqual([]);
    expect(await h.ctx.database.db.select().from(media).where(eq(media.workspaceId, u.workspaceId))).toEqual([]);
  });

  it('sessions expire: progress says expired, chunks and complete answer 409, the sweep frees the chunks', async () => {
    const u = await h.signup();
    const id = (await init(u)).json().upload_id;
    await sendChunk(asUser(u), id, 1, chunkOf(video, 1));
    now = new Date(now.getTime() + 3601 * 1000);
    expect((await progress(asUser(u), id)).json()).toMatchObject({ status: 'expired', uploaded_chunks: 1 });
    const late = await sendChunk(asUser(u), id, 2, chunkOf(video, 2));
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toContain('has expired');
    expect((await complete(asUser(u), { upload_id: id })).statusCode).toBe(409);
    expect(await h.ctx.uploads.sweep()).toBeGreaterThanOrEqual(1);
    expect(filesUnder(mediaDirs(h).chunks).filter((f) => f.includes(id))).toEqual([]);
    const [row] = await h.ctx.database.db.select().from(uploadSessions).where(eq(uploadSessions.id, id));
    expect(row!.status).toBe('expired');
  });

  it("another workspace's upload_id is 404 on every route; a key outside the session's platform is 403", async () => {
    const u = await h.signup();
    const stranger = await h.signup();
    await connectAccount(h, u, 'pinterest');
    const id = (await init(u, { platform: 'pinterest' })).json().upload_id;
    expect((await sendChunk(asUser(stranger), id, 1, chunkOf(video, 1))).statusCode).toBe(404);
    expect((await progress(asUser(stranger), id)).statusCode).toBe(404);
    expect((await complete(asUser(stranger), { upload_id: id })).statusCode).toBe(404);
    expect((await progress(asUser(u), 'not-a-uuid')).statusCode).toBe(404);
    const key = await h.createKey(u, 'linkedin');
    const denied = await sendChunk({ 'x-api-key': key }, id, 1, chunkOf(video, 1));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toContain("'pinterest'");
    expect((await init(u, { platform: 'pinterest' }, { 'x-api-key': key })).statusCode).toBe(403);
  });

  it('refuses a chunk body far over 1 MiB from its Content-Length alone', async () => {
    const u = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: '/media/storage/chunk',
      headers: { ...asUser(u), 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(5 * MiB) },
      payload: 'x',
    });
    expect(res.statusCode).toBe(413);
  });
});
