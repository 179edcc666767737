// Where the chunks of a resumable upload (uploads.ts) wait until it completes. With media on disk, in the data
// directory (<data dir>/uploads/<upload_id>/<n>); with a store every instance shares (S3), in it, under
// uploads/<upload_id>/<n>: instances behind one address then share nothing but the database, the bucket and Redis,
// and the chunks of one upload may reach different instances.
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { isUuid } from './records.ts';
import type { MediaStorage } from './storage/index.ts';

export interface ChunkStore {
  /** Where they are, for the logs and the docs: a directory or a key prefix. */
  readonly location: string;
  /** Called when the session starts (the directory of its chunks is made then). */
  prepare(uploadId: string): Promise<void>;
  /** Stores chunk `n` from a temp file, which is consumed. Storing a chunk again replaces it. */
  put(uploadId: string, n: number, file: { path: string; size: number }): Promise<void>;
  /** The stored chunk's size, or -1 when there is none. */
  size(uploadId: string, n: number): Promise<number>;
  open(uploadId: string, n: number): Promise<Readable>;
  /** Removes every chunk of the upload; none stored is fine. */
  remove(uploadId: string): Promise<void>;
}

export function chunkStoreFor(storage: MediaStorage, dataDir: string): ChunkStore {
  return storage.keysUnder ? new StoredChunks(storage) : new DiskChunks(join(dataDir, 'uploads'));
}

/** The ids come from the database, but a path or key is never built from anything else than a UUID. */
function checked(uploadId: string): string {
  if (!isUuid(uploadId)) throw new Error('not an upload id');
  return uploadId;
}

export class DiskChunks implements ChunkStore {
  readonly location: string;

  constructor(dir: string) {
    this.location = dir;
  }

  #path(uploadId: string, n?: number): string {
    const dir = join(this.location, checked(uploadId));
    return n === undefined ? dir : join(dir, String(n));
  }

  async prepare(uploadId: string): Promise<void> {
    await mkdir(this.#path(uploadId), { recursive: true });
  }

  async put(uploadId: string, n: number, file: { path: string }): Promise<void> {
    const target = this.#path(uploadId, n);
    // The session directory is made at init; a missing one (a restored or pruned data dir) is made again.
    await rename(file.path, target).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      await mkdir(this.#path(uploadId), { recursive: true });
      await rename(file.path, target);
    });
  }

  size(uploadId: string, n: number): Promise<number> {
    return stat(this.#path(uploadId, n)).then(
      (s) => s.size,
      () => -1,
    );
  }

  async open(uploadId: string, n: number): Promise<Readable> {
    return createReadStream(this.#path(uploadId, n));
  }

  async remove(uploadId: string): Promise<void> {
    await rm(this.#path(uploadId), { recursive: true, force: true });
  }
}

export class StoredChunks implements ChunkStore {
  readonly location = 'uploads/';
  readonly #storage: MediaStorage & { keysUnder(prefix: string): Promise<string[]> };

  constructor(storage: MediaStorage) {
    if (!storage.keysUnder) throw new Error('this media storage cannot list its keys');
    this.#storage = storage as MediaStorage & { keysUnder(prefix: string): Promise<string[]> };
  }

  async prepare(): Promise<void> {}

  #key(uploadId: string, n: number): string {
    return `uploads/${checked(uploadId)}/${n}`;
  }

  async put(uploadId: string, n: number, file: { path: string; size: number }): Promise<void> {
    await this.#storage.put(this.#key(uploadId, n), createReadStream(file.path), {
      contentType: 'application/octet-stream',
      contentLength: file.size,
    });
    await unlink(file.path).catch(() => {});
  }

  async size(uploadId: string, n: number): Promise<number> {
    return (await this.#storage.head(this.#key(uploadId, n)))?.size ?? -1;
  }

  async open(uploadId: string, n: number): Promise<Readable> {
    return (await this.#storage.get(this.#key(uploadId, n))).body;
  }

  async remove(uploadId: string): Promise<void> {
    const keys = await this.#storage.keysUnder(`uploads/${checked(uploadId)}/`);
    for (const key of keys) await this.#storage.delete(key);
  }
}
