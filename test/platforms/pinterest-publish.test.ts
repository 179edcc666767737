import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PlatformHttp } from '../../src/platforms/http.ts';
import { PINTEREST_STEPS, pinterestAdapter } from '../../src/platforms/pinterest/index.ts';
import type { PublishRequest, Publisher } from '../../src/platforms/publishing.ts';
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
import type { SandboxSlice, TestSandbox } from '../helpers/sandbox.ts';

let sb: TestSandbox;
let publisher: Publisher;
let tokens: TokenSet;
let boardId: string;

async function connect(): Promise<void> {
  const adapter = pinterestAdapter(sandboxDeps(sb, 'pinterest'));
  tokens = await connectThrough(sb, adapter);
  const account = await adapter.fetchAccount(tokens);
  boardId = account.destinations.find((d) => d.kind === 'board')?.id ?? '';
  publisher = publisherOf(adapter);
}

function request(over: Partial<PublishRequest> = {}): PublishRequest {
  return {
    postType: 'image',
    text: 'A description',
    description: 'A description',
    title: 'Pin title',
    media: [],
    options: {},
    targetId: 'tgt_pin',
    destination: { kind: 'board', id: boardId },
    ...over,
  };
}

const creates = (s: SandboxSlice) => calls(s, 'POST', '/v5/pins');
const uploads = (s: SandboxSlice) => calls(s, 'POST', '/_s3/pinterest-media-upload/');

async function image(name: string): Promise<FixtureMedia> {
  const png = name.endsWith('.png');
  return fixtureMedia(sb, {
    name,
    bytes: png ? await pngImage() : await jpegImage(),
    kind: 'image',
    mime: png ? 'image/png' : 'image/jpeg',
    format: png ? 'png' : 'jpeg',
    altText: 'alt',
  });
}

async function video(name: string, mdatBytes = 200_000): Promise<FixtureMedia> {
  return fixtureMedia(sb, {
    name,
    bytes: await mp4Video({ mdatBytes }),
    kind: 'video',
    mime: 'video/mp4',
    format: 'mp4',
    durationSec: 12.5,
  });
}

const permalink = (id: string | undefined): string => sb.url('pinterest', `/pin/${id}/`);

beforeAll(async () => {
  sb = await startSandbox({ processingMs: PUBLISH_PROCESSING_MS });
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await connect();
});

describe('pinterest publisher: pin types', () => {
  it('creates an image pin on the destination board from the media URL', async () => {
    const photo = await image('one.jpg');
    const journal = memoryJournal();
    const out = await publisher.publish(
      tokens,
      request({ media: [photo], options: { link: 'https://herald.example/landing' } }),
      journal,
    );
    const s = await sb.state('pinterest');
    expect(s.posts).toHaveLength(1);
    const pin = s.posts[0]!;
    expect(out).toEqual({ state: 'published', postId: pin.id, permalink: permalink(pin.id) });
    expect(pin).toMatchObject({
      board_id: boardId,
      title: 'Pin title',
      description: 'A description',
      link: 'https://herald.example/landing',
      source_type: 'image_url',
      media: [photo.url],
    });
    expect(journal.log.map(([k]) => k)).toEqual([PINTEREST_STEPS.pinRequested, PINTEREST_STEPS.pinId]);
    expect(photo.opens).toHaveLength(0);
  });

  it('creates a carousel of 2 to 5 images and refuses other counts before calling Pinterest', async () => {
    const images = [await image('a.jpg'), await image('b.png'), await image('c.jpg')];
    const out = await publisher.publish(
      tokens,
      request({ postType: 'carousel', title: undefined, media: images }),
      memoryJournal(),
    );
    expect(out.state).toBe('published');
    const s = await sb.state('pinterest');
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({
      source_type: 'multiple_image_urls',
      creative_type: 'CAROUSEL',
      media: images.map((i) => i.url),
      title: null,
    });
    const six = [...images, ...images];
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'carousel', media: six }), memoryJournal()),
      'invalid_content',
    );
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'carousel', media: [images[0]!] }), memoryJournal()),
      'invalid_content',
    );
    expect(creates(await sb.state('pinterest'))).toHaveLength(1);
  });

  it('uploads a video, waits for its processing through checkStatus, then pins it with a key-frame cover', async () => {
    const clip = await video('clip.mp4');
    const req = request({ postType: 'video', media: [clip] });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    let s = await sb.state('pinterest');
    expect(s.media).toHaveLength(1);
    expect(first).toEqual({ state: 'processing', handle: s.media[0]?.id });
    expect(journal.steps[PINTEREST_STEPS.mediaId]).toBe(s.media[0]?.id);
    const upload = uploads(s)[0]!;
    expect(String(upload.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.headers.authorization).toBeUndefined();
    expect(s.media[0]).toMatchObject({ bytes: clip.size, mimeType: 'video/mp4' });
    expect(clip.opens).toEqual([undefined]);
    if (first.state !== 'processing') return;
    sb.advance(1);
    const out = await publisher.checkStatus!(tokens, first.handle, req, journal);
    s = await sb.state('pinterest');
    expect(s.posts).toHaveLength(1);
    expect(out).toEqual({ state: 'published', postId: s.posts[0]?.id, permalink: permalink(s.posts[0]?.id) });
    expect(s.posts[0]).toMatchObject({ source_type: 'video_id', creative_type: 'VIDEO', media: [first.handle] });
    expect(creates(s)[0]?.body).toMatchObject({
      media_source: { source_type: 'video_id', media_id: first.handle, cover_image_key_frame_time: 0 },
    });
  });

  it('pins a video at once when processing is already done, with the thumbnail as cover', async () => {
    await sb.configure({ processingMs: 0 });
    const thumb = await image('cover.jpg');
    const out = await publisher.publish(
      tokens,
      request({ postType: 'video', media: [await video('fast.mp4')], thumbnail: thumb }),
      memoryJournal(),
    );
    expect(out.state).toBe('published');
    const s = await sb.state('pinterest');
    expect(creates(s)[0]?.body).toMatchObject({
      media_source: { source_type: 'video_id', cover_image_url: thumb.url },
    });
  });
});

describe('pinterest publisher: journal, reconcile and faults', () => {
  it('adopts a pin whose create answer was lost instead of pinning twice', async () => {
    const photo = await image('lost.jpg');
    const first = memoryJournal();
    const out = await publisher.publish(tokens, request({ media: [photo] }), first);
    // Only the "create sent" marker made it to the journal.
    const journal = memoryJournal({ [PINTEREST_STEPS.pinRequested]: first.steps[PINTEREST_STEPS.pinRequested]! });
    expect(await publisher.publish(tokens, request({ media: [photo] }), journal)).toEqual(out);
    expect(journal.steps[PINTEREST_STEPS.pinId]).toBe(first.steps[PINTEREST_STEPS.pinId]);
    const s = await sb.state('pinterest');
    expect(creates(s)).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('creates the pin after a create that failed with a 5xx, looking for it first', async () => {
    const photo = await image('retry.jpg');
    const journal = memoryJournal();
    await sb.fault({ platform: 'pinterest', operation: 'publish', fault: 'server_error' });
    await expectPlatformError(publisher.publish(tokens, request({ media: [photo] }), journal), 'transient');
    expect(journal.steps[PINTEREST_STEPS.pinRequested]).toBeDefined();
    expect((await publisher.publish(tokens, request({ media: [photo] }), journal)).state).toBe('published');
    const s = await sb.state('pinterest');
    expect(calls(s, 'GET', '/v5/pins')).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('does not upload again when the journaled video is already processing, and re-registers one that never got its bytes', async () => {
    const clip = await video('resume.mp4');
    const req = request({ postType: 'video', media: [clip] });
    const journal = memoryJournal();
    journal.crashAfter = PINTEREST_STEPS.mediaId;
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const dead = journal.steps[PINTEREST_STEPS.mediaId];
    const first = await publisher.publish(tokens, req, journal);
    expect(first).toMatchObject({ state: 'processing' });
    expect(journal.steps[PINTEREST_STEPS.mediaId]).not.toBe(dead);
    expect(await publisher.publish(tokens, req, journal)).toEqual(first);
    let s = await sb.state('pinterest');
    expect(calls(s, 'POST', '/v5/media')).toHaveLength(2);
    expect(uploads(s)).toHaveLength(1);
    sb.advance(1);
    expect((await publisher.publish(tokens, req, journal)).state).toBe('published');
    s = await sb.state('pinterest');
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]?.media).toEqual([journal.steps[PINTEREST_STEPS.mediaId]]);
  });

  it('maps upload, status and content faults to their kinds', async () => {
    const clip = await video('faults.mp4');
    const req = request({ postType: 'video', media: [clip] });
    await sb.fault({ platform: 'pinterest', operation: 'upload', fault: 'server_error' });
    await expectPlatformError(publisher.publish(tokens, req, memoryJournal()), 'transient');
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    if (first.state !== 'processing') throw new Error('expected processing');
    await sb.fault({ platform: 'pinterest', operation: 'status', fault: 'rate_limit' });
    await expectPlatformError(publisher.checkStatus!(tokens, first.handle, req, journal), 'rate_limited');

    const notVideo = fixtureMedia(sb, {
      name: 'fake.mp4',
      bytes: await jpegImage(),
      kind: 'video',
      mime: 'video/mp4',
      format: 'mp4',
    });
    const broken = await publisher.publish(tokens, request({ postType: 'video', media: [notVideo] }), memoryJournal());
    sb.advance(1);
    if (broken.state !== 'processing') throw new Error('expected processing');
    await expectPlatformError(publisher.checkStatus!(tokens, broken.handle, req, memoryJournal()), 'invalid_content');

    const photo = await image('p.jpg');
    // "Unable to reach the URL": Herald's own media URL, retried (it may be briefly unreachable).
    await expectPlatformError(
      publisher.publish(
        tokens,
        request({ media: [{ ...photo, url: 'https://images.invalid/p.jpg' }] }),
        memoryJournal(),
      ),
      'transient',
    );
    await expectPlatformError(
      publisher.publish(tokens, request({ media: [photo], destination: undefined }), memoryJournal()),
      'invalid_content',
    );
    await expectPlatformError(
      publisher.publish(
        tokens,
        request({ media: [photo], destination: { kind: 'board', id: '999999' } }),
        memoryJournal(),
      ),
      'not_found',
    );
    await expectPlatformError(publisher.publish(tokens, request({ postType: 'text' }), memoryJournal()), 'unsupported');
    await sb.fault({ platform: 'pinterest', operation: 'publish', fault: 'expire_token' });
    await expectPlatformError(publisher.publish(tokens, request({ media: [photo] }), memoryJournal()), 'auth_expired', [
      tokens.accessToken,
    ]);
    expect((await sb.state('pinterest')).posts).toHaveLength(0);
  });

  it('reconciles by pin id or by the create marker, and finds nothing after a delete', async () => {
    const photo = await image('rec.jpg');
    const journal = memoryJournal();
    expect(await publisher.reconcile!(tokens, request({ media: [photo] }), journal)).toBeNull();
    const out = await publisher.publish(tokens, request({ media: [photo] }), journal);
    if (out.state !== 'published') throw new Error('expected published');
    const found = { postId: out.postId, permalink: out.permalink };
    expect(await publisher.reconcile!(tokens, request({ media: [photo] }), journal)).toEqual(found);
    const marker = memoryJournal({ [PINTEREST_STEPS.pinRequested]: journal.steps[PINTEREST_STEPS.pinRequested]! });
    expect(await publisher.reconcile!(tokens, request({ media: [photo] }), marker)).toEqual(found);
    const other = memoryJournal({ [PINTEREST_STEPS.pinRequested]: journal.steps[PINTEREST_STEPS.pinRequested]! });
    expect(await publisher.reconcile!(tokens, request({ media: [photo], title: 'Another title' }), other)).toBeNull();
    const del = await fetch(`${sb.publicUrl}/sandbox/pinterest/v5/pins/${out.postId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(del.status).toBe(204);
    expect(await publisher.reconcile!(tokens, request({ media: [photo] }), journal)).toBeNull();
  });
});

describe('pinterest publisher: the S3 upload host', () => {
  it('reads S3 XML errors: a refused policy is transient (a new registration cures it), SlowDown is throttling', async () => {
    const clip = await video('s3.mp4');
    const answers: Record<string, () => Response> = {
      '/v5/media': () =>
        Response.json(
          {
            media_id: '42',
            media_type: 'video',
            upload_url: 'https://s3.example/upload/',
            upload_parameters: { key: 'k', policy: 'p' },
          },
          { status: 201 },
        ),
    };
    const run = async (s3: Response) => {
      const logger = pino({ level: 'silent' });
      const fetch = async (input: string): Promise<Response> => {
        const url = new URL(input);
        return url.host === 's3.example'
          ? s3.clone()
          : (answers[url.pathname]?.() ?? new Response('{}', { status: 404 }));
      };
      const adapter = pinterestAdapter({
        http: new PlatformHttp({ logger, fetch }),
        config: { clientId: 'a', clientSecret: 'b', urls: { apiBase: 'https://api.example' } },
        clock: () => new Date(),
        logger,
      });
      return adapter.publisher!.publish(tokens, request({ postType: 'video', media: [clip] }), memoryJournal());
    };
    const xml = (status: number, code: string) =>
      new Response(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>Policy expired.</Message></Error>`, {
        status,
        headers: { 'content-type': 'application/xml' },
      });
    const denied = await expectPlatformError(run(xml(403, 'AccessDenied')), 'transient');
    expect(denied).toMatchObject({ code: 'AccessDenied', status: 403 });
    await expectPlatformError(run(xml(503, 'SlowDown')), 'rate_limited');
    await expectPlatformError(run(xml(400, 'EntityTooLarge')), 'invalid_content');
  });
});

describe("pinterest: a Trial app's daily request limit (strict rate_limits)", () => {
  it('past 1,000 API requests in a UTC day a pin is rate-limited; the next day it goes through', async () => {
    await sb.configure({ processingMs: 0, strict: { rate_limits: true } });
    const image = fixtureMedia(sb, {
      name: 'daily.jpg',
      bytes: await jpegImage(),
      kind: 'image',
      mime: 'image/jpeg',
      format: 'jpeg',
    });
    // Spend the app's day on reads.
    for (let used = 0; used < 1000; used++) {
      const res = await fetch(sb.url('pinterest', '/v5/user_account'), {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      if (res.status === 429) break;
    }
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ media: [image] }), memoryJournal()),
      'rate_limited',
    );
    expect(err.retryable).toBe(true);
    expect((await sb.state('pinterest')).posts).toHaveLength(0);
    sb.advance(12 * 3600); // the sandbox clock starts at noon UTC
    expect((await publisher.publish(tokens, request({ media: [image] }), memoryJournal())).state).toBe('published');
  });
});
