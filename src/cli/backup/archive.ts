// The backup archive: a gzipped tar written entry by entry (each file streamed from disk or from a stream, never
// held whole in memory), with the sha256 and size of every entry taken on the way; and the reader that walks an
// archive the same way, handing each entry's stream to a callback that hashes or stores it.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable, Transform, type TransformCallback, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Header, Parser, Pax, type ReadEntry } from 'tar';

export interface EntrySum {
  size: number;
  sha256: string;
}

const BLOCK = 512;

/** Counts and hashes what passes through. */
export class Summing extends Transform {
  size = 0;
  readonly #hash = createHash('sha256');

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    this.#hash.update(chunk);
    callback(null, chunk);
  }

  sum(): EntrySum {
    return { size: this.size, sha256: this.#hash.digest('hex') };
  }
}

function piped(body: Readable): Summing {
  const summing = new Summing();
  body.once('error', (err) => summing.destroy(err));
  body.pipe(summing);
  return summing;
}

/** Writes a .tar.gz to `out` one entry at a time; `sums` holds every entry written so far. */
export class ArchiveWriter {
  readonly sums: Record<string, EntrySum> = {};
  readonly #gzip = createGzip({ level: 6 });
  readonly #done: Promise<void>;

  constructor(out: Writable) {
    this.#done = pipeline(this.#gzip, out);
    // A failure of the destination surfaces on finish(); until then writes only wait.
    this.#done.catch(() => {});
  }

  async #write(chunk: Buffer): Promise<void> {
    if (!this.#gzip.write(chunk)) await new Promise<void>((resolve) => this.#gzip.once('drain', resolve));
  }

  async #header(path: string, size: number, mtime: Date): Promise<void> {
    const data = { path, mode: 0o600, size, mtime, type: 'File' as const, uid: 0, gid: 0 };
    const header = new Header(data);
    header.encode();
    if (header.needPax) await this.#write(new Pax(data).encode());
    await this.#write(header.block!);
  }

  /** Adds an entry of exactly `size` bytes read from `body`; throws when the body is longer or shorter. */
  async add(path: string, size: number, body: Readable, mtime = new Date()): Promise<EntrySum> {
    if (this.sums[path]) throw new Error(`the archive already has an entry ${path}`);
    await this.#header(path, size, mtime);
    const summing = piped(body);
    for await (const chunk of summing as AsyncIterable<Buffer>) {
      if (summing.size > size) throw new Error(`${path} grew while it was archived`);
      await this.#write(chunk);
    }
    const sum = summing.sum();
    if (sum.size !== size) throw new Error(`${path} changed size while it was archived (${size} → ${sum.size})`);
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) await this.#write(Buffer.alloc(pad));
    this.sums[path] = sum;
    return sum;
  }

  addFile(path: string, file: string, size: number, mtime?: Date): Promise<EntrySum> {
    return this.add(path, size, createReadStream(file), mtime);
  }

  addBuffer(path: string, bytes: Buffer | string): Promise<EntrySum> {
    const buf = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    return this.add(path, buf.length, Readable.from([buf]));
  }

  /** Ends the tar (two zero blocks) and the gzip stream, and waits for the destination to have it all. */
  async finish(): Promise<void> {
    await this.#write(Buffer.alloc(BLOCK * 2));
    this.#gzip.end();
    await this.#done;
  }
}

/** A path inside the archive that could escape the directory it is extracted to. */
export function unsafePath(path: string): boolean {
  return path.startsWith('/') || path.split('/').some((s) => s === '..' || s === '') || path.includes('\\');
}

/**
 * Reads a .tar.gz (or plain .tar) entry by entry: `onEntry` gets each regular file with its stream, which it must
 * consume. Resolves once the archive is read and every callback has finished.
 */
export async function readArchive(
  file: string,
  onEntry: (path: string, size: number, body: Readable) => Promise<void>,
): Promise<void> {
  const pending: Promise<void>[] = [];
  let failure: unknown;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      if (entry.type !== 'File' || failure) {
        entry.resume();
        return;
      }
      if (unsafePath(entry.path)) {
        failure = new Error(`the archive has an unsafe path: ${entry.path}`);
        entry.resume();
        return;
      }
      pending.push(
        onEntry(entry.path, entry.size ?? 0, entry as unknown as Readable).catch((err: unknown) => {
          failure ??= err;
          entry.resume();
        }),
      );
    },
  });
  await pipeline(createReadStream(file), parser as unknown as Writable);
  await Promise.all(pending);
  if (failure) throw failure;
}

/** Hashes a stream to its end. */
export async function sumOf(body: Readable): Promise<EntrySum> {
  const summing = piped(body);
  for await (const _ of summing) {
    /* drained */
  }
  return summing.sum();
}
