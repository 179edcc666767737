// Random access to a media file, so container parsers can seek past large payloads instead of reading them.
import { open } from 'node:fs/promises';

export interface RandomAccessReader {
  readonly size: number;
  /** Reads up to `length` bytes at `position`; fewer only at the end of the data. */
  read(position: number, length: number): Promise<Buffer>;
}

export interface FileReader extends RandomAccessReader {
  close(): Promise<void>;
}

export async function openFileReader(path: string): Promise<FileReader> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    return {
      size,
      async read(position, length) {
        const wanted = Math.max(0, Math.min(length, size - position));
        const buffer = Buffer.alloc(wanted);
        let done = 0;
        while (done < wanted) {
          const { bytesRead } = await handle.read(buffer, done, wanted - done, position + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return done === wanted ? buffer : buffer.subarray(0, done);
      },
      close: () => handle.close(),
    };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

export function bufferReader(data: Uint8Array): RandomAccessReader {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return {
    size: buffer.length,
    read: async (position, length) => buffer.subarray(position, Math.min(buffer.length, position + length)),
  };
}

export class MediaProbeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MediaProbeError';
  }
}

/** What a container parser could learn; absent fields were not found. */
export interface ContainerInfo {
  durationSec?: number;
  width?: number;
  height?: number;
  /** Clockwise degrees the picture must be turned for display: 0, 90, 180 or 270. */
  rotation?: number;
  videoCodec?: string;
  audioCodec?: string;
}
