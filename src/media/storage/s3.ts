// Stores media objects in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, OpenStack Swift s3api, ...).
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { assertValidKey, keyToUrlPath } from './keys.ts';
import {
  ObjectNotFoundError,
  RangeNotSatisfiableError,
  UploadSizeMismatchError,
  type ByteRange,
  type GetResult,
  type MediaStorage,
  type ObjectInfo,
  type PutOptions,
  type PutResult,
} from './types.ts';

export interface S3StorageConfig {
  bucket: string;
  region: string;
  /** For S3-compatible servers; omit for AWS. */
  endpoint?: string;
  /** Path-style URLs (endpoint/bucket/key), which most self-hosted servers need. */
  forcePathStyle?: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  /** Base URL the objects are publicly served from (a CDN, or the bucket's public URL). */
  publicBaseUrl: string;
  /** Multipart part size; S3 requires at least 5 MiB. Default 8 MiB. */
  partSizeBytes?: number;
  /** Parts uploaded at once (each held in memory). Default 2. */
  queueSize?: number;
}

/** Counts bytes, and fails the stream when the total differs from the announced length. */
class LengthCheck extends Transform {
  bytes = 0;
  readonly #expected: number | undefined;

  constructor(expected: number | undefined) {
    super();
    this.#expected = expected;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.#expected !== undefined && this.bytes > this.#expected)
      callback(new UploadSizeMismatchError(this.#expected, this.bytes));
    else callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    // Failing here, before the stream ends, makes the uploader abort instead of completing a short object.
    if (this.#expected !== undefined && this.bytes !== this.#expected)
      callback(new UploadSizeMismatchError(this.#expected, this.bytes));
    else callback();
  }
}

function status(err: unknown): number | undefined {
  return err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
}

function parseContentRange(value: string | undefined): { start: number; end: number; size: number } | undefined {
  const match = value && /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value);
  return match ? { start: Number(match[1]), end: Number(match[2]), size: Number(match[3]) } : undefined;
}

export class S3Storage implements MediaStorage {
  readonly client: S3Client;
  readonly #bucket: string;
  readonly #publicBaseUrl: string;
  readonly #partSize: number;
  readonly #queueSize: number;

  constructor(config: S3StorageConfig) {
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle ?? false,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Many S3-compatible servers reject the SDK's default CRC32 trailers on streamed bodies.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.#bucket = config.bucket;
    this.#publicBaseUrl = config.publicBaseUrl.replace(/\/+$/, '');
    this.#partSize = Math.max(config.partSizeBytes ?? 8 * 1024 * 1024, 5 * 1024 * 1024);
    this.#queueSize = config.queueSize ?? 2;
  }

  async put(key: string, body: Readable, opts: PutOptions): Promise<PutResult> {
    assertValidKey(key);
    const counted = new LengthCheck(opts.contentLength);
    body.on('error', (err) => counted.destroy(err));
    body.pipe(counted);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.#bucket, Key: key, Body: counted, ContentType: opts.contentType },
      partSize: this.#partSize,
      queueSize: this.#queueSize,
      // A failed or aborted stream aborts the multipart upload, so no parts linger and are billed.
      leavePartsOnError: false,
    });
    try {
      const result = await upload.done();
      return result.ETag ? { size: counted.bytes, etag: result.ETag } : { size: counted.bytes };
    } finally {
      if (!body.readableEnded) body.destroy();
    }
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    assertValidKey(key);
    if (
      range &&
      (!Number.isSafeInteger(range.start) || range.start < 0 || (range.end !== undefined && range.end < range.start))
    ) {
      throw new RangeNotSatisfiableError((await this.head(key))?.size ?? 0);
    }
    let res: GetObjectCommandOutput;
    try {
      res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
    } catch (err) {
      if (status(err) === 404) throw new ObjectNotFoundError(key);
      if (status(err) === 416) throw new RangeNotSatisfiableError((await this.head(key))?.size ?? 0);
      throw err;
    }
    const body = res.Body;
    if (!(body instanceof Readable)) throw new Error('S3 client returned a non-stream body');
    const info: ObjectInfo = { size: res.ContentLength ?? 0 };
    if (res.ContentType) info.contentType = res.ContentType;
    if (res.ETag) info.etag = res.ETag;
    if (!range) return { ...info, body };
    const served = parseContentRange(res.ContentRange);
    if (!served) {
      body.destroy();
      throw new Error('the storage server ignored the Range request');
    }
    return { ...info, size: served.size, range: { start: served.start, end: served.end }, body };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      const info: ObjectInfo = { size: res.ContentLength ?? 0 };
      if (res.ContentType) info.contentType = res.ContentType;
      if (res.ETag) info.etag = res.ETag;
      return info;
    } catch (err) {
      if (status(err) === 404) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
    } catch (err) {
      if (status(err) !== 404) throw err;
    }
  }

  publicUrl(key: string): string {
    return `${this.#publicBaseUrl}/${keyToUrlPath(key)}`;
  }

  async keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of res.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  /** Closes the client's connection pool. */
  close(): void {
    this.client.destroy();
  }
}
