import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FACEBOOK_GRAPH_VERSION, facebookAdapter, pageTokenKey } from '../../src/platforms/facebook/index.ts';
import { facebookPublisher } from '../../src/platforms/facebook/publish.ts';
import type { Journal, PublishRequest, Publisher } from '../../src/platforms/publishing.ts';
import type { TokenSet } from '../../src/platforms/types.ts';
import { connectThrough, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import {
  fixtureMedia,
  jpegImage,
  memoryJournal,
  mp4Video,
  pngImage,
  publisherOf,
  SimulatedCrash,
  PUBLISH_PROCESSING_MS,
} from './helpers/publish-fixtures.ts';
import type { FixtureMedia } from './helpers/publish-fixtures.ts';
import { calls, startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const MB = 1024 * 1024;
let sb: TestSandbox;
let publisher: Publisher;
let tokens: TokenSet;
let pageA: string;
let pageB: string;

async function connect(): Promise<void> {
  const adapter = facebookAdapter(sandboxDeps(sb, 'facebook'));
  tokens = await connectThrough(sb, adapter);
  const pages = (await adapter.fetchAccount(tokens)).destinations.filter((d) => d.kind === 'page');
  pageA = pages[0]?.id ?? '';
  pageB = pages[1]?.id ?? '';
  publisher = publisherOf(adapter);
}

function request(over: Partial<PublishRequest> = {}): PublishRequest {
  return {
    postType: 'text',
    text: 'Hello Page',
    media: [],
    options: {},
    targetId: 'tgt_1',
    destination: { kind: 'page', id: pageA },
    ...over,
  };
}

const pageToken = (id: string): string => tokens.extra?.[pageTokenKey(id)] ?? '';

async function image(name: string, altText?: string): Promise<FixtureMedia> {
  const png = name.endsWith('.png');
  const bytes = png ? await pngImage() : await jpegImage();
  return fixtureMedia(sb, {
    name,
    bytes,
    kind: 'image',
    mime: png ? 'image/png' : 'image/jpeg',
    format: png ? 'png' : 'jpeg',
    ...(altText ? { altText } : {}),
  });
}

async function video(name: string, mdatBytes = 2048): Promise<FixtureMedia> {
  return fixtureMedia(sb, {
    name,
    bytes: await mp4Video({ mdatBytes }),
    kind: 'video',
    mime: 'video/mp4',
    format: 'mp4',
    durationSec: 12.5,
  });
}

beforeAll(async () => {
  sb = await startSandbox({ processingMs: PUBLISH_PROCESSING_MS });
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await connect();
});

describe('facebook publisher: post types', () => {
  it('publishes a text post with the Page token and reads the permalink from Graph', async () => {
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ text: 'Opening hours (new!) #weekend' }), journal);
    expect(out).toMatchObject({ state: 'published', postId: expect.stringMatching(new RegExp(`^${pageA}_\\d+$`)) });
    const s = await sb.state('facebook');
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({
      id: out.state === 'published' ? out.postId : '',
      author: pageA,
      text: 'Opening hours (new!) #weekend',
    });
    expect(out).toMatchObject({ permalink: s.posts[0]?.permalink });
    const [create] = calls(s, 'POST', `/${pageA}/feed`);
    expect(create?.headers.authorization).toBe(`Bearer ${pageToken(pageA)}`);
    expect(create?.path).toContain(`/${FACEBOOK_GRAPH_VERSION}/`);
    expect(calls(s, 'GET', `/${s.posts[0]?.id}`)[0]?.query).toMatchObject({ fields: 'permalink_url' });
    expect(journal.steps).toMatchObject({ post: s.posts[0]?.id });
  });

  it('refuses a Page the account does not manage and a post without a Page', async () => {
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ destination: { kind: 'page', id: '999' } }), memoryJournal()),
      'permission',
    );
    expect(err.message).toContain('Page 999 is not managed by the connected account');
    await expectPlatformError(
      publisher.publish(tokens, request({ destination: undefined }), memoryJournal()),
      'unsupported',
    );
    expect((await sb.state('facebook')).posts).toHaveLength(0);
  });

  it('publishes one photo by its public URL with a caption', async () => {
    const photo = await image('photo.jpg', 'A blue rectangle');
    const out = await publisher.publish(
      tokens,
      request({ postType: 'image', text: 'Our shop', media: [photo] }),
      memoryJournal(),
    );
    expect(out.state).toBe('published');
    const s = await sb.state('facebook');
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ text: 'Our shop', status_type: 'added_photos', media: [s.media[0]?.id] });
    expect(s.media[0]).toMatchObject({ kind: 'photo', url: photo.url, caption: 'Our shop', published: true });
    expect(await (await fetch(photo.url)).arrayBuffer()).toHaveProperty('byteLength', photo.size);
  });

  it('publishes several photos to the second Page as one feed post with attached_media', async () => {
    const photos = [await image('p1.png'), await image('p2.jpg'), await image('p3.png')];
    const journal = memoryJournal();
    const out = await publisher.publish(
      tokens,
      request({ postType: 'carousel', text: 'Album', media: photos, destination: { kind: 'page', id: pageB } }),
      journal,
    );
    expect(out).toMatchObject({ state: 'published', postId: expect.stringMatching(new RegExp(`^${pageB}_`)) });
    const s = await sb.state('facebook');
    const ids = [0, 1, 2].map((i) => journal.steps[`photo:${i}`]);
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ author: pageB, text: 'Album', media: ids });
    expect(s.media.map((m) => [m.id, m.published, m.attachedTo])).toEqual(ids.map((id) => [id, false, s.posts[0]?.id]));
  });

  it('publishes a video by file_url and polls it through checkStatus until ready', async () => {
    const clip = await video('clip.mp4');
    const req = request({ postType: 'video', text: 'Watch this', title: 'Clip', media: [clip] });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    expect(first).toMatchObject({ state: 'processing', handle: journal.steps.video });
    sb.advance(1);
    const out = await publisher.checkStatus!(tokens, journal.steps.video ?? '', req, journal);
    const s = await sb.state('facebook');
    expect(out).toEqual({
      state: 'published',
      postId: `${pageA}_${journal.steps.video}`,
      permalink: s.posts[0]?.permalink,
    });
    expect(s.media[0]).toMatchObject({
      kind: 'video',
      source: 'file_url',
      fileUrl: clip.url,
      description: 'Watch this',
      title: 'Clip',
      video_status: 'ready',
    });
    expect(s.posts).toHaveLength(1);
  });

  it('uploads a large video in the ranges Facebook asks for, with a thumbnail', async () => {
    await sb.configure({ processingMs: 0 });
    const chunked = facebookPublisher(sandboxDeps(sb, 'facebook'), { chunkedAboveBytes: MB });
    const clip = await video('big.mp4', 2 * MB + 5000);
    const thumb = await image('cover.jpg');
    const out = await chunked.publish(
      tokens,
      request({ postType: 'video', text: 'Big one', media: [clip], thumbnail: thumb }),
      memoryJournal(),
    );
    expect(out.state).toBe('published');
    expect(clip.opens).toEqual([
      { start: 0, end: MB - 1 },
      { start: MB, end: 2 * MB - 1 },
      { start: 2 * MB, end: clip.size - 1 },
    ]);
    const s = await sb.state('facebook');
    expect(s.uploads[0]).toMatchObject({ status: 'finished', received: clip.size });
    expect(s.media[0]).toMatchObject({
      kind: 'video',
      source: 'resumable',
      bytes: clip.size,
      description: 'Big one',
      mimeType: 'video/mp4',
    });
    expect(s.posts).toHaveLength(1);
  });
});

describe('facebook publisher: journal', () => {
  it('reuses photos uploaded before a crash', async () => {
    const photos = [await image('r1.png'), await image('r2.png'), await image('r3.png')];
    const req = request({ postType: 'carousel', media: photos, text: 'resumed album' });
    const journal = memoryJournal();
    journal.crashAfter = 'photo:1';
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    expect((await publisher.publish(tokens, req, journal)).state).toBe('published');
    const s = await sb.state('facebook');
    expect(calls(s, 'POST', '/photos')).toHaveLength(3);
    expect(s.media).toHaveLength(3);
    expect(s.posts).toHaveLength(1);
  });

  it('finds its own multi-photo post through page_story_id when the create answer was lost', async () => {
    const steps: Record<string, string> = {};
    let lose = true;
    const journal: Journal = {
      steps,
      record: async (step, value) => {
        if (step === 'post' && lose) {
          lose = false;
          throw new SimulatedCrash(step);
        }
        steps[step] = value;
      },
    };
    const req = request({ postType: 'carousel', media: [await image('l1.png'), await image('l2.png')], text: 'once' });
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const out = await publisher.publish(tokens, req, journal);
    const s = await sb.state('facebook');
    expect(s.posts).toHaveLength(1);
    expect(out).toMatchObject({ state: 'published', postId: s.posts[0]?.id, permalink: s.posts[0]?.permalink });
    expect(calls(s, 'POST', '/feed')).toHaveLength(1);
  });

  it('resumes a chunked video upload after a crash, sending only the missing ranges', async () => {
    await sb.configure({ processingMs: 0 });
    const chunked = facebookPublisher(sandboxDeps(sb, 'facebook'), { chunkedAboveBytes: MB });
    const clip = await video('resume.mp4', 2 * MB);
    const req = request({ postType: 'video', media: [clip], text: 'resumed video' });
    const journal = memoryJournal();
    let ranges = 0;
    // Crash once the first chunk's follow-up range is durable (the second record of video:range).
    journal.crashAfter = (step) => step === 'video:range' && ++ranges === 2;
    await expect(chunked.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    expect((await chunked.publish(tokens, req, journal)).state).toBe('published');
    expect(clip.opens.map((r) => r?.start)).toEqual([0, MB, 2 * MB]);
    const s = await sb.state('facebook');
    expect(s.uploads).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('starts one fresh upload session when the journaled range went stale in a crash', async () => {
    await sb.configure({ processingMs: 0 });
    const chunked = facebookPublisher(sandboxDeps(sb, 'facebook'), { chunkedAboveBytes: MB });
    const clip = await video('stale.mp4', MB + 1000);
    const req = request({ postType: 'video', media: [clip], text: 'stale range' });
    const steps: Record<string, string> = {};
    let ranges = 0;
    // Facebook took the first chunk, but the worker died before the next range was durable.
    const journal: Journal = {
      steps,
      record: async (step, value) => {
        if (step === 'video:range' && ++ranges === 2) throw new SimulatedCrash(step);
        steps[step] = value;
      },
    };
    await expect(chunked.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    expect((await chunked.publish(tokens, req, journal)).state).toBe('published');
    const s = await sb.state('facebook');
    expect(s.uploads.map((u) => u.status)).toEqual(['started', 'finished']);
    expect(s.media).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('reconciles through journaled ids', async () => {
    expect(await publisher.reconcile!(tokens, request(), memoryJournal())).toBeNull();
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ text: 'to reconcile' }), journal);
    if (out.state !== 'published') throw new Error('not published');
    expect(await publisher.reconcile!(tokens, request(), journal)).toEqual({
      postId: out.postId,
      permalink: out.permalink,
    });
    const photoJournal = memoryJournal();
    const single = await publisher.publish(
      tokens,
      request({ postType: 'image', media: [await image('rc.png')] }),
      photoJournal,
    );
    // Only the photo id survived: Graph still names the story that shows it.
    const onlyPhoto = memoryJournal({ 'photo:0': photoJournal.steps['photo:0'] ?? '' });
    expect(await publisher.reconcile!(tokens, request(), onlyPhoto)).toMatchObject({
      postId: single.state === 'published' ? single.postId : '',
    });
    expect(onlyPhoto.steps.post).toBe(single.state === 'published' ? single.postId : '');
    await fetch(`${sb.publicUrl}/sandbox/facebook/${FACEBOOK_GRAPH_VERSION}/${out.postId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${pageToken(pageA)}` },
    });
    expect(await publisher.reconcile!(tokens, request(), journal)).toBeNull();
  });
});

describe('facebook publisher: refusals and faults', () => {
  it('refuses over-long text and malformed media sets before any call', async () => {
    const before = (await sb.state('facebook')).requests.length;
    await expectPlatformError(
      publisher.publish(tokens, request({ text: 'x'.repeat(63_207) }), memoryJournal()),
      'invalid_content',
    );
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'carousel', media: [await image('one.png')] }), memoryJournal()),
      'invalid_content',
    );
    await expectPlatformError(publisher.publish(tokens, request({ text: '  ' }), memoryJournal()), 'invalid_content');
    expect((await sb.state('facebook')).requests).toHaveLength(before);
  });

  it('maps content refusals, throttling, server errors and expired Page tokens', async () => {
    const secrets = Object.values(tokens.extra ?? {});
    const webp = fixtureMedia(sb, {
      name: 'pic.webp',
      bytes: await pngImage(),
      kind: 'image',
      mime: 'image/webp',
      format: 'webp',
    });
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'image', media: [webp] }), memoryJournal()),
      'invalid_content',
      secrets,
    );
    await sb.fault({ platform: 'facebook', operation: 'publish', fault: 'rate_limit' });
    await expectPlatformError(
      publisher.publish(tokens, request({ text: 'a' }), memoryJournal()),
      'rate_limited',
      secrets,
    );
    await sb.fault({ platform: 'facebook', operation: 'publish', fault: 'server_error' });
    await expectPlatformError(publisher.publish(tokens, request({ text: 'b' }), memoryJournal()), 'transient', secrets);
    await sb.fault({ platform: 'facebook', operation: 'upload', fault: 'expire_token' });
    const album = [await image('e1.png'), await image('e2.png')];
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'carousel', media: album }), memoryJournal()),
      'auth_expired',
      secrets,
    );
    expect((await sb.state('facebook')).posts).toHaveLength(0);
  });

  it('public_media_only: a photo or video on a private address cannot be fetched by Facebook; nothing is posted until the host is public', async () => {
    await sb.configure({ processingMs: 0, strict: { public_media_only: true }, publicHosts: [] });
    const photo = await image('local.jpg');
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'image', media: [photo] }), memoryJournal()),
      'invalid_content',
    );
    expect(err.message).toContain('could not be fetched');
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'video', media: [await video('local.mp4')] }), memoryJournal()),
      'invalid_content',
    );
    expect((await sb.state('facebook')).posts).toHaveLength(0);
    // Herald's media host declared public (as HERALD_PUBLIC_URL is in production): the same photo goes through.
    await sb.configure({ publicHosts: [new URL(sb.publicUrl).host] });
    expect(
      (await publisher.publish(tokens, request({ postType: 'image', media: [photo] }), memoryJournal())).state,
    ).toBe('published');
  });

  it('fails a video Facebook cannot process', async () => {
    await sb.configure({ processingMs: 0 });
    const broken = await video('corrupt-clip.mp4');
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'video', media: [broken] }), memoryJournal()),
      'invalid_content',
    );
    expect((await sb.state('facebook')).posts).toHaveLength(0);
  });
});
