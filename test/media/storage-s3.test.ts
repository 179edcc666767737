// The S3 adapter against a real S3-compatible server: OpenStack Swift's s3api on loopback.
// Never skipped: when Swift cannot be installed or started, every test here fails with the reason.
import { CreateBucketCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage, type S3StorageConfig } from '../../src/media/storage/s3.ts';
import { UploadSizeMismatchError } from '../../src/media/storage/types.ts';
import { expectByteRanges, expectRoundTrip } from './helpers/storage-contract.ts';
import { startSwift, type SwiftS3, swiftAdmin } from '../helpers/swift.ts';

const BUCKET = 'herald-media';
const MiB = 1024 * 1024;

let swift: SwiftS3 | undefined;
let storage: S3Storage;
let admin: S3Client;

function config(extra: Partial<S3StorageConfig> = {}): S3StorageConfig {
  if (!swift) throw new Error('Swift is not running');
  return {
    bucket: BUCKET,
    region: swift.region,
    endpoint: swift.endpoint,
    forcePathStyle: true,
    accessKeyId: swift.accessKeyId,
    secretAccessKey: swift.secretAccessKey,
    publicBaseUrl: 'https://cdn.herald.example',
    partSizeBytes: 5 * MiB,
    ...extra,
  };
}

/** Deterministic pseudo-random bytes, produced chunk by chunk so nothing holds the whole body. */
function generated(total: number, failAfter?: number): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  let sent = 0;
  let seed = 0x9e3779b9;
  const stream = new Readable({
    read() {
      if (failAfter !== undefined && sent >= failAfter) {
        this.destroy(new Error('uploader disconnected'));
        return;
      }
      if (sent >= total) {
        this.push(null);
        return;
      }
      const chunk = Buffer.alloc(Math.min(256 * 1024, total - sent));
      for (let i = 0; i < chunk.length; i += 4) {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        chunk.writeUInt32LE(seed, i);
      }
      sent += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, sha256: () => hash.digest('hex') };
}

async function sha256Of(stream: Readable): Promise<{ hex: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { hex: hash.digest('hex'), bytes };
}

async function openUploads(): Promise<string[]> {
  const res = await admin.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }));
  return (res.Uploads ?? []).map((u) => u.Key ?? '');
}

beforeAll(async () => {
  swift = await startSwift();
  console.log(`[herald tests] Swift s3api ready at ${swift.endpoint} in ${swift.startupMs} ms`);
  admin = swiftAdmin(swift);
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
  storage = new S3Storage(config());
}, 600_000);

afterAll(async () => {
  storage?.close();
  admin?.destroy();
  await swift?.stop();
});

describe('S3Storage on Swift s3api', () => {
  const key = 'ws1/library/AbCdEfGhIjKlMnOpQrStUv/photo.png';

  it('stores, reads, heads and deletes an object', async () => {
    await expectRoundTrip(storage, key);
  });

  it('serves byte ranges', async () => {
    await expectByteRanges(storage, key);
    await storage.delete(key);
  });

  it('streams a 20 MB upload as a multipart upload', async () => {
    const big = 'ws1/library/BigBigBigBigBigBigBigBig/video.mp4';
    const source = generated(20 * MiB);
    const put = await storage.put(big, source.stream, { contentType: 'video/mp4', contentLength: 20 * MiB });
    expect(put.size).toBe(20 * MiB);
    expect(put.etag).toMatch(/-4"$/); // four 5 MiB parts
    expect(await storage.head(big)).toMatchObject({ size: 20 * MiB, contentType: 'video/mp4' });
    const back = await sha256Of((await storage.get(big)).body);
    expect(back).toEqual({ hex: source.sha256(), bytes: 20 * MiB });
    const range = await storage.get(big, { start: 6 * MiB, end: 6 * MiB + 99 });
    expect((await sha256Of(range.body)).bytes).toBe(100);
    await storage.delete(big);
    expect(await storage.head(big)).toBeNull();
  });

  it('aborts the multipart upload when the stream fails midway, leaving nothing', async () => {
    const broken = 'ws1/library/BrokenBrokenBrokenBroken/video.mp4';
    const source = generated(30 * MiB, 12 * MiB); // two parts are sent before the failure
    await expect(storage.put(broken, source.stream, { contentType: 'video/mp4' })).rejects.toThrow(
      'uploader disconnected',
    );
    expect(await storage.head(broken)).toBeNull();
    expect(await openUploads()).not.toContain(broken);
  });

  it('stores nothing when a small upload stream fails', async () => {
    const small = 'ws1/library/SmallSmallSmallSmallSm/photo.png';
    await expect(storage.put(small, generated(MiB, 300 * 1024).stream, { contentType: 'image/png' })).rejects.toThrow(
      'uploader disconnected',
    );
    expect(await storage.head(small)).toBeNull();
  });

  it('refuses an upload shorter than its announced length', async () => {
    const short = 'ws1/library/ShortShortShortShortSh/photo.png';
    await expect(
      storage.put(short, Readable.from([Buffer.from('12345')]), { contentType: 'image/png', contentLength: 9 }),
    ).rejects.toBeInstanceOf(UploadSizeMismatchError);
    expect(await storage.head(short)).toBeNull();
  });

  it('is refused with a wrong secret', async () => {
    const intruder = new S3Storage(config({ secretAccessKey: 'not-the-secret' }));
    try {
      await expect(
        intruder.put(key, Readable.from([Buffer.from('x')]), { contentType: 'image/png' }),
      ).rejects.toMatchObject({
        $metadata: { httpStatusCode: 403 },
      });
      await expect(intruder.head(key)).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    } finally {
      intruder.close();
    }
    expect(await storage.head(key)).toBeNull();
  });

  it('builds public URLs under the configured base', () => {
    expect(storage.publicUrl(key)).toBe(`https://cdn.herald.example/${key}`);
  });
});
