// The same routes with HERALD_STORAGE=s3, against a real S3-compatible server (Swift s3api on loopback).
import { CreateBucketCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { startSwift, type SwiftS3, swiftAdmin } from '../helpers/swift.ts';
import { filesUnder, mediaDirs, mp4, multipart, png, upload } from './helpers.ts';

const BUCKET = 'herald-routes';
const PUBLIC = 'https://cdn.herald.example/media';
let swift: SwiftS3;
let admin: S3Client;
let h: Harness;

beforeAll(async () => {
  swift = await startSwift();
  admin = swiftAdmin(swift);
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
  h = await createHarness({
    env: {
      HERALD_STORAGE: 's3',
      HERALD_S3_BUCKET: BUCKET,
      HERALD_S3_REGION: swift.region,
      HERALD_S3_ENDPOINT: swift.endpoint,
      HERALD_S3_FORCE_PATH_STYLE: 'true',
      HERALD_S3_ACCESS_KEY_ID: swift.accessKeyId,
      HERALD_S3_SECRET_ACCESS_KEY: swift.secretAccessKey,
      HERALD_S3_PUBLIC_URL: PUBLIC,
    },
  });
}, 600_000);
afterAll(async () => {
  await h?.close();
  admin?.destroy();
  await swift?.stop();
});

const exists = (key: string) =>
  admin.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
    (r) => r.ContentType,
    (err: { $metadata?: { httpStatusCode?: number } }) => {
      if (err.$metadata?.httpStatusCode === 404) return null;
      throw err;
    },
  );

describe('HERALD_STORAGE=s3', () => {
  it('stores uploads in the bucket, serves them from HERALD_S3_PUBLIC_URL, deletes them there', async () => {
    const u = await h.signup();
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'p.png', data: await png() },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const url: string = res.json().public_url;
    expect(url.startsWith(`${PUBLIC}/${u.workspaceId}/library/`)).toBe(true);
    const key = url.slice(PUBLIC.length + 1);
    expect(await exists(key)).toBe('image/png');
    // Herald does not serve S3 objects itself.
    expect((await h.req({ method: 'GET', url: `/storage/${key}` })).statusCode).toBe(404);
    expect(
      (await h.req({ method: 'DELETE', url: `/media/${res.json().media_id}`, headers: asUser(u) })).statusCode,
    ).toBe(200);
    expect(await exists(key)).toBeNull();
    expect(filesUnder(mediaDirs(h).temp)).toEqual([]);
  });

  it('keeps the chunks of a resumable upload in the bucket and assembles them there', async () => {
    const u = await h.signup();
    const video = await mp4({ mdatBytes: 1_500_000 });
    const init = await h.req({
      method: 'POST',
      url: '/media/storage/init',
      headers: asUser(u),
      payload: { filename: 'v.mp4', file_size: video.length, total_chunks: 2 },
    });
    const id = init.json().upload_id;
    for (const n of [1, 2]) {
      const body = multipart([
        { name: 'upload_id', value: id },
        { name: 'chunk_number', value: String(n) },
        { name: 'file', filename: 'b', data: video.subarray((n - 1) * 1048576, n * 1048576) },
      ]);
      expect(
        (
          await h.req({
            method: 'POST',
            url: '/media/storage/chunk',
            headers: { ...asUser(u), ...body.headers },
            payload: body.payload,
          })
        ).statusCode,
      ).toBe(200);
    }
    // The chunks wait in the bucket, which every instance shares, not in this instance's data directory.
    expect(await exists(`uploads/${id}/1`)).toBe('application/octet-stream');
    expect(await exists(`uploads/${id}/2`)).toBe('application/octet-stream');
    expect(filesUnder(mediaDirs(h).chunks)).toEqual([]);
    const done = await h.req({
      method: 'POST',
      url: '/media/storage/complete',
      headers: asUser(u),
      payload: { upload_id: id },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await exists(done.json().public_url.slice(PUBLIC.length + 1))).toBe('video/mp4');
    expect(await exists(`uploads/${id}/1`)).toBeNull();
    expect(await exists(`uploads/${id}/2`)).toBeNull();
  });
});
