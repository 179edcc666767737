// Joins the chunk files of a resumable upload back into one stream, in order, without loading them.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

export class ChunkAssemblyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkAssemblyError';
  }
}

export interface AssembleOptions {
  /** When given, the stream fails unless the chunks add up to exactly this many bytes. */
  expectedBytes?: number;
}

/** A chunk: a file's path, or what opens its bytes (a stored object). */
export type ChunkSource = string | (() => Promise<Readable>);

/**
 * A stream of the chunks' bytes, one after another. Only one chunk is open at a time, and
 * destroying the stream closes it. A missing or unreadable chunk fails the stream.
 */
export function assembleChunks(paths: readonly ChunkSource[], opts: AssembleOptions = {}): Readable {
  if (paths.length === 0) throw new ChunkAssemblyError('no chunks to assemble');
  const files = [...paths];
  async function* bytes(): AsyncGenerator<Buffer> {
    let total = 0;
    for (const [index, path] of files.entries()) {
      try {
        for await (const chunk of typeof path === 'string' ? createReadStream(path) : await path()) {
          total += (chunk as Buffer).length;
          if (opts.expectedBytes !== undefined && total > opts.expectedBytes) {
            throw new ChunkAssemblyError(`chunks exceed the expected ${opts.expectedBytes} bytes`);
          }
          yield chunk as Buffer;
        }
      } catch (err) {
        if (err instanceof ChunkAssemblyError) throw err;
        throw new ChunkAssemblyError(`could not read chunk ${index}: ${(err as Error).message}`, { cause: err });
      }
    }
    if (opts.expectedBytes !== undefined && total !== opts.expectedBytes) {
      throw new ChunkAssemblyError(`chunks add up to ${total} bytes, expected ${opts.expectedBytes}`);
    }
  }
  return Readable.from(bytes(), { objectMode: false });
}
