// Stores media objects as files under one root directory.
// Layout: <root>/<key> holds the bytes, <root>/.meta/<key>.json the content type and ETag,
// <root>/.tmp/ uploads in progress. Keys cannot start a segment with ".", so these never collide.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, rmdir, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

export interface DiskStorageConfig {
  /** Directory that holds every object; created when missing. */
  root: string;
  /** Base URL under which the HTTP layer serves the objects, e.g. https://herald.example/media */
  publicBaseUrl: string;
}

interface Sidecar {
  contentType: string;
  etag: string;
  size: number;
}

const BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  avi: 'video/vnd.avi',
  mkv: 'video/matroska',
  webm: 'video/webm',
};

function typeFromName(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return BY_EXTENSION[ext] ?? 'application/octet-stream';
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

class CountingHash extends Transform {
  size = 0;
  readonly hash = createHash('md5');
  readonly #limit: number | undefined;

  constructor(limit: number | undefined) {
    super();
    this.#limit = limit;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.#limit !== undefined && this.size > this.#limit) {
      callback(new UploadSizeMismatchError(this.#limit, this.size));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }
}

export class DiskStorage implements MediaStorage {
  readonly #root: string;
  readonly #publicBaseUrl: string;

  constructor(config: DiskStorageConfig) {
    this.#root = resolve(config.root);
    this.#publicBaseUrl = config.publicBaseUrl.replace(/\/+$/, '');
  }

  #paths(key: string): { data: string; meta: string } {
    assertValidKey(key);
    const data = resolve(this.#root, ...key.split('/'));
    // Validation already forbids traversal; this guards against any future loosening of it.
    if (!data.startsWith(this.#root + sep)) throw new Error('storage key escapes the root directory');
    return { data, meta: `${resolve(this.#root, '.meta', ...key.split('/'))}.json` };
  }

  async put(key: string, body: Readable, opts: PutOptions): Promise<PutResult> {
    const paths = this.#paths(key);
    const tmpDir = join(this.#root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmpData = join(tmpDir, randomUUID());
    const tmpMeta = `${tmpData}.json`;
    try {
      const counter = new CountingHash(opts.contentLength);
      // flush: the bytes reach the disk before the rename makes them visible.
      await pipeline(body, counter, createWriteStream(tmpData, { flags: 'wx', flush: true }));
      if (opts.contentLength !== undefined && counter.size !== opts.contentLength) {
        throw new UploadSizeMismatchError(opts.contentLength, counter.size);
      }
      const sidecar: Sidecar = {
        contentType: opts.contentType,
        etag: `"${counter.hash.digest('hex')}"`,
        size: counter.size,
      };
      await writeFile(tmpMeta, JSON.stringify(sidecar), { flag: 'wx' });
      await this.#moveIntoPlace(tmpMeta, paths.meta);
      await this.#moveIntoPlace(tmpData, paths.data);
      return { size: sidecar.size, etag: sidecar.etag };
    } catch (err) {
      await Promise.all([rm(tmpData, { force: true }), rm(tmpMeta, { force: true })]);
      throw err;
    }
  }

  /**
   * Takes a finished local file as the object by renaming it into place, so a gigabyte upload is not
   * copied a second time. The file is flushed first and is gone afterwards. When it lives on another
   * filesystem it is streamed through put() instead (and left for the caller to remove).
   */
  async putFile(key: string, path: string, opts: PutOptions): Promise<PutResult> {
    const paths = this.#paths(key);
    const handle = await open(path, 'r+');
    let size: number;
    try {
      size = (await handle.stat()).size;
      if (opts.contentLength !== undefined && size !== opts.contentLength)
        throw new UploadSizeMismatchError(opts.contentLength, size);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Objects are immutable under their random keys, so an ETag need only be unique, not a digest.
    const sidecar: Sidecar = {
      contentType: opts.contentType,
      etag: `"${size.toString(16)}-${randomUUID().replaceAll('-', '')}"`,
      size,
    };
    await mkdir(join(this.#root, '.tmp'), { recursive: true });
    const tmpMeta = join(this.#root, '.tmp', `${randomUUID()}.json`);
    try {
      await writeFile(tmpMeta, JSON.stringify(sidecar), { flag: 'wx' });
      await this.#moveIntoPlace(tmpMeta, paths.meta);
      await this.#moveIntoPlace(path, paths.data);
    } catch (err) {
      await rm(tmpMeta, { force: true });
      if ((err as NodeJS.ErrnoException).code === 'EXDEV') return this.put(key, createReadStream(path), opts);
      throw err;
    }
    return { size, etag: sidecar.etag };
  }

  async #moveIntoPlace(from: string, to: string): Promise<void> {
    // A concurrent delete may prune the freshly made directory; trying again recreates it.
    for (let attempt = 0; ; attempt++) {
      await mkdir(dirname(to), { recursive: true });
      try {
        await rename(from, to);
        return;
      } catch (err) {
        if (!isMissing(err) || attempt >= 3) throw err;
      }
    }
  }

  async #sidecar(metaPath: string, size: number, key: string): Promise<{ contentType: string; etag?: string }> {
    try {
      const meta = JSON.parse(await readFile(metaPath, 'utf8')) as Partial<Sidecar>;
      // A sidecar for another size belongs to a different version of the object (an interrupted overwrite).
      if (meta.size === size && typeof meta.contentType === 'string') {
        return typeof meta.etag === 'string'
          ? { contentType: meta.contentType, etag: meta.etag }
          : { contentType: meta.contentType };
      }
    } catch (err) {
      if (!isMissing(err) && !(err instanceof SyntaxError)) throw err;
    }
    return { contentType: typeFromName(key) };
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    const paths = this.#paths(key);
    let handle: FileHandle;
    try {
      handle = await open(paths.data, 'r');
    } catch (err) {
      if (isMissing(err)) throw new ObjectNotFoundError(key);
      throw err;
    }
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw new ObjectNotFoundError(key);
      const size = st.size;
      const meta = await this.#sidecar(paths.meta, size, key);
      if (!range) return { ...meta, size, body: handle.createReadStream() };
      const end = Math.min(range.end ?? size - 1, size - 1);
      if (!Number.isSafeInteger(range.start) || range.start < 0 || range.start >= size || end < range.start) {
        throw new RangeNotSatisfiableError(size);
      }
      return {
        ...meta,
        size,
        range: { start: range.start, end },
        body: handle.createReadStream({ start: range.start, end }),
      };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const paths = this.#paths(key);
    try {
      const st = await stat(paths.data);
      if (!st.isFile()) return null;
      return { size: st.size, ...(await this.#sidecar(paths.meta, st.size, key)) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const paths = this.#paths(key);
    await rm(paths.data, { force: true });
    await rm(paths.meta, { force: true });
    await Promise.all([
      this.#prune(dirname(paths.data), this.#root),
      this.#prune(dirname(paths.meta), join(this.#root, '.meta')),
    ]);
  }

  /** Removes directories left empty, up to (not including) the stop directory. */
  async #prune(dir: string, stop: string): Promise<void> {
    for (let current = dir; current.startsWith(stop + sep); current = dirname(current)) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty, already gone, or in use by a concurrent put
      }
    }
  }

  publicUrl(key: string): string {
    return `${this.#publicBaseUrl}/${keyToUrlPath(key)}`;
  }
}
