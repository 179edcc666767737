// The Threads publisher against the Threads simulator over real HTTP: TEXT, IMAGE, VIDEO and CAROUSEL containers,
// threads_publish, permalinks, the journal (reuse after a crash, never publishing twice or unfinished) and faults.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublishMedia, PublishRequest, Publisher } from '../../src/platforms/publishing.ts';
import { threadsAdapter } from '../../src/platforms/threads/index.ts';
import { threadsPublisher } from '../../src/platforms/threads/publish.ts';
import type { TokenSet } from '../../src/platforms/types.ts';
import { connectThrough, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import {
  fixtureMedia,
  jpegImage,
  memoryJournal,
  mp4Video,
  pngImage,
  SimulatedCrash,
  PUBLISH_PROCESSING_MS,
} from './helpers/publish-fixtures.ts';
import { calls, startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

let sb: TestSandbox;
let publisher: Publisher;
let tokens: TokenSet;
let userId: string;
let username: string;

const state = () => sb.state('threads');
const PERMALINK = () => new RegExp(`^${sb.url('threads', '')}/@${username}/post/C[\\w-]{10}$`);

async function image(name: string, altText?: string): Promise<PublishMedia> {
  const png = name.endsWith('.png');
  return fixtureMedia(sb, {
    name,
    bytes: png ? await pngImage(800, 600) : await jpegImage(800, 600),
    kind: 'image',
    mime: png ? 'image/png' : 'image/jpeg',
    format: png ? 'png' : 'jpeg',
    width: 800,
    height: 600,
    ...(altText ? { altText } : {}),
  });
}

async function video(name = 'clip.mp4'): Promise<PublishMedia> {
  return fixtureMedia(sb, {
    name,
    bytes: await mp4Video(),
    kind: 'video',
    mime: 'video/mp4',
    format: 'mp4',
    width: 640,
    height: 360,
    durationSec: 12.5,
    altText: 'A short clip',
  });
}

function request(over: Partial<PublishRequest> = {}): PublishRequest {
  return {
    postType: 'text',
    text: 'Hello Threads 👋 https://herald.example',
    media: [],
    options: {},
    targetId: 'tgt_th_1',
    ...over,
  };
}

beforeAll(async () => {
  sb = await startSandbox({ processingMs: PUBLISH_PROCESSING_MS });
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { threads: 0 } });
  const deps = sandboxDeps(sb, 'threads');
  const adapter = threadsAdapter(deps);
  tokens = await connectThrough(sb, adapter);
  const account = await adapter.fetchAccount(tokens);
  userId = account.id;
  username = account.username ?? '';
  expect(adapter.publisher).toBeDefined();
  publisher = threadsPublisher(deps, { waitMs: [30, 60, 120] });
});

describe('threads publisher: post types', () => {
  it('publishes a text post through a TEXT container and journals container, intent and post id', async () => {
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request(), journal);
    expect(out).toMatchObject({
      state: 'published',
      postId: expect.stringMatching(/^1[78]\d{16}$/),
      permalink: expect.stringMatching(PERMALINK()),
    });
    expect(journal.log.map(([step]) => step)).toEqual(['container', 'publish', 'media']);
    const s = await state();
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({
      author: userId,
      text: 'Hello Threads 👋 https://herald.example',
      media: [],
      media_type: 'TEXT_POST',
    });
    expect(calls(s, 'POST', '/me/threads')[0]?.body).toEqual({
      media_type: 'TEXT',
      text: 'Hello Threads 👋 https://herald.example',
    });
    expect(calls(s, 'POST', '/me/threads_publish')[0]?.body).toEqual({ creation_id: journal.steps.container });
  });

  it('publishes an image (PNG too) with alt text', async () => {
    const media = await image('photo.png', 'A red square');
    const out = await publisher.publish(
      tokens,
      request({ postType: 'image', text: 'A picture', media: [media] }),
      memoryJournal(),
    );
    expect(out).toMatchObject({ state: 'published', permalink: expect.stringMatching(PERMALINK()) });
    const s = await state();
    expect(s.posts[0]).toMatchObject({ media_type: 'IMAGE', media: [media.url], text: 'A picture' });
    expect(calls(s, 'POST', '/me/threads')[0]?.body).toEqual({
      media_type: 'IMAGE',
      image_url: media.url,
      alt_text: 'A red square',
      text: 'A picture',
    });
  });

  it('publishes a video after processing, never calling threads_publish while IN_PROGRESS', async () => {
    await sb.configure({ processingMs: { threads: 60_000 } });
    const clip = await video();
    const req = request({ postType: 'video', text: 'Watch this', media: [clip] });
    const journal = memoryJournal();
    expect(await publisher.publish(tokens, req, journal)).toEqual({
      state: 'processing',
      handle: journal.steps.container,
    });
    expect(await publisher.checkStatus!(tokens, journal.steps.container ?? '', req, journal)).toMatchObject({
      state: 'processing',
    });
    expect(calls(await state(), 'POST', '/threads_publish')).toHaveLength(0);
    sb.advance(61);
    expect(await publisher.checkStatus!(tokens, journal.steps.container ?? '', req, journal)).toMatchObject({
      state: 'published',
    });
    const s = await state();
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ media_type: 'VIDEO', media: [clip.url] });
    expect(calls(s, 'POST', '/me/threads')[0]?.body).toEqual({
      media_type: 'VIDEO',
      video_url: clip.url,
      alt_text: 'A short clip',
      text: 'Watch this',
    });
  });

  it('publishes a mixed carousel: finished children, then the parent, as one post', async () => {
    const media = [await image('one.jpg'), await video('two.mp4'), await image('three.png')];
    const journal = memoryJournal();
    const out = await publisher.publish(
      tokens,
      request({ postType: 'carousel', text: 'Three things', media }),
      journal,
    );
    expect(out.state).toBe('published');
    const s = await state();
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ media_type: 'CAROUSEL_ALBUM', media: media.map((m) => m.url) });
    const creates = calls(s, 'POST', '/me/threads');
    expect(creates.map((c) => (c.body as Record<string, unknown>).media_type)).toEqual([
      'IMAGE',
      'VIDEO',
      'IMAGE',
      'CAROUSEL',
    ]);
    expect(creates[1]?.body).toMatchObject({ is_carousel_item: 'true', video_url: media[1]?.url });
    expect(creates[3]?.body).toEqual({
      media_type: 'CAROUSEL',
      children: journal.steps.children,
      text: 'Three things',
    });
  });

  it('refuses an empty text post and media-less image post before calling Threads', async () => {
    await expectPlatformError(publisher.publish(tokens, request({ text: '  ' }), memoryJournal()), 'invalid_content');
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'image' }), memoryJournal()),
      'invalid_content',
    );
    expect(calls(await state(), 'POST', '/threads')).toHaveLength(0);
  });
});

describe('threads publisher: journal and recovery', () => {
  it('reuses the journaled container after a crash', async () => {
    const req = request({ postType: 'image', media: [await image('x.jpg')] });
    const journal = memoryJournal();
    journal.crashAfter = 'container';
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    expect((await publisher.publish(tokens, req, journal)).state).toBe('published');
    const s = await state();
    expect(calls(s, 'POST', '/me/threads')).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('crash after the publish intent: the container is still FINISHED, so it is published exactly once', async () => {
    const journal = memoryJournal();
    journal.crashAfter = 'publish';
    await expect(publisher.publish(tokens, request(), journal)).rejects.toBeInstanceOf(SimulatedCrash);
    expect(calls(await state(), 'POST', '/threads_publish')).toHaveLength(0);
    expect((await publisher.publish(tokens, request(), journal)).state).toBe('published');
    expect((await state()).posts).toHaveLength(1);
  });

  it('reports a failed video container with its error_message', async () => {
    const bad = fixtureMedia(sb, {
      name: 'corrupt.mp4',
      bytes: await mp4Video(),
      kind: 'video',
      mime: 'video/mp4',
      format: 'mp4',
    });
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'video', media: [bad] }), memoryJournal()),
      'invalid_content',
    );
    expect(err.message).toContain('FAILED_PROCESSING_VIDEO');
    expect((await state()).posts).toHaveLength(0);
  });

  it('maps the daily publishing quota (code 9, no subcode) to rate-limited, waiting the quota_duration threads_publishing_limit reports', async () => {
    await sb.configure({ publishLimits: { threads: 1 } });
    expect((await publisher.publish(tokens, request(), memoryJournal())).state).toBe('published');
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ text: 'second' }), memoryJournal()),
      'rate_limited',
    );
    expect(err.retryable).toBe(true);
    expect(err.code).toBe('9');
    expect(err.retryAfterSeconds).toBe(86_400);
    expect(err.message).toMatch(/daily publishing limit .* tries again when the 24-hour window frees a slot/);
    expect(calls(await state(), 'GET', '/me/threads_publishing_limit')).toHaveLength(1);
    // A day later the window has moved on and the same post goes out.
    sb.advance(86_400);
    expect((await publisher.publish(tokens, request({ text: 'second' }), memoryJournal())).state).toBe('published');
  });
});

describe('threads publisher: faults', () => {
  it('upload, publish and status faults: each retry continues from the journal and publishes once', async () => {
    await sb.configure({ processingMs: { threads: 60_000 } });
    const req = request({ postType: 'video', media: [await video()] });
    const journal = memoryJournal();
    await sb.fault({ platform: 'threads', operation: 'upload', fault: 'server_error' });
    await expectPlatformError(publisher.publish(tokens, req, journal), 'transient');
    expect(journal.steps.container).toBeUndefined();
    expect((await publisher.publish(tokens, req, journal)).state).toBe('processing');
    sb.advance(61);
    await sb.fault({ platform: 'threads', operation: 'status', fault: 'rate_limit' });
    await expectPlatformError(publisher.checkStatus!(tokens, '', req, journal), 'rate_limited');
    await sb.fault({ platform: 'threads', operation: 'publish', fault: 'server_error' });
    await expectPlatformError(publisher.checkStatus!(tokens, '', req, journal), 'transient');
    expect((await publisher.checkStatus!(tokens, '', req, journal)).state).toBe('published');
    const s = await state();
    // Two container calls (the one the fault answered and the retry), one container, one post.
    expect(calls(s, 'POST', '/me/threads').map((r) => r.status)).toEqual([500, 200]);
    expect(s.containers).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });
});
