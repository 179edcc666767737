// Frees the buffers of streamed request bodies promptly.
//
// Node's HTTP parser hands every body chunk to JavaScript as a freshly allocated Buffer (~64 KiB).
// Streaming a file allocates almost nothing else, so V8's young generation never fills and those
// buffers are only reclaimed by full mark-compacts triggered every ~64 MB of external memory. A 1 GiB
// upload then held 70–90 MiB of dead buffers at its peaks and spent a third of its time in full GCs.
// A minor GC every few MiB of streamed bytes frees them while they are young, which is cheap
// (measured: peak ArrayBuffer memory 16 MiB instead of ~80, and the upload 2–3× faster).
//
// `gc` is not exposed by default; the flag is set at runtime and the function taken from a fresh
// context, which is the only place a late --expose-gc makes it appear. If that ever stops working,
// this is a no-op and memory behaves as before.
import { Transform, type TransformCallback } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options: { type: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

const EVERY_BYTES = 8 * 1024 * 1024;

function obtainGc(): Gc | undefined {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === 'function') return existing as Gc;
  try {
    setFlagsFromString('--expose-gc');
    const fn: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    return typeof fn === 'function' ? (fn as Gc) : undefined;
  } catch {
    return undefined;
  }
}

let gc: Gc | undefined | null = null;
let streamed = 0;
let paced = true;

/** HERALD_MEDIA_GC_PACING: off, streamed bytes are left to V8's own schedule (for measuring what the pacing buys). */
export function setGcPacing(on: boolean): void {
  paced = on;
}

/** Counts bytes that went through a stream; every EVERY_BYTES (over all streams) runs a minor GC. */
export function noteStreamedBytes(n: number): void {
  if (!paced) return;
  streamed += n;
  if (streamed < EVERY_BYTES) return;
  streamed = 0;
  if (gc === null) gc = obtainGc();
  gc?.({ type: 'minor' });
}

/** A pass-through that reports its bytes to noteStreamedBytes (for streams not written by TempFiles). */
export class GcPacer extends Transform {
  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    noteStreamedBytes(chunk.length);
    callback(null, chunk);
  }
}
