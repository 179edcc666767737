// Temporary files for uploads in flight. Every request body is written here before it is checked and
// stored, so nothing is held in memory whole; every path handed out is removed by whoever took it.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { noteStreamedBytes } from './gc.ts';

/** Thrown by a byte-limited write as soon as the stream passes the limit. */
export class TooLargeError extends Error {
  readonly limit: number;

  constructor(limit: number) {
    super(`more than ${limit} bytes`);
    this.name = 'TooLargeError';
    this.limit = limit;
  }
}

/**
 * Writes a stream to a file with vectored writes (the chunks queued while one write is in flight go
 * down in one call), counting bytes against a limit. With `flushEvery`, the written data is pushed
 * to disk in the background as it grows, so a final fsync (when the file becomes a stored object)
 * has little left to do and the disk works while the network is still delivering.
 */
class FileSink extends Writable {
  bytes = 0;
  readonly #handle: FileHandle;
  readonly #limit: number;
  readonly #flushEvery: number;
  #unflushed = 0;
  #flushing: Promise<void> | undefined;

  constructor(handle: FileHandle, limit: number, flushEvery: number) {
    super({ highWaterMark: 1024 * 1024 });
    this.#handle = handle;
    this.#limit = limit;
    this.#flushEvery = flushEvery;
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    let size = 0;
    for (const c of chunks) size += c.chunk.length;
    this.bytes += size;
    if (this.bytes > this.#limit) return callback(new TooLargeError(this.#limit));
    noteStreamedBytes(size);
    this.#handle.writev(chunks.map((c) => c.chunk)).then(() => {
      this.#unflushed += size;
      if (this.#flushEvery > 0 && this.#unflushed >= this.#flushEvery && !this.#flushing) {
        this.#unflushed = 0;
        this.#flushing = this.#handle
          .datasync()
          .catch(() => {})
          .finally(() => (this.#flushing = undefined));
      }
      callback();
    }, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    Promise.resolve(this.#flushing).then(() => callback(), callback);
  }
}

export class TempFiles {
  readonly dir: string;
  /** Default for write(): set when the files will be kept (renamed into disk storage), 0 otherwise. */
  readonly flushEvery: number;
  #ready: Promise<void> | undefined;

  constructor(dir: string, opts: { flushEvery?: number } = {}) {
    this.dir = dir;
    this.flushEvery = opts.flushEvery ?? 0;
  }

  async #ensure(): Promise<void> {
    this.#ready ??= mkdir(this.dir, { recursive: true }).then(() => undefined);
    return this.#ready;
  }

  /** A fresh path in the temp directory (the file is not created). */
  async path(suffix = ''): Promise<string> {
    await this.#ensure();
    return join(this.dir, `${randomUUID()}${suffix}`);
  }

  /**
   * Writes a stream to a new temp file, failing with TooLargeError past `maxBytes`. On any failure
   * the partial file is removed before the error is rethrown. `flushEvery` (bytes): see FileSink.
   */
  async write(
    body: Readable,
    maxBytes: number,
    opts: { flushEvery?: number } = {},
  ): Promise<{ path: string; size: number }> {
    const path = await this.path();
    let handle: FileHandle | undefined;
    try {
      handle = await open(path, 'wx');
      const sink = new FileSink(handle, maxBytes, opts.flushEvery ?? this.flushEvery);
      await pipeline(body, sink);
      await handle.close();
      return { path, size: sink.bytes };
    } catch (err) {
      await handle?.close().catch(() => {});
      await rm(path, { force: true });
      throw err;
    }
  }

  async remove(...paths: (string | undefined)[]): Promise<void> {
    await Promise.all(paths.filter((p): p is string => !!p).map((p) => rm(p, { force: true })));
  }

  /** Files left behind by a crash; removed at start-up when older than `olderThanMs`. */
  async sweep(olderThanMs: number, now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const p = join(this.dir, name);
      try {
        if (now - (await stat(p)).mtimeMs > olderThanMs) {
          await rm(p, { force: true, recursive: true });
          removed++;
        }
      } catch {
        /* already gone */
      }
    }
    return removed;
  }
}
