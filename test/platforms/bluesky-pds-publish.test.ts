// The Bluesky publisher against a real PDS (@atproto/pds) and PLC directory on 127.0.0.1: the reference server's
// lexicon validation of posts, facets and embeds, read back record by record. The local PDS has no video service,
// so videos take the uploadBlob fallback. Never skipped: if the PDS cannot start, the suite fails.
//
// Test images are made by sharp in a child process and publish-fixtures.ts (which loads sharp) is not imported here:
// sharp next to the PDS's better-sqlite3 once made the worker abort at exit. The PDS now runs in a child process of
// its own; the publisher loads sharp only to re-encode an image over the blob limit.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AtpAgent } from '@atproto/api';
import { blueskyAdapter } from '../../src/platforms/bluesky/index.ts';
import { configuredHttp } from '../helpers/platform-http.ts';
import type { Journal, PublishMedia, PublishRequest, Publisher } from '../../src/platforms/publishing.ts';
import type { TokenSet } from '../../src/platforms/types.ts';
import { startLocalPds } from '../helpers/bluesky-pds.ts';
import type { LocalPds, PdsAccount } from '../helpers/bluesky-pds.ts';
import { writeMp4 } from '../media/helpers/video-fixtures.ts';
import type { Mp4Options } from '../media/helpers/video-fixtures.ts';

const POST = 'app.bsky.feed.post';
let pds: LocalPds;
let alice: PdsAccount;
let bob: PdsAccount;
let reader: AtpAgent;
let publisher: Publisher;
let tokens: TokenSet;

class SimulatedCrash extends Error {}

/** The journal of publish-fixtures.ts in small: records steps in order and can "die" right after a chosen one. */
function memoryJournal(
  initial: Record<string, string> = {},
): Journal & { steps: Record<string, string>; log: [string, string][]; crashAfter: string | null } {
  const journal = {
    steps: { ...initial },
    log: [] as [string, string][],
    crashAfter: null as string | null,
    record: async (step: string, value: string) => {
      journal.steps[step] = value;
      journal.log.push([step, value]);
      if (journal.crashAfter === step) {
        journal.crashAfter = null;
        throw new SimulatedCrash(step);
      }
    },
  };
  return journal;
}

async function jpegImage(width: number, height: number): Promise<Buffer> {
  const script = `import sharp from 'sharp'; const b = await sharp({ create: { width: ${width}, height: ${height}, channels: 3, background: { r: 20, g: 120, b: 220 } } }).jpeg().toBuffer(); process.stdout.write(b.toString('base64'));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: process.cwd(),
  });
  return Buffer.from(stdout, 'base64');
}

/** Random pixels as a PNG (they compress badly, so the file is about width×height×3 bytes), made by sharp in a child. */
async function noisePng(width: number, height: number): Promise<Buffer> {
  const script = `import sharp from 'sharp'; const raw = Buffer.alloc(${width * height * 3}); let x = 0x9e3779b9; for (let i = 0; i < raw.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; raw[i] = x & 0xff; } const b = await sharp(raw, { raw: { width: ${width}, height: ${height}, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer(); process.stdout.write(b.toString('base64'));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: process.cwd(),
    maxBuffer: 64 * 1024 * 1024,
  });
  return Buffer.from(stdout, 'base64');
}

async function mp4Video(options: Mp4Options): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'herald-bsky-'));
  try {
    await writeMp4(join(dir, 'clip.mp4'), { moovFirst: true, ...options });
    return await readFile(join(dir, 'clip.mp4'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A port nobody listens on: the configured video service is unreachable, as it is for a self-hosted PDS. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 9;
}

function media(
  bytes: Buffer,
  f: { kind: 'image' | 'video'; mime: string; format: string; width: number; height: number; altText?: string },
): PublishMedia {
  return {
    id: `med_${f.format}_${bytes.length}`,
    url: 'https://media.herald.example/unused',
    size: bytes.length,
    durationSec: null,
    altText: null,
    ...f,
    open: async () => Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]),
  };
}

function request(over: Partial<PublishRequest>): PublishRequest {
  return {
    postType: 'text',
    text: 'hello',
    media: [],
    options: {},
    targetId: `tgt_${Math.random().toString(36).slice(2)}`,
    ...over,
  };
}

async function readBack(uri: string): Promise<Record<string, unknown>> {
  const rkey = uri.split('/').pop() ?? '';
  const res = await reader.com.atproto.repo.getRecord({ repo: alice.did, collection: POST, rkey });
  expect(res.data.uri).toBe(uri);
  return res.data.value as Record<string, unknown>;
}

/** The text a facet covers, cut out of the UTF-8 bytes as Bluesky clients do. */
const covered = (text: string, index: { byteStart: number; byteEnd: number }) =>
  Buffer.from(text, 'utf8').subarray(index.byteStart, index.byteEnd).toString('utf8');

beforeAll(async () => {
  pds = await startLocalPds();
  alice = await pds.createAccount();
  bob = await pds.createAccount();
  reader = await pds.agentFor(alice);
  const logger = pino({ level: 'silent' });
  const urls = { service: pds.url, plc: pds.plcUrl, video: `http://127.0.0.1:${await closedPort()}` };
  const adapter = blueskyAdapter({
    http: configuredHttp(logger, urls, { timeoutMs: 15_000 }),
    config: { urls },
    clock: () => new Date(),
    logger,
  });
  if (adapter.auth.kind !== 'app_password' || !adapter.publisher)
    throw new Error('Bluesky adapter without app-password auth or publisher');
  tokens = await adapter.auth.login({ handle: alice.handle, appPassword: await pds.createAppPassword(alice) });
  publisher = adapter.publisher;
});

afterAll(async () => {
  await pds?.stop();
});

describe('bluesky publisher (real local PDS)', () => {
  it('publishes text with link, mention and hashtag facets at UTF-8 byte offsets', async () => {
    const text = `Grüße 👋 @${bob.handle}! Lies https://example.com/wiki/Straße?x=1. #日本語 #Herald, @ghost.test 🎉`;
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ text, options: { langs: ['de', 'ja'] } }), journal);
    expect(out).toMatchObject({
      state: 'published',
      postId: expect.stringMatching(new RegExp(`^at://${alice.did}/${POST}/[2-7a-j][2-7a-z]{12}$`)),
    });
    if (out.state !== 'published') throw new Error('not published');
    const rkey = out.postId.split('/').pop() ?? '';
    expect(out.permalink).toBe(`https://bsky.app/profile/${alice.handle}/post/${rkey}`);
    expect(journal.log).toEqual([
      ['rkey', rkey],
      ['uri', out.postId],
    ]);

    const value = await readBack(out.postId);
    expect(value.$type).toBe(POST);
    expect(value.text).toBe(text);
    expect(value.langs).toEqual(['de', 'ja']);
    expect(Date.parse(String(value.createdAt))).toBeGreaterThan(Date.now() - 60_000);
    expect(value.embed).toBeUndefined();
    const facets = value.facets as {
      index: { byteStart: number; byteEnd: number };
      features: Record<string, unknown>[];
    }[];
    expect(facets.map((f) => [covered(text, f.index), f.features])).toEqual([
      [`@${bob.handle}`, [{ $type: 'app.bsky.richtext.facet#mention', did: bob.did }]],
      [
        'https://example.com/wiki/Straße?x=1',
        [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/wiki/Straße?x=1' }],
      ],
      ['#日本語', [{ $type: 'app.bsky.richtext.facet#tag', tag: '日本語' }]],
      ['#Herald', [{ $type: 'app.bsky.richtext.facet#tag', tag: 'Herald' }]],
    ]);
    // Byte offsets, not UTF-16 indices: "Grüße 👋 " is 9 UTF-16 units but 13 bytes.
    expect(facets[0]?.index.byteStart).toBe(13);
  });

  it('publishes images with alt text and aspect ratio through uploadBlob, bytes intact', async () => {
    const bytes = await jpegImage(640, 480);
    const photo = media(bytes, {
      kind: 'image',
      mime: 'image/jpeg',
      format: 'jpeg',
      width: 640,
      height: 480,
      altText: 'A blue rectangle',
    });
    const journal = memoryJournal();
    const out = await publisher.publish(
      tokens,
      request({ postType: 'image', text: 'Pictures', media: [photo, { ...photo, altText: null }] }),
      journal,
    );
    if (out.state !== 'published') throw new Error('not published');
    expect(journal.log.map(([s]) => s)).toEqual(['blob.0', 'blob.1', 'rkey', 'uri']);
    const value = await readBack(out.postId);
    const embed = value.embed as {
      $type: string;
      images: {
        image: { ref: { toString(): string }; mimeType: string; size: number };
        alt: string;
        aspectRatio: unknown;
      }[];
    };
    expect(embed.$type).toBe('app.bsky.embed.images');
    expect(embed.images.map((i) => [i.alt, i.aspectRatio, i.image.mimeType, i.image.size])).toEqual([
      ['A blue rectangle', { width: 640, height: 480 }, 'image/jpeg', bytes.length],
      ['', { width: 640, height: 480 }, 'image/jpeg', bytes.length],
    ]);
    const cid = embed.images[0]?.image.ref.toString() ?? '';
    expect(cid).toBe(JSON.parse(journal.steps['blob.0'] ?? '{}').ref.$link);
    const blob = await reader.com.atproto.sync.getBlob({ did: alice.did, cid });
    expect(Buffer.from(blob.data).equals(bytes)).toBe(true);
  });

  it('publishes a four-image carousel with alt texts; the PDS itself refuses a fifth image', async () => {
    const shapes = [
      [640, 480],
      [480, 640],
      [500, 500],
      [1280, 720],
    ] as const;
    const items = await Promise.all(
      shapes.map(async ([width, height], i) =>
        media(await jpegImage(width, height), {
          kind: 'image',
          mime: 'image/jpeg',
          format: 'jpeg',
          width,
          height,
          altText: `Picture ${i + 1}`,
        }),
      ),
    );
    const journal = memoryJournal();
    const out = await publisher.publish(
      tokens,
      request({ postType: 'carousel', text: 'Four pictures', media: items }),
      journal,
    );
    if (out.state !== 'published') throw new Error('not published');
    const value = await readBack(out.postId);
    const embed = value.embed as {
      $type: string;
      images: { image: { mimeType: string; size: number }; alt: string; aspectRatio: unknown }[];
    };
    expect(embed.$type).toBe('app.bsky.embed.images');
    expect(embed.images.map((i) => [i.alt, i.aspectRatio, i.image.mimeType, i.image.size])).toEqual(
      shapes.map(([width, height], i) => [`Picture ${i + 1}`, { width, height }, 'image/jpeg', items[i]?.size]),
    );

    // The limit Herald keeps to is the PDS's: five images are not a valid app.bsky.embed.images.
    const blob = JSON.parse(journal.steps['blob.0'] ?? '{}') as { ref: { $link: string } };
    const up = await reader.com.atproto.repo.uploadBlob(await jpegImage(64, 48), { encoding: 'image/jpeg' });
    const image = { image: up.data.blob, alt: '' };
    const five = await reader.com.atproto.repo
      .createRecord({
        repo: alice.did,
        collection: POST,
        record: {
          $type: POST,
          text: 'five',
          createdAt: new Date().toISOString(),
          embed: { $type: 'app.bsky.embed.images', images: [image, image, image, image, image] },
        },
      })
      .then(
        () => 'created',
        (err: unknown) => String((err as Error).message),
      );
    expect(five).toMatch(/array too big \(maximum 4, got 5\) at \$\.record\.embed\.images/);
    expect(blob.ref.$link).toMatch(/^bafkrei/);
    await expect(
      publisher.publish(tokens, request({ postType: 'carousel', media: [...items, items[0]!] }), memoryJournal()),
    ).rejects.toMatchObject({ kind: 'invalid_content' });
  });

  it('an image over the PDS blob limit: refused as uploaded, published once Herald re-encodes it within 1,000,000 bytes, aspect ratio kept', async () => {
    const bytes = await noisePng(1200, 800);
    expect(bytes.length).toBeGreaterThan(2_000_000);
    // What the PDS does with the image as it is: the upload is taken, the post is refused for the blob's size.
    const raw = await reader.com.atproto.repo.uploadBlob(bytes, { encoding: 'image/png' });
    const refused = await reader.com.atproto.repo
      .createRecord({
        repo: alice.did,
        collection: POST,
        record: {
          $type: POST,
          text: 'raw',
          createdAt: new Date().toISOString(),
          embed: { $type: 'app.bsky.embed.images', images: [{ image: raw.data.blob, alt: '' }] },
        },
      })
      .then(
        () => 'created',
        (err: unknown) => String((err as Error).message),
      );
    expect(refused).toMatch(/blob too big \(maximum 2000000, got \d+\) at \$\.record\.embed\.images\[0\]\.image/);

    const photo = media(bytes, {
      kind: 'image',
      mime: 'image/png',
      format: 'png',
      width: 1200,
      height: 800,
      altText: 'Static',
    });
    const journal = memoryJournal();
    const out = await publisher.publish(
      tokens,
      request({ postType: 'image', text: 'Re-encoded', media: [photo] }),
      journal,
    );
    if (out.state !== 'published') throw new Error('not published');
    expect(journal.log.map(([s]) => s)).toEqual(['ratio.0', 'blob.0', 'rkey', 'uri']);
    const value = await readBack(out.postId);
    const embed = value.embed as {
      images: {
        image: { ref: { toString(): string }; mimeType: string; size: number };
        alt: string;
        aspectRatio: { width: number; height: number };
      }[];
    };
    const [only] = embed.images;
    expect(only?.alt).toBe('Static');
    expect(only?.image.mimeType).toBe('image/jpeg');
    expect(only?.image.size).toBeLessThanOrEqual(1_000_000);
    expect(only!.aspectRatio.width / only!.aspectRatio.height).toBeCloseTo(1.5, 2);
    // The blob on the PDS is what the embed says: its bytes have that length.
    const stored = await reader.com.atproto.sync.getBlob({ did: alice.did, cid: only?.image.ref.toString() ?? '' });
    expect(stored.data.length).toBe(only?.image.size);
  });

  it('publishes a video by uploading it to the PDS when no video service answers', async () => {
    const bytes = await mp4Video({ width: 1280, height: 720, durationSec: 5 });
    const clip = media(bytes, {
      kind: 'video',
      mime: 'video/mp4',
      format: 'mp4',
      width: 1280,
      height: 720,
      altText: 'Five seconds',
    });
    const journal = memoryJournal();
    const out = await publisher.publish(
      tokens,
      request({ postType: 'video', text: 'A clip #video', media: [clip] }),
      journal,
    );
    if (out.state !== 'published') throw new Error(`not published: ${JSON.stringify(out)}`);
    expect(journal.steps['video.job']).toBeUndefined();
    expect(journal.log.map(([s]) => s)).toEqual(['video.blob', 'rkey', 'uri']);
    const value = await readBack(out.postId);
    expect(value.text).toBe('A clip #video');
    const embed = value.embed as {
      $type: string;
      video: { mimeType: string; size: number; ref: { toString(): string } };
      alt: string;
      aspectRatio: unknown;
    };
    expect({
      type: embed.$type,
      mime: embed.video.mimeType,
      size: embed.video.size,
      alt: embed.alt,
      ratio: embed.aspectRatio,
    }).toEqual({
      type: 'app.bsky.embed.video',
      mime: 'video/mp4',
      size: bytes.length,
      alt: 'Five seconds',
      ratio: { width: 1280, height: 720 },
    });
    expect((value.facets as unknown[]).length).toBe(1);
  });

  it('uses one record key per target: a retry after a lost answer finds the post, and the PDS refuses a duplicate key', async () => {
    const req = request({ text: 'Exactly once' });
    const journal = memoryJournal();
    journal.crashAfter = 'uri';
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const uri = journal.steps.uri ?? '';
    delete journal.steps.uri;
    expect(await publisher.reconcile!(tokens, req, journal)).toEqual({
      postId: uri,
      permalink: expect.stringContaining(uri.split('/').pop() ?? ''),
    });
    delete journal.steps.uri;
    expect(await publisher.publish(tokens, req, journal)).toMatchObject({ state: 'published', postId: uri });
    const listed = await reader.com.atproto.repo.listRecords({ repo: alice.did, collection: POST, limit: 100 });
    expect(listed.data.records.filter((r) => (r.value as { text?: string }).text === 'Exactly once')).toHaveLength(1);

    // What a blind retry would meet: the reference PDS will not create a second record under the key.
    const rkey = journal.steps.rkey ?? '';
    const dup = await reader.com.atproto.repo
      .createRecord({
        repo: alice.did,
        collection: POST,
        rkey,
        record: { $type: POST, text: 'again', createdAt: new Date().toISOString() },
      })
      .then(
        () => 'created',
        (err: unknown) => (err as { status?: number }).status,
      );
    expect(dup).not.toBe('created');
  });

  it('uploads again when a journaled blob is no longer on the PDS', async () => {
    const bytes = await jpegImage(320, 240);
    const photo = media(bytes, { kind: 'image', mime: 'image/jpeg', format: 'jpeg', width: 320, height: 240 });
    const gone = JSON.stringify({
      $type: 'blob',
      ref: { $link: `bafkrei${'a'.repeat(52)}` },
      mimeType: 'image/jpeg',
      size: bytes.length,
    });
    const journal = memoryJournal({ 'blob.0': gone });
    const out = await publisher.publish(tokens, request({ postType: 'image', media: [photo] }), journal);
    if (out.state !== 'published') throw new Error('not published');
    expect(journal.steps['blob.0']).not.toBe(gone);
    const value = await readBack(out.postId);
    expect(
      (value.embed as { images: { image: { ref: { toString(): string } } }[] }).images[0]?.image.ref.toString(),
    ).toBe(JSON.parse(journal.steps['blob.0'] ?? '{}').ref.$link);
  });

  it('reconcile finds nothing without a trace or under an unused key', async () => {
    expect(await publisher.reconcile!(tokens, request({}), memoryJournal())).toBeNull();
    expect(await publisher.reconcile!(tokens, request({}), memoryJournal({ rkey: '3lzzzzzzzzzz2' }))).toBeNull();
  });
});
