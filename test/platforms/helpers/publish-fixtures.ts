// Shared fixtures for publisher tests: PublishMedia built from local bytes and served by the test sandbox at
// `/fixtures/<name>` (so PublishMedia.url is a real public URL on the same origin), and an in-memory Journal that can
// "crash" right after a chosen step.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Journal, PublishMedia, Publisher } from '../../../src/platforms/publishing.ts';
import type { PlatformAdapter } from '../../../src/platforms/types.ts';
import { writeMp4 } from '../../media/helpers/video-fixtures.ts';
import type { Mp4Options } from '../../media/helpers/video-fixtures.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';

export function publisherOf(adapter: PlatformAdapter): Publisher {
  if (!adapter.publisher) throw new Error(`${adapter.platform} adapter has no publisher`);
  return adapter.publisher;
}

// Processing finishes after this much wall time or sandbox time, whichever passes first. Tests step the
// sandbox clock with advance(≥ 1 s); the wall-clock delay is long enough that a loaded machine does not
// finish processing between two calls of a test that expects "still processing" (200 ms did, sometimes).
export const PUBLISH_PROCESSING_MS = 1000;

export interface FixtureMedia extends PublishMedia {
  /** Every open() call, in order, with its range. */
  readonly opens: ({ start: number; end: number } | undefined)[];
}

/**
 * PublishMedia over local bytes, served by the sandbox app at `/fixtures/<name>`. `open({start, end})` reads an
 * inclusive byte range, as Herald's media storage does.
 */
export function fixtureMedia(
  sb: TestSandbox,
  f: {
    name: string;
    bytes: Buffer;
    kind: 'image' | 'video';
    mime: string;
    format: string;
    width?: number;
    height?: number;
    durationSec?: number;
    altText?: string;
  },
): FixtureMedia {
  const url = sb.serve(f.name, f.bytes, f.mime);
  const opens: FixtureMedia['opens'] = [];
  return {
    id: `med_${randomUUID()}`,
    kind: f.kind,
    url,
    mime: f.mime,
    format: f.format,
    size: f.bytes.length,
    width: f.width ?? null,
    height: f.height ?? null,
    durationSec: f.durationSec ?? null,
    altText: f.altText ?? null,
    opens,
    open: async (range) => {
      opens.push(range);
      const slice = range ? f.bytes.subarray(range.start, range.end + 1) : f.bytes;
      // Several chunks, so consumers that assume one chunk per stream are caught.
      const chunks: Buffer[] = [];
      for (let i = 0; i < slice.length; i += 64 * 1024) chunks.push(slice.subarray(i, i + 64 * 1024));
      return Readable.from(chunks);
    },
  };
}

/** Thrown by a MemoryJournal right after recording its crash step: the worker "dies" with the step durable. */
export class SimulatedCrash extends Error {
  constructor(step: string, when: 'after journaling' | 'instead of journaling' | 'at' = 'after journaling') {
    super(`simulated crash ${when} ${step}`);
    this.name = 'SimulatedCrash';
  }
}

export interface MemoryJournal extends Journal {
  readonly steps: Record<string, string>;
  /** Every record() call in order. */
  readonly log: [string, string][];
  /** Crash right after the next record() of a step matching this (string equality or predicate); cleared once hit. */
  crashAfter: string | ((step: string) => boolean) | null;
  /**
   * Crash instead of the next record() of this step, which is then never durable: the network acted, but its answer
   * was lost with the worker. Cleared once hit.
   */
  crashBefore: string | null;
}

export function memoryJournal(initial: Record<string, string> = {}): MemoryJournal {
  const journal: MemoryJournal = {
    steps: { ...initial },
    log: [],
    crashAfter: null,
    crashBefore: null,
    record: async (step, value) => {
      if (journal.crashBefore === step) {
        journal.crashBefore = null;
        throw new SimulatedCrash(step, 'instead of journaling');
      }
      journal.steps[step] = value;
      journal.log.push([step, value]);
      const c = journal.crashAfter;
      if (c !== null && (typeof c === 'string' ? c === step : c(step))) {
        journal.crashAfter = null;
        throw new SimulatedCrash(step);
      }
    },
  };
  return journal;
}

export async function pngImage(width = 64, height = 48, color = { r: 200, g: 30, b: 60 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

export async function jpegImage(width = 64, height = 48, color = { r: 20, g: 120, b: 220 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

/** Random pixels, which compress badly: a PNG of width×height×channels bytes or so (3 channels: no alpha). */
export async function noisePng(width: number, height: number, channels: 3 | 4 = 3): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * channels);
  let x = 0x9e3779b9;
  for (let i = 0; i < raw.length; i++) {
    // xorshift32: deterministic noise, the same bytes on every run.
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    raw[i] = x & 0xff;
  }
  return sharp(raw, { raw: { width, height, channels } }).png({ compressionLevel: 1 }).toBuffer();
}

/** MP4 bytes (a structurally valid container; `mdatBytes` sets the size). */
export async function mp4Video(options: Mp4Options = {}): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'herald-publish-'));
  try {
    const path = join(dir, 'video.mp4');
    await writeMp4(path, { moovFirst: true, ...options });
    return await readFile(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The same media, except that the stream of the range starting at byte `at` breaks after `afterBytes`, `times` times:
 * the upload's connection drops mid-request. Later opens of that range stream normally.
 */
export function droppingAt(
  media: FixtureMedia,
  at: number,
  opts: { afterBytes?: number; times?: number } = {},
): FixtureMedia {
  let left = opts.times ?? 1;
  const after = opts.afterBytes ?? 256 * 1024;
  return {
    ...media,
    open: async (range) => {
      const stream = await media.open(range);
      if (range?.start !== at || left <= 0) return stream;
      left -= 1;
      async function* broken(): AsyncGenerator<Buffer> {
        let sent = 0;
        for await (const chunk of stream) {
          const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
          sent += bytes.length;
          if (sent > after) throw new Error('connection reset by peer');
          yield bytes;
        }
      }
      return Readable.from(broken());
    },
  };
}

/** The same media, except that opening the range starting at byte `at` throws a SimulatedCrash once: the worker dies there. */
export function crashingAt(media: FixtureMedia, at: number): FixtureMedia {
  let crashed = false;
  return {
    ...media,
    open: async (range) => {
      if (range?.start === at && !crashed) {
        crashed = true;
        throw new SimulatedCrash(`opening bytes from ${at}`, 'at');
      }
      return media.open(range);
    },
  };
}
