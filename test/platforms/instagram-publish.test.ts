// The Instagram publisher against the Instagram simulator over real HTTP: containers, processing, media_publish,
// permalinks, the journal (reuse after a crash, never publishing twice or unfinished) and injected faults.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { instagramAdapter } from '../../src/platforms/instagram/index.ts';
import { instagramPublisher } from '../../src/platforms/instagram/publish.ts';
import { graphErrorFrom } from '../../src/platforms/meta/graph.ts';
import type { PublishMedia, PublishRequest, Publisher } from '../../src/platforms/publishing.ts';
import type { TokenSet } from '../../src/platforms/types.ts';
import { connectThrough, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import {
  fixtureMedia,
  jpegImage,
  memoryJournal,
  mp4Video,
  SimulatedCrash,
  PUBLISH_PROCESSING_MS,
} from './helpers/publish-fixtures.ts';
import { calls, startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

let sb: TestSandbox;
let publisher: Publisher;
let tokens: TokenSet;
let igUserId: string;

const state = () => sb.state('instagram');

async function image(name: string, altText?: string): Promise<PublishMedia> {
  return fixtureMedia(sb, {
    name,
    bytes: await jpegImage(1080, 1080),
    kind: 'image',
    mime: 'image/jpeg',
    format: 'jpeg',
    width: 1080,
    height: 1080,
    ...(altText ? { altText } : {}),
  });
}

async function video(name = 'clip.mp4'): Promise<PublishMedia> {
  return fixtureMedia(sb, {
    name,
    bytes: await mp4Video({ width: 720, height: 1280, durationSec: 8 }),
    kind: 'video',
    mime: 'video/mp4',
    format: 'mp4',
    width: 720,
    height: 1280,
    durationSec: 8,
  });
}

function request(over: Partial<PublishRequest>): PublishRequest {
  return { postType: 'image', text: 'Morning light #sandbox', media: [], options: {}, targetId: 'tgt_ig_1', ...over };
}

beforeAll(async () => {
  sb = await startSandbox({ processingMs: PUBLISH_PROCESSING_MS });
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { instagram: 0 } });
  const deps = sandboxDeps(sb, 'instagram');
  const adapter = instagramAdapter(deps);
  tokens = await connectThrough(sb, adapter);
  igUserId = (await adapter.fetchAccount(tokens)).id;
  expect(adapter.publisher).toBeDefined();
  // Short pauses: the sandbox's processing delay is what the tests control.
  publisher = instagramPublisher(deps, { waitMs: [30, 60, 120] });
});

describe('instagram publisher: post types', () => {
  it('publishes a JPEG with caption and alt text, journals every id, and returns the shortcode permalink', async () => {
    const media = await image('sunrise.jpg', 'Sun over the bay');
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ media: [media] }), journal);
    expect(out).toMatchObject({ state: 'published', postId: expect.stringMatching(/^1[78]\d{16}$/) });
    if (out.state !== 'published') throw new Error('not published');
    expect(out.permalink).toMatch(new RegExp(`^${sb.url('instagram', '')}/p/C[\\w-]{10}/$`));
    expect(out.permalink).not.toContain(out.postId);
    expect(journal.log.map(([step]) => step)).toEqual(['account', 'container', 'publish', 'media']);
    expect(journal.steps).toMatchObject({ account: igUserId, publish: journal.steps.container, media: out.postId });

    const s = await state();
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({
      id: out.postId,
      author: igUserId,
      text: 'Morning light #sandbox',
      media: [media.url],
      media_type: 'IMAGE',
      permalink: out.permalink,
    });
    const [create] = calls(s, 'POST', `/${igUserId}/media`);
    expect(create?.body).toMatchObject({
      image_url: media.url,
      caption: 'Morning light #sandbox',
      alt_text: 'Sun over the bay',
    });
    expect(calls(s, 'POST', '/media_publish')[0]?.body).toEqual({ creation_id: journal.steps.container });
  });

  it('publishes a carousel: children first, then the parent with their ids, as one post', async () => {
    const media = [await image('a.jpg', 'first'), await image('b.jpg'), await image('c.jpg')];
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ postType: 'carousel', text: 'Three views', media }), journal);
    expect(out.state).toBe('published');
    const kids = [journal.steps['child.0'], journal.steps['child.1'], journal.steps['child.2']];
    expect(journal.steps.children).toBe(kids.join(','));
    const s = await state();
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({
      media_type: 'CAROUSEL_ALBUM',
      text: 'Three views',
      media: media.map((m) => m.url),
    });
    const creates = calls(s, 'POST', '/media');
    expect(creates).toHaveLength(4);
    for (const [i, c] of creates.slice(0, 3).entries()) {
      expect(c.body).toMatchObject({ is_carousel_item: 'true', image_url: media[i]?.url });
      expect(c.body).not.toHaveProperty('caption');
    }
    expect(creates[0]?.body).toMatchObject({ alt_text: 'first' });
    expect(creates[3]?.body).toEqual({ media_type: 'CAROUSEL', children: kids.join(','), caption: 'Three views' });
  });

  it('publishes a Reel: processing while the container is IN_PROGRESS, never publishing it early', async () => {
    await sb.configure({ processingMs: { instagram: 60_000 } });
    const clip = await video();
    const cover = await image('cover.jpg');
    const req = request({ postType: 'video', text: 'Reel time', media: [clip], thumbnail: cover });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    expect(first).toEqual({ state: 'processing', handle: journal.steps.container });
    expect(await publisher.checkStatus!(tokens, journal.steps.container ?? '', req, journal)).toEqual(first);
    let s = await state();
    expect(calls(s, 'POST', '/media_publish')).toHaveLength(0);
    expect(calls(s, 'POST', '/media')[0]?.body).toEqual({
      media_type: 'REELS',
      video_url: clip.url,
      caption: 'Reel time',
      cover_url: cover.url,
    });

    sb.advance(61);
    const done = await publisher.checkStatus!(tokens, journal.steps.container ?? '', req, journal);
    expect(done).toMatchObject({
      state: 'published',
      permalink: expect.stringMatching(new RegExp(`^${sb.url('instagram', '')}/reel/C[\\w-]{10}/$`)),
    });
    s = await state();
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ media_type: 'VIDEO', media_product_type: 'REELS' });
    expect(calls(s, 'POST', '/media')).toHaveLength(1);
    // Asking again returns the journaled post without touching Instagram's publish endpoint.
    expect(await publisher.publish(tokens, req, journal)).toEqual(done);
    expect(calls(await state(), 'POST', '/media_publish')).toHaveLength(1);
  });

  it('waits briefly for image containers inside publish()', async () => {
    await sb.configure({ processingMs: { instagram: 80 } });
    const out = await publisher.publish(tokens, request({ media: [await image('quick.jpg')] }), memoryJournal());
    expect(out.state).toBe('published');
  });

  it('returns processing for a carousel whose children are still IN_PROGRESS, creating no parent yet', async () => {
    await sb.configure({ processingMs: { instagram: 60_000 } });
    const req = request({ postType: 'carousel', media: [await image('p.jpg'), await image('q.jpg')] });
    const journal = memoryJournal();
    expect(await publisher.publish(tokens, req, journal)).toEqual({
      state: 'processing',
      handle: journal.steps['child.0'],
    });
    expect(journal.steps.container).toBeUndefined();
    sb.advance(61);
    // The children are done; the parent is created now and processes in turn.
    expect(await publisher.checkStatus!(tokens, '', req, journal)).toEqual({
      state: 'processing',
      handle: journal.steps.container,
    });
    expect(calls(await state(), 'POST', '/media_publish')).toHaveLength(0);
    sb.advance(61);
    expect((await publisher.checkStatus!(tokens, '', req, journal)).state).toBe('published');
    const s = await state();
    expect(calls(s, 'POST', '/media')).toHaveLength(3);
    expect(s.posts).toHaveLength(1);
  });

  it('refuses text posts and wrong media before calling Instagram', async () => {
    await expectPlatformError(publisher.publish(tokens, request({ postType: 'text' }), memoryJournal()), 'unsupported');
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'video', media: [await image('x.jpg')] }), memoryJournal()),
      'invalid_content',
    );
    expect((await state()).requests.filter((r) => r.path.includes('/media'))).toHaveLength(0);
  });
});

describe('instagram publisher: journal and recovery', () => {
  it('reuses a journaled container after a crash instead of creating a second one', async () => {
    const req = request({ media: [await image('once.jpg')] });
    const journal = memoryJournal();
    journal.crashAfter = 'container';
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const out = await publisher.publish(tokens, req, journal);
    expect(out.state).toBe('published');
    const s = await state();
    expect(calls(s, 'POST', '/media')).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]?.containerId).toBe(journal.steps.container);
  });

  it('resumes a carousel from the journaled children', async () => {
    const req = request({
      postType: 'carousel',
      media: [await image('r1.jpg'), await image('r2.jpg'), await image('r3.jpg')],
    });
    const journal = memoryJournal();
    journal.crashAfter = 'child.1';
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    expect((await publisher.publish(tokens, req, journal)).state).toBe('published');
    const s = await state();
    expect(calls(s, 'POST', '/media')).toHaveLength(4);
    expect(s.posts).toHaveLength(1);
  });

  it('creates a new container when the journaled one expired', async () => {
    const req = request({ media: [await image('late.jpg')] });
    const journal = memoryJournal();
    journal.crashAfter = 'container';
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const stale = journal.steps.container;
    sb.advance(25 * 3600);
    expect((await publisher.publish(tokens, req, journal)).state).toBe('published');
    const s = await state();
    expect(journal.steps.container).not.toBe(stale);
    expect(s.containers.find((c) => c.id === stale)?.status_code).toBe('EXPIRED');
    expect(s.posts).toHaveLength(1);
  });

  it('reports a container ERROR as invalid_content with Instagram status text', async () => {
    const bad = fixtureMedia(sb, {
      name: 'corrupt-clip.mp4',
      bytes: await mp4Video(),
      kind: 'video',
      mime: 'video/mp4',
      format: 'mp4',
    });
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'video', media: [bad] }), memoryJournal()),
      'invalid_content',
    );
    expect(err.message).toContain('2207026');
    const s = await state();
    expect(calls(s, 'POST', '/media_publish')).toHaveLength(0);
    expect(s.posts).toHaveLength(0);
  });

  it('reconcile: null without a trace, null for an unpublished container, the post for a journaled media id', async () => {
    const req = request({ media: [await image('rec.jpg')] });
    expect(await publisher.reconcile!(tokens, req, memoryJournal())).toBeNull();
    await sb.configure({ processingMs: { instagram: 60_000 } });
    const pending = memoryJournal();
    expect((await publisher.publish(tokens, req, pending)).state).toBe('processing');
    expect(await publisher.reconcile!(tokens, req, pending)).toBeNull();
    await sb.configure({ processingMs: { instagram: 0 } });
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, req, journal);
    if (out.state !== 'published') throw new Error('not published');
    expect(await publisher.reconcile!(tokens, req, journal)).toEqual({ postId: out.postId, permalink: out.permalink });
  });
});

describe('instagram publisher: faults', () => {
  it('a failed container creation journals nothing and a retry publishes once', async () => {
    const req = request({ media: [await image('u.jpg')] });
    const journal = memoryJournal({ account: igUserId });
    await sb.fault({ platform: 'instagram', operation: 'upload', fault: 'server_error' });
    await expectPlatformError(publisher.publish(tokens, req, journal), 'transient');
    expect(journal.steps.container).toBeUndefined();
    expect((await publisher.publish(tokens, req, journal)).state).toBe('published');
    expect((await state()).posts).toHaveLength(1);
  });

  it('a throttled publish keeps the container and the retry publishes it once', async () => {
    const req = request({ media: [await image('t.jpg')] });
    const journal = memoryJournal();
    await sb.fault({ platform: 'instagram', operation: 'publish', fault: 'rate_limit' });
    await expectPlatformError(publisher.publish(tokens, req, journal), 'rate_limited');
    expect(journal.steps.publish).toBe(journal.steps.container);
    expect((await publisher.publish(tokens, req, journal)).state).toBe('published');
    const s = await state();
    expect(calls(s, 'POST', '/media')).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('a failed status poll leaves the journaled container to the next attempt', async () => {
    await sb.configure({ processingMs: { instagram: 60_000 } });
    const req = request({ postType: 'video', media: [await video()] });
    const journal = memoryJournal();
    expect((await publisher.publish(tokens, req, journal)).state).toBe('processing');
    sb.advance(61);
    await sb.fault({ platform: 'instagram', operation: 'status', fault: 'server_error' });
    await expectPlatformError(publisher.checkStatus!(tokens, '', req, journal), 'transient');
    expect((await publisher.checkStatus!(tokens, '', req, journal)).state).toBe('published');
    const s = await state();
    expect(calls(s, 'POST', '/media')).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('an expired token surfaces as auth_expired without losing the journal', async () => {
    const req = request({ media: [await image('e.jpg')] });
    const journal = memoryJournal({ account: igUserId });
    await sb.fault({ platform: 'instagram', operation: 'publish', fault: 'expire_token' });
    await expectPlatformError(publisher.publish(tokens, req, journal), 'auth_expired', [tokens.accessToken]);
    expect(journal.steps.container).toBeDefined();
    expect((await state()).posts).toHaveLength(0);
  });
});

describe('instagram publisher: what Meta refuses or asks (strict sandbox)', () => {
  it('maps the daily publishing limit (9/2207042) to rate-limited, waiting out the rolling 24-hour window', async () => {
    await sb.configure({ publishLimits: { instagram: 1 } });
    expect((await publisher.publish(tokens, request({ media: [await image('one.jpg')] }), memoryJournal())).state).toBe(
      'published',
    );
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ text: 'second', media: [await image('two.jpg')] }), memoryJournal()),
      'rate_limited',
    );
    expect(err.retryable).toBe(true);
    expect(err.retryAfterSeconds).toBe(24 * 3600);
  });

  it('maps the passing content-publishing codes (-1/2207001, -2/2207003, 24/2207008, is_transient) to retryable', () => {
    const res = (error: Record<string, unknown>) => ({
      status: 400,
      headers: new Headers(),
      data: { error: { message: 'x', type: 'OAuthException', ...error } },
      text: '',
    });
    for (const error of [
      { code: -1, error_subcode: 2207001 },
      { code: -2, error_subcode: 2207003 },
      { code: 24, error_subcode: 2207008 },
      { code: 100, is_transient: true },
    ]) {
      const err = graphErrorFrom('instagram', res(error) as never, 'api');
      expect(err.kind, JSON.stringify(error)).toBe('transient');
      expect(err.retryable).toBe(true);
    }
    expect(graphErrorFrom('instagram', res({ code: 36001, error_subcode: 2207005 }) as never, 'api').kind).toBe(
      'invalid_content',
    );
  });

  it("checks a Reel against Meta's video specification before making any container: MP4/MOV, 3 s to 15 min, 300 MB, 1920 columns", async () => {
    const clip = await video('spec.mp4');
    const cases: [string, PublishMedia][] = [
      ['a WebM', { ...clip, format: 'webm', mime: 'video/webm' }],
      ['too short', { ...clip, durationSec: 2 }],
      ['too long', { ...clip, durationSec: 15 * 60 + 1 }],
      ['over 300 MB', { ...clip, size: 300 * 1024 * 1024 + 1 }],
      ['4K wide', { ...clip, width: 3840, height: 2160 }],
      ['thinner than 0.01:1', { ...clip, width: 10, height: 1100 }],
    ];
    for (const [label, media] of cases) {
      const err = await expectPlatformError(
        publisher.publish(tokens, request({ postType: 'video', media: [media] }), memoryJournal()),
        'invalid_content',
      );
      expect(err.message, label).toMatch(/Reels/);
    }
    expect(calls(await state(), 'POST', '/media')).toHaveLength(0);
    // Within the specification (a MOV at the limits): a Reel.
    const mov = {
      ...clip,
      format: 'mov',
      mime: 'video/quicktime',
      size: 300 * 1024 * 1024,
      durationSec: 3,
      width: 1920,
      height: 1080,
    };
    expect((await publisher.publish(tokens, request({ postType: 'video', media: [mov] }), memoryJournal())).state).toBe(
      'published',
    );
  });

  it('public_media_only: media on a private address is refused as Meta refuses it; a container in ERROR is made again on retry', async () => {
    await sb.configure({ strict: { public_media_only: true }, publicHosts: [] });
    await expectPlatformError(
      publisher.publish(tokens, request({ media: [await image('local.jpg')] }), memoryJournal()),
      'invalid_content',
    );
    expect((await state()).containers).toHaveLength(0);
    // A video is fetched while the container processes: the container goes to ERROR.
    const req = request({ postType: 'video', media: [await video('local.mp4')] });
    const journal = memoryJournal();
    await expectPlatformError(publisher.publish(tokens, req, journal), 'invalid_content');
    const failed = journal.steps.container;
    expect((await state()).containers.find((c) => c.id === failed)).toMatchObject({ status_code: 'ERROR' });
    // Once the media is reachable, the retry makes a new container instead of reusing the failed one forever.
    await sb.configure({ publicHosts: [new URL(sb.publicUrl).host] });
    sb.advance(61);
    const out = await publisher.publish(tokens, req, journal);
    expect(out.state).toBe('published');
    expect(journal.steps.container).not.toBe(failed);
  });

  it('reads container status at Meta\u2019s pace (once a minute by default), whatever the caller polls at', async () => {
    await sb.configure({ processingMs: { instagram: 600_000 } });
    const paced = instagramPublisher(sandboxDeps(sb, 'instagram'), { waitMs: [] });
    const req = request({ postType: 'video', media: [await video('slow.mp4')] });
    const journal = memoryJournal();
    const first = await paced.publish(tokens, req, journal);
    expect(first.state).toBe('processing');
    const reads = async () => calls(await state(), 'GET', `/${journal.steps.container}`).length;
    const handle = first.state === 'processing' ? first.handle : '';
    await paced.checkStatus!(tokens, handle, req, journal);
    const afterFirst = await reads();
    for (let i = 0; i < 5; i++)
      expect((await paced.checkStatus!(tokens, handle, req, journal)).state).toBe('processing');
    expect(await reads()).toBe(afterFirst);
    sb.advance(60);
    await paced.checkStatus!(tokens, handle, req, journal);
    expect(await reads()).toBe(afterFirst + 1);
  });
});
