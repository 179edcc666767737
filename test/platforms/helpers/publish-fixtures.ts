// Shared harness for publisher tests: the sandbox on a real Fastify app that also serves media fixtures at
// `/fixtures/<name>` (so PublishMedia.url is a real public URL on the same origin), PublishMedia built from local
// bytes, an in-memory Journal that can "crash" right after a chosen step, and small readers of the sandbox state.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import sharp from 'sharp';
import type { Journal, PublishMedia, Publisher } from '../../../src/platforms/publishing.ts';
import type { PlatformAdapter } from '../../../src/platforms/types.ts';
import { sandboxPlugin } from '../../../src/sandbox/index.ts';
import type { Platform } from '../../../src/sandbox/index.ts';
import { writeMp4 } from '../../media/helpers/video-fixtures.ts';
import type { Mp4Options } from '../../media/helpers/video-fixtures.ts';
import { START } from './oauth-flow.ts';
import type { OAuthSandbox } from './oauth-flow.ts';
import { freePort } from '../../helpers/net.ts';

interface Fixture {
  bytes: Buffer;
  mime: string;
}

export interface PublishSandbox extends OAuthSandbox {
  /** Serves `bytes` at `{publicUrl}/fixtures/<name>` from now on. */
  serve(name: string, bytes: Buffer, mime: string): string;
  /** POST /sandbox/_config (e.g. `{processingMs: 0}`); fails the test when refused. */
  configure(body: Record<string, unknown>): Promise<void>;
  /** GET /sandbox/_state?platform=… for one network. */
  state(platform: Platform): Promise<SandboxSlice>;
}

export interface SandboxRecord {
  id: string;
  accountId: string;
  [key: string]: unknown;
}

export interface SandboxSlice {
  posts: SandboxRecord[];
  media: SandboxRecord[];
  uploads: SandboxRecord[];
  containers: SandboxRecord[];
  requests: { method: string; path: string; status: number; headers: Record<string, unknown>; query: Record<string, unknown>; body: unknown }[];
}

/** The requests a sandbox slice received with this method on a path ending in `suffix`. */
export const calls = (s: SandboxSlice, method: string, suffix: string): SandboxSlice['requests'] =>
  s.requests.filter((r) => r.method === method && r.path.endsWith(suffix));

export function publisherOf(adapter: PlatformAdapter): Publisher {
  if (!adapter.publisher) throw new Error(`${adapter.platform} adapter has no publisher`);
  return adapter.publisher;
}

// Processing finishes after this much wall time or sandbox time, whichever passes first. Tests step the
// sandbox clock with advance(≥ 1 s); the wall-clock delay is long enough that a loaded machine does not
// finish processing between two calls of a test that expects "still processing" (200 ms did, sometimes).
const PROCESSING_MS = 1000;

/** Like startOAuthSandbox, plus the fixture route, which must exist before the app listens. */
export async function startPublishSandbox(): Promise<PublishSandbox> {
  let now = START;
  const clock = (): Date => new Date(now);
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const fixtures = new Map<string, Fixture>();
  const app = Fastify({ logger: false });
  app.get('/fixtures/:name', async (req, reply) => {
    const found = fixtures.get((req.params as { name: string }).name);
    if (!found) return reply.code(404).send({ error: 'no such fixture' });
    return reply.type(found.mime).send(found.bytes);
  });
  await app.register(sandboxPlugin, { prefix: '/sandbox', publicUrl, now: clock });
  await app.listen({ host: '127.0.0.1', port });
  const control = async (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${publicUrl}/sandbox/${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  await control('POST', '_config', { processingMs: PROCESSING_MS });
  return {
    app,
    publicUrl,
    callback: (platform) => `${publicUrl}/${platform}/oauth/callback`,
    clock,
    advance: (seconds) => {
      now += seconds * 1000;
    },
    fault: async (body) => {
      const res = await control('POST', '_faults', body);
      if (res.status !== 201) throw new Error(`sandbox refused fault ${JSON.stringify(body)}: ${await res.text()}`);
    },
    reset: async () => {
      now = START;
      await control('DELETE', '_state');
      await control('POST', '_config', { processingMs: PROCESSING_MS });
    },
    close: () => app.close(),
    serve: (name, bytes, mime) => {
      fixtures.set(name, { bytes, mime });
      return `${publicUrl}/fixtures/${encodeURIComponent(name)}`;
    },
    configure: async (body) => {
      const res = await control('POST', '_config', body);
      if (res.status >= 300) throw new Error(`sandbox refused config ${JSON.stringify(body)}: ${await res.text()}`);
    },
    state: async (platform) => {
      const res = await control('GET', `_state?platform=${platform}`);
      const body = (await res.json()) as Record<string, SandboxSlice>;
      const slice = body[platform];
      if (!slice) throw new Error(`no sandbox state for ${platform}`);
      return slice;
    },
  };
}

export interface FixtureMedia extends PublishMedia {
  /** Every open() call, in order, with its range. */
  readonly opens: ({ start: number; end: number } | undefined)[];
}

/**
 * PublishMedia over local bytes, served by the sandbox app at `/fixtures/<name>`. `open({start, end})` reads an
 * inclusive byte range, as Herald's media storage does.
 */
export function fixtureMedia(
  sb: PublishSandbox,
  f: { name: string; bytes: Buffer; kind: 'image' | 'video'; mime: string; format: string; width?: number; height?: number; durationSec?: number; altText?: string },
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
  constructor(step: string) {
    super(`simulated crash after journaling ${step}`);
    this.name = 'SimulatedCrash';
  }
}

export interface MemoryJournal extends Journal {
  readonly steps: Record<string, string>;
  /** Every record() call in order. */
  readonly log: [string, string][];
  /** Crash right after the next record() of a step matching this (string equality or predicate); cleared once hit. */
  crashAfter: string | ((step: string) => boolean) | null;
}

export function memoryJournal(initial: Record<string, string> = {}): MemoryJournal {
  const journal: MemoryJournal = {
    steps: { ...initial },
    log: [],
    crashAfter: null,
    record: async (step, value) => {
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
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
}

export async function jpegImage(width = 64, height = 48, color = { r: 20, g: 120, b: 220 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).jpeg().toBuffer();
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
export function droppingAt(media: FixtureMedia, at: number, opts: { afterBytes?: number; times?: number } = {}): FixtureMedia {
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
        throw new SimulatedCrash(`opening bytes from ${at}`);
      }
      return media.open(range);
    },
  };
}
