// The contract every media storage backend (local disk, S3-compatible) fulfils.
import type { Readable } from 'node:stream';

export interface PutOptions {
  contentType: string;
  /** When given, an upload of any other length fails and stores nothing. */
  contentLength?: number;
}

export interface PutResult {
  size: number;
  /** Quoted, ready for an HTTP ETag header. */
  etag?: string;
}

/** Inclusive byte positions, as in an HTTP Range header. `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface ObjectInfo {
  /** Size of the whole object, even when a range was read. */
  size: number;
  contentType?: string;
  etag?: string;
}

export interface GetResult extends ObjectInfo {
  body: Readable;
  /** The inclusive range actually returned, when a range was asked for (clamped to the object). */
  range?: { start: number; end: number };
}

export interface MediaStorage {
  put(key: string, body: Readable, opts: PutOptions): Promise<PutResult>;
  /** Throws ObjectNotFoundError when the key does not exist, RangeNotSatisfiableError for a range past the end. */
  get(key: string, range?: ByteRange): Promise<GetResult>;
  /** Resolves null when the key does not exist. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Succeeds whether or not the key existed. */
  delete(key: string): Promise<void>;
  publicUrl(key: string): string;
  /**
   * The keys that start with `prefix`. Only a store every instance shares (S3) has it: resumable uploads then keep
   * their chunks in it instead of one instance's data directory (media/chunk-store.ts).
   */
  keysUnder?(prefix: string): Promise<string[]>;
}

export class ObjectNotFoundError extends Error {
  readonly key: string;

  constructor(key: string) {
    super(`no stored object ${key}`);
    this.name = 'ObjectNotFoundError';
    this.key = key;
  }
}

export class RangeNotSatisfiableError extends Error {
  readonly size: number;

  constructor(size: number) {
    super(`range not satisfiable for an object of ${size} bytes`);
    this.name = 'RangeNotSatisfiableError';
    this.size = size;
  }
}

export class InvalidKeyError extends Error {
  constructor(key: string, why: string) {
    super(`invalid storage key ${JSON.stringify(key.slice(0, 200))}: ${why}`);
    this.name = 'InvalidKeyError';
  }
}

export class UploadSizeMismatchError extends Error {
  constructor(expected: number, actual: number) {
    super(`upload was ${actual} bytes, expected ${expected}`);
    this.name = 'UploadSizeMismatchError';
  }
}
