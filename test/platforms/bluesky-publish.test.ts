// The Bluesky publisher: the facet builder and record keys on their own, then the whole flow against the Bluesky
// simulator over real HTTP (createRecord, uploadBlob, the video service and its jobs, the journal and faults).
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blueskyAdapter } from '../../src/platforms/bluesky/index.ts';
import { buildFacets, byteOffset, findSpans } from '../../src/platforms/bluesky/facets.ts';
import { tidFor, TID_PATTERN } from '../../src/platforms/bluesky/tid.ts';
import { configuredHttp } from '../helpers/platform-http.ts';
import type { PublishMedia, PublishRequest, Publisher } from '../../src/platforms/publishing.ts';
import type { TokenSet } from '../../src/platforms/types.ts';
import { sandboxBaseUrls } from '../../src/sandbox/index.ts';
import { expectPlatformError } from './helpers/oauth-flow.ts';
import {
  fixtureMedia,
  jpegImage,
  memoryJournal,
  mp4Video,
  noisePng,
  SimulatedCrash,
  PUBLISH_PROCESSING_MS,
} from './helpers/publish-fixtures.ts';
import sharp from 'sharp';
import { IMAGE_BLOB_MAX } from '../../src/platforms/bluesky/limits.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { SandboxSlice, SandboxRecord, TestSandbox } from '../helpers/sandbox.ts';

const POST = 'app.bsky.feed.post';
const cut = (text: string, start: number, end: number) => Buffer.from(text).subarray(start, end).toString();

describe('bluesky facets', () => {
  const resolve = async (handle: string) => (handle === 'bob.example.com' ? 'did:plc:bob' : null);

  it('finds links, mentions and tags at UTF-8 byte offsets in emoji and non-Latin text', async () => {
    const text =
      '🎉 Привет @Bob.Example.com! 日本語 https://例え.jp/パス?q=1). #タグ #rust_lang, #42 e@mail.com x#no @nobody.example.org';
    const facets = await buildFacets(text, resolve);
    expect(facets.map((f) => [cut(text, f.index.byteStart, f.index.byteEnd), f.features[0]])).toEqual([
      ['@Bob.Example.com', { $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:bob' }],
      ['https://例え.jp/パス?q=1', { $type: 'app.bsky.richtext.facet#link', uri: 'https://例え.jp/パス?q=1' }],
      ['#タグ', { $type: 'app.bsky.richtext.facet#tag', tag: 'タグ' }],
      ['#rust_lang', { $type: 'app.bsky.richtext.facet#tag', tag: 'rust_lang' }],
    ]);
    // 🎉 is 2 UTF-16 units but 4 bytes; each Cyrillic letter 1 unit but 2 bytes.
    expect(facets[0]?.index.byteStart).toBe(4 + 1 + 12 + 1);
  });

  it('keeps balanced brackets in URLs, drops trailing punctuation, and ignores tags inside links', () => {
    const text = 'See (https://en.wikipedia.org/wiki/Foo_(bar)) and https://x.example/a#frag, then #end.';
    expect(findSpans(text).map((s) => [s.kind, s.value])).toEqual([
      ['link', 'https://en.wikipedia.org/wiki/Foo_(bar)'],
      ['link', 'https://x.example/a#frag'],
      ['tag', 'end'],
    ]);
  });

  it('converts UTF-16 indices to byte offsets', () => {
    expect(byteOffset('a👍🏽b', 5)).toBe(9);
    expect(byteOffset('ß', 1)).toBe(2);
  });

  it('derives TIDs from the first attempt time and the target', () => {
    const at = new Date('2026-11-21T12:00:00.000Z');
    const a = tidFor('tgt_a', at);
    expect(a).toMatch(TID_PATTERN);
    expect(tidFor('tgt_a', at)).toBe(a);
    expect(tidFor('tgt_b', at)).not.toBe(a);
    // Later attempts' keys sort after earlier ones, like the PDS's own.
    expect(tidFor('tgt_a', new Date(at.getTime() + 1)) > a).toBe(true);
  });
});

let sb: TestSandbox;
let publisher: Publisher;
let tokens: TokenSet;

const state = () => sb.state('bluesky');
const calls = (s: SandboxSlice, nsid: string) => s.requests.filter((r) => r.path.endsWith(`/xrpc/${nsid}`));
const ok = (s: SandboxSlice, nsid: string) => calls(s, nsid).filter((r) => r.status === 200);

function adapterFor(urls: Record<string, string>) {
  const logger = pino({ level: 'silent' });
  return blueskyAdapter({ http: configuredHttp(logger, urls), config: { urls }, clock: sb.clock, logger });
}

function request(over: Partial<PublishRequest> = {}): PublishRequest {
  return { postType: 'text', text: 'Hello from Herald', media: [], options: {}, targetId: 'tgt_bsky_1', ...over };
}

async function photo(name = 'photo.jpg'): Promise<PublishMedia> {
  return fixtureMedia(sb, {
    name,
    bytes: await jpegImage(400, 300),
    kind: 'image',
    mime: 'image/jpeg',
    format: 'jpeg',
    width: 400,
    height: 300,
    altText: 'Blue',
  });
}

async function clip(bytes?: Buffer): Promise<PublishMedia> {
  return fixtureMedia(sb, {
    name: 'clip.mp4',
    bytes: bytes ?? (await mp4Video({ mdatBytes: 20_000 })),
    kind: 'video',
    mime: 'video/mp4',
    format: 'mp4',
    width: 640,
    height: 360,
    altText: 'Clip',
  });
}

const record = (post: SandboxRecord | undefined) => post?.record as Record<string, unknown>;

beforeAll(async () => {
  sb = await startSandbox({ processingMs: PUBLISH_PROCESSING_MS });
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { bluesky: 0 } });
  const adapter = adapterFor(sandboxBaseUrls(sb.publicUrl).bluesky);
  if (adapter.auth.kind !== 'app_password' || !adapter.publisher) throw new Error('no app-password auth or publisher');
  tokens = await adapter.auth.login({ handle: 'alice.sandbox', appPassword: 'abcd-ef12-gh34-ij56' });
  publisher = adapter.publisher;
});

describe('bluesky publisher against the simulator', () => {
  it('publishes a text post with facets as exactly one record under the journaled key', async () => {
    const text = 'Hi @bob.sandbox and @nobody.example.org 👋 https://herald.example/docs #launch';
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ text }), journal);
    if (out.state !== 'published') throw new Error('not published');
    const rkey = journal.steps.rkey ?? '';
    expect(out).toEqual({
      state: 'published',
      postId: `at://${tokens.extra?.did}/${POST}/${rkey}`,
      permalink: sb.url('bluesky', `/profile/alice.sandbox/post/${rkey}`),
    });
    expect(journal.steps.uri).toBe(out.postId);
    const s = await state();
    expect(s.posts).toHaveLength(1);
    const value = record(s.posts[0]);
    expect(value).toMatchObject({ $type: POST, text, createdAt: sb.clock().toISOString() });
    const facets = value.facets as { index: { byteStart: number; byteEnd: number }; features: { $type: string }[] }[];
    expect(facets.map((f) => [cut(text, f.index.byteStart, f.index.byteEnd), f.features[0]?.$type])).toEqual([
      ['@bob.sandbox', 'app.bsky.richtext.facet#mention'],
      ['https://herald.example/docs', 'app.bsky.richtext.facet#link'],
      ['#launch', 'app.bsky.richtext.facet#tag'],
    ]);
  });

  it('publishes images through uploadBlob with alt text and aspect ratio', async () => {
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ postType: 'image', media: [await photo()] }), journal);
    expect(out.state).toBe('published');
    const s = await state();
    const blob = JSON.parse(journal.steps['blob.0'] ?? '{}') as { ref: { $link: string } };
    expect(record(s.posts[0])?.embed).toEqual({
      $type: 'app.bsky.embed.images',
      images: [
        { image: JSON.parse(journal.steps['blob.0'] ?? ''), alt: 'Blue', aspectRatio: { width: 400, height: 300 } },
      ],
    });
    expect(s.posts[0]?.media).toEqual([blob.ref.$link]);
  });

  it('publishes a four-image carousel, each image with its alt text and aspect ratio, and refuses a fifth image', async () => {
    const shapes = [
      [400, 300],
      [300, 400],
      [500, 500],
      [640, 360],
    ] as const;
    const items = await Promise.all(
      shapes.map(async ([w, h], i) =>
        fixtureMedia(sb, {
          name: `c${i}.jpg`,
          bytes: await jpegImage(w, h),
          kind: 'image',
          mime: 'image/jpeg',
          format: 'jpeg',
          width: w,
          height: h,
          altText: `Picture ${i + 1}`,
        }),
      ),
    );
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ postType: 'carousel', text: 'Four', media: items }), journal);
    expect(out.state).toBe('published');
    expect(journal.log.map(([step]) => step)).toEqual(['blob.0', 'blob.1', 'blob.2', 'blob.3', 'rkey', 'uri']);
    const s = await state();
    expect(s.posts).toHaveLength(1);
    const embed = record(s.posts[0])?.embed as {
      $type: string;
      images: { image: { size: number }; alt: string; aspectRatio: unknown }[];
    };
    expect(embed.$type).toBe('app.bsky.embed.images');
    expect(embed.images.map((i) => [i.alt, i.aspectRatio, i.image.size])).toEqual(
      shapes.map(([width, height], i) => [`Picture ${i + 1}`, { width, height }, items[i]?.size]),
    );

    const five = [...items, items[0]!];
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'carousel', media: five, targetId: 'tgt_five' }), memoryJournal()),
      'invalid_content',
    );
    expect((await state()).posts).toHaveLength(1);
  });

  it('re-encodes an image over the blob limit to fit it, keeping the aspect ratio, and a retry reuses the journaled blob and ratio', async () => {
    const bytes = await noisePng(2400, 1600);
    expect(bytes.length).toBeGreaterThan(2_000_000);
    const big = fixtureMedia(sb, {
      name: 'big.png',
      bytes,
      kind: 'image',
      mime: 'image/png',
      format: 'png',
      width: 2400,
      height: 1600,
      altText: 'Noise',
    });
    const req = request({ postType: 'image', text: 'Big', media: [big] });
    const journal = memoryJournal();
    journal.crashAfter = 'blob.0';
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    expect(await publisher.publish(tokens, req, journal)).toMatchObject({ state: 'published' });
    expect(journal.log.map(([step]) => step)).toEqual(['ratio.0', 'blob.0', 'rkey', 'uri']);
    const s = await state();
    expect(ok(s, 'com.atproto.repo.uploadBlob')).toHaveLength(1);
    const embed = record(s.posts[0])?.embed as {
      images: {
        image: { size: number; mimeType: string };
        alt: string;
        aspectRatio: { width: number; height: number };
      }[];
    };
    const [image] = embed.images;
    expect(image?.image.mimeType).toBe('image/jpeg');
    expect(image?.image.size).toBeLessThanOrEqual(IMAGE_BLOB_MAX);
    expect(image?.alt).toBe('Noise');
    // Scaled to Bluesky's 2000 px long edge (or below), 3:2 kept.
    expect(image?.aspectRatio.width).toBeLessThanOrEqual(2000);
    expect(image!.aspectRatio.width / image!.aspectRatio.height).toBeCloseTo(1.5, 2);
    // The uploaded bytes are a JPEG of exactly the size the embed states.
    const upload = ok(s, 'com.atproto.repo.uploadBlob')[0];
    expect(upload?.headers['content-length']).toBe(String(image?.image.size));
    expect(journal.steps['ratio.0']).toBe(`${image?.aspectRatio.width}x${image?.aspectRatio.height}`);
  });

  it('re-encodes an oversized image with transparency as WebP, and applies EXIF orientation before measuring', async () => {
    const alpha = fixtureMedia(sb, {
      name: 'alpha.png',
      bytes: await noisePng(800, 600, 4),
      kind: 'image',
      mime: 'image/png',
      format: 'png',
      width: 800,
      height: 600,
    });
    // A landscape JPEG that says "rotate 90°": seen upright it is portrait.
    const rotated = await sharp(await noisePng(1800, 1200))
      .jpeg({ quality: 100 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(rotated.length).toBeGreaterThan(IMAGE_BLOB_MAX);
    const turned = fixtureMedia(sb, {
      name: 'turned.jpg',
      bytes: rotated,
      kind: 'image',
      mime: 'image/jpeg',
      format: 'jpeg',
      width: 1800,
      height: 1200,
    });
    const out = await publisher.publish(
      tokens,
      request({ postType: 'carousel', media: [alpha, turned] }),
      memoryJournal(),
    );
    expect(out.state).toBe('published');
    const embed = record((await state()).posts[0])?.embed as {
      images: {
        image: { size: number; mimeType: string };
        alt: string;
        aspectRatio: { width: number; height: number };
      }[];
    };
    expect(embed.images.map((i) => [i.image.mimeType, i.image.size <= IMAGE_BLOB_MAX, i.alt])).toEqual([
      ['image/webp', true, ''],
      ['image/jpeg', true, ''],
    ]);
    const [first, second] = embed.images.map((i) => i.aspectRatio);
    expect(first!.width / first!.height).toBeCloseTo(4 / 3, 2);
    expect(second!.height / second!.width).toBeCloseTo(1.5, 2);
  });

  it('publishes a video through the video service: processing while the job runs, then one post', async () => {
    await sb.configure({ processingMs: { bluesky: 60_000 } });
    const video = await clip();
    const req = request({ postType: 'video', text: 'Watch', media: [video] });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    expect(first).toEqual({ state: 'processing', handle: journal.steps['video.job'] });
    expect(
      await publisher.checkStatus!(tokens, first.state === 'processing' ? first.handle : '', req, journal),
    ).toEqual(first);
    let s = await state();
    expect(ok(s, 'app.bsky.video.uploadVideo')).toHaveLength(1);
    expect(calls(s, 'com.atproto.repo.createRecord')).toHaveLength(0);
    const upload = calls(s, 'app.bsky.video.uploadVideo')[0];
    expect(upload?.query).toMatchObject({ did: tokens.extra?.did, name: `${video.id}.mp4` });
    expect(upload?.headers['content-length']).toBe(String(video.size));

    sb.advance(61);
    const done = await publisher.checkStatus!(tokens, '', req, journal);
    expect(done.state).toBe('published');
    expect(journal.log.map(([step]) => step)).toEqual(['video.job', 'video.blob', 'rkey', 'uri']);
    s = await state();
    expect(s.posts).toHaveLength(1);
    expect(record(s.posts[0])?.embed).toEqual({
      $type: 'app.bsky.embed.video',
      video: JSON.parse(journal.steps['video.blob'] ?? ''),
      alt: 'Clip',
      aspectRatio: { width: 640, height: 360 },
    });
    expect(ok(s, 'com.atproto.repo.uploadBlob')).toHaveLength(0);
  });

  it('uploads the video to the PDS when the video service cannot be reached', async () => {
    const urls = { ...sandboxBaseUrls(sb.publicUrl).bluesky, video: 'http://127.0.0.1:9' };
    const fallback = adapterFor(urls).publisher!;
    const journal = memoryJournal();
    expect((await fallback.publish(tokens, request({ postType: 'video', media: [await clip()] }), journal)).state).toBe(
      'published',
    );
    const s = await state();
    expect(ok(s, 'com.atproto.repo.uploadBlob')).toHaveLength(1);
    expect(record(s.posts[0])?.embed).toMatchObject({
      $type: 'app.bsky.embed.video',
      video: { mimeType: 'video/mp4' },
    });
  });

  it('reports a failed video job as invalid_content', async () => {
    const bad = await clip(Buffer.from('not a video at all'.repeat(20)));
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'video', media: [bad] }), memoryJournal()),
      'invalid_content',
    );
    expect(err.message).toContain('validation_failure');
    expect((await state()).posts).toHaveLength(0);
  });
});

describe('bluesky: the PDS rate limits (strict rate_limits)', () => {
  it('past 5,000 write points an hour (a post costs 3) a post is rate-limited until the hour the PDS names, then goes through', async () => {
    await sb.configure({ strict: { rate_limits: true } });
    // 1,666 posts × 3 points = 4,998: the PDS's own budget, reached through its createRecord directly.
    const did = (tokens.extra as Record<string, string> | undefined)?.did ?? '';
    for (let i = 0; i < 1666; i++) {
      const res = await fetch(sb.url('bluesky', '/xrpc/com.atproto.repo.createRecord'), {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          repo: did,
          collection: 'app.bsky.feed.post',
          record: { $type: 'app.bsky.feed.post', text: `n${i}`, createdAt: new Date(sb.nowMs()).toISOString() },
        }),
      });
      if (res.status !== 200) throw new Error(`createRecord ${i}: ${res.status} ${await res.text()}`);
    }
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ text: 'one too many' }), memoryJournal()),
      'rate_limited',
    );
    expect(err.retryable).toBe(true);
    // The sandbox clock is at 12:00:00 UTC: the hour's window ends at 13:00.
    expect(err.retryAfterSeconds).toBe(3600);
    sb.advance(3600);
    expect((await publisher.publish(tokens, request({ text: 'next hour' }), memoryJournal())).state).toBe('published');
  });

  it("createSession: 30 logins of a handle per 5 minutes, then a 429 naming the window's end", async () => {
    await sb.configure({ strict: { rate_limits: true } });
    const adapter = adapterFor(sandboxBaseUrls(sb.publicUrl).bluesky);
    if (adapter.auth.kind !== 'app_password') throw new Error('app password');
    const auth = adapter.auth;
    // A handle beforeEach did not log in with. The limit is per handle: another one still logs in.
    const carol = { handle: 'carol.sandbox', appPassword: 'abcd-ef12-gh34-ij56' };
    for (let i = 0; i < 30; i++) await auth.login(carol);
    const err = await expectPlatformError(auth.login(carol), 'rate_limited');
    expect(err.retryAfterSeconds).toBe(300);
    expect((await auth.login({ handle: 'dave.sandbox', appPassword: 'abcd-ef12-gh34-ij56' })).accessToken).toEqual(
      expect.any(String),
    );
    sb.advance(300);
    expect((await auth.login(carol)).accessToken).toEqual(expect.any(String));
  });
});

describe('bluesky publisher: journal and faults', () => {
  it('reuses journaled blobs and video jobs after a crash', async () => {
    const imageReq = request({
      postType: 'image',
      media: [await photo('a.jpg'), await photo('b.jpg')],
      targetId: 'tgt_img',
    });
    const j1 = memoryJournal();
    j1.crashAfter = 'blob.0';
    await expect(publisher.publish(tokens, imageReq, j1)).rejects.toBeInstanceOf(SimulatedCrash);
    expect((await publisher.publish(tokens, imageReq, j1)).state).toBe('published');

    await sb.configure({ processingMs: { bluesky: 60_000 } });
    const videoReq = request({ postType: 'video', media: [await clip()], targetId: 'tgt_vid' });
    const j2 = memoryJournal();
    j2.crashAfter = 'video.job';
    await expect(publisher.publish(tokens, videoReq, j2)).rejects.toBeInstanceOf(SimulatedCrash);
    sb.advance(61);
    expect((await publisher.publish(tokens, videoReq, j2)).state).toBe('published');

    const s = await state();
    expect(ok(s, 'com.atproto.repo.uploadBlob')).toHaveLength(2);
    expect(ok(s, 'app.bsky.video.uploadVideo')).toHaveLength(1);
    expect(s.posts).toHaveLength(2);
  });

  it('uploads again when the PDS no longer has a journaled blob', async () => {
    const gone = JSON.stringify({
      $type: 'blob',
      ref: { $link: `bafkrei${'a'.repeat(52)}` },
      mimeType: 'image/jpeg',
      size: 10,
    });
    const journal = memoryJournal({ 'blob.0': gone });
    expect(
      (await publisher.publish(tokens, request({ postType: 'image', media: [await photo()] }), journal)).state,
    ).toBe('published');
    expect(journal.steps['blob.0']).not.toBe(gone);
    const s = await state();
    expect(calls(s, 'com.atproto.repo.createRecord').map((r) => r.status)).toEqual([400, 200]);
    expect(s.posts).toHaveLength(1);
  });

  it('a failed create keeps its key, and the retry creates the post under it', async () => {
    const journal = memoryJournal();
    await sb.fault({ platform: 'bluesky', operation: 'publish', fault: 'server_error' });
    await expectPlatformError(publisher.publish(tokens, request(), journal), 'transient');
    const rkey = journal.steps.rkey;
    expect(journal.steps.uri).toBeUndefined();
    const out = await publisher.publish(tokens, request(), journal);
    expect(out).toMatchObject({ state: 'published', postId: expect.stringMatching(new RegExp(`/${rkey}$`)) });
    expect((await state()).posts).toHaveLength(1);
  });

  it('upload, status and throttling faults surface as retryable errors; retries publish once', async () => {
    const req = request({ postType: 'image', media: [await photo()] });
    const journal = memoryJournal();
    await sb.fault({ platform: 'bluesky', operation: 'upload', fault: 'server_error' });
    await expectPlatformError(publisher.publish(tokens, req, journal), 'transient');
    expect(journal.steps['blob.0']).toBeUndefined();
    await sb.fault({ platform: 'bluesky', operation: 'publish', fault: 'rate_limit' });
    const limited = await expectPlatformError(publisher.publish(tokens, req, journal), 'rate_limited');
    expect(limited.retryAfterSeconds).toBeGreaterThan(0);
    expect((await publisher.publish(tokens, req, journal)).state).toBe('published');

    await sb.configure({ processingMs: { bluesky: 60_000 } });
    const videoReq = request({ postType: 'video', media: [await clip()], targetId: 'tgt_v' });
    const vj = memoryJournal();
    expect((await publisher.publish(tokens, videoReq, vj)).state).toBe('processing');
    await sb.fault({ platform: 'bluesky', operation: 'status', fault: 'server_error' });
    await expectPlatformError(publisher.checkStatus!(tokens, '', videoReq, vj), 'transient');
    sb.advance(61);
    expect((await publisher.checkStatus!(tokens, '', videoReq, vj)).state).toBe('published');
    const s = await state();
    expect(s.posts).toHaveLength(2);
    expect(ok(s, 'app.bsky.video.uploadVideo')).toHaveLength(1);
  });

  it('an expired session is auth_expired; reconcile is null without a trace', async () => {
    await sb.fault({ platform: 'bluesky', operation: 'publish', fault: 'expire_token' });
    await expectPlatformError(publisher.publish(tokens, request(), memoryJournal()), 'auth_expired', [
      tokens.accessToken,
    ]);
    expect(await publisher.reconcile!(tokens, request(), memoryJournal())).toBeNull();
    expect((await state()).posts).toHaveLength(0);
  });
});
