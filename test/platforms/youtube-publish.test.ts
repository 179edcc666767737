import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublishOutcome, PublishRequest, Publisher } from '../../src/platforms/publishing.ts';
import type { OAuth2Auth, TokenSet } from '../../src/platforms/types.ts';
import { network, YOUTUBE_STEPS, youtubeAdapter } from '../../src/platforms/youtube/index.ts';
import { Networks } from '../../src/platforms/registry.ts';
import { planTargets } from '../../src/publishing/plan.ts';
import type { PostBody } from '../../src/publishing/schemas.ts';
import { UPLOAD_CHUNK } from '../../src/platforms/youtube/upload.ts';
import { connectThrough, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import {
  crashingAt,
  droppingAt,
  fixtureMedia,
  jpegImage,
  memoryJournal,
  mp4Video,
  publisherOf,
  SimulatedCrash,
  PUBLISH_PROCESSING_MS,
} from './helpers/publish-fixtures.ts';
import type { FixtureMedia, MemoryJournal } from './helpers/publish-fixtures.ts';
import { calls, startSandbox } from '../helpers/sandbox.ts';
import type { SandboxSlice, TestSandbox } from '../helpers/sandbox.ts';

const MIB = 1024 * 1024;
let sb: TestSandbox;
let publisher: Publisher;
let tokens: TokenSet;
let playlistId: string;
let auth: OAuth2Auth;

async function connect(): Promise<void> {
  const adapter = youtubeAdapter(sandboxDeps(sb, 'youtube'));
  auth = adapter.auth as OAuth2Auth;
  tokens = await connectThrough(sb, adapter);
  const account = await adapter.fetchAccount(tokens);
  playlistId = account.destinations.find((d) => d.kind === 'playlist')?.id ?? '';
  publisher = publisherOf(adapter);
}

function request(over: Partial<PublishRequest> = {}): PublishRequest {
  return {
    postType: 'video',
    text: 'About this video',
    title: 'My video',
    description: 'About this video',
    media: [],
    options: {},
    targetId: 'tgt_yt',
    ...over,
  };
}

/** Asks again, with the sandbox clock moved on, while YouTube is still processing. */
async function settle(first: PublishOutcome, req: PublishRequest, journal: MemoryJournal): Promise<PublishOutcome> {
  let out = first;
  for (let round = 0; out.state === 'processing' && round < 5; round++) {
    sb.advance(2);
    out = await publisher.checkStatus!(tokens, out.handle, req, journal);
  }
  return out;
}

async function publishDone(req: PublishRequest, journal: MemoryJournal = memoryJournal()): Promise<PublishOutcome> {
  return settle(await publisher.publish(tokens, req, journal), req, journal);
}

const sessions = (s: SandboxSlice) => calls(s, 'POST', '/upload/youtube/v3/videos');
const puts = (s: SandboxSlice) => calls(s, 'PUT', '/upload/youtube/v3/videos');

async function video(name: string, mdatBytes = 1000): Promise<FixtureMedia> {
  const bytes = await mp4Video({ mdatBytes });
  return fixtureMedia(sb, { name, bytes, kind: 'video', mime: 'video/mp4', format: 'mp4', durationSec: 12.5 });
}

beforeAll(async () => {
  sb = await startSandbox({ processingMs: PUBLISH_PROCESSING_MS });
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await connect();
});

describe('youtube publisher: uploads', () => {
  it('uploads in 8 MiB chunks over a resumable session, then waits for processing before it counts as published', async () => {
    await sb.lenient('youtube_unaudited'); // an audited API project: the upload keeps the privacy asked for
    const clip = await video('long.mp4', 20 * MIB);
    const journal = memoryJournal();
    const req = request({ media: [clip] });
    const first = await publisher.publish(tokens, req, journal);
    const s = await sb.state('youtube');
    expect(s.posts).toHaveLength(1);
    const v = s.posts[0]!;
    expect(v.id).toMatch(/^[A-Za-z0-9_-]{11}$/);
    // The last byte is in, but YouTube may still reject the video while it processes.
    expect(first).toEqual({ state: 'processing', handle: v.id });
    const out = await settle(first, req, journal);
    expect(out).toEqual({ state: 'published', postId: v.id, permalink: sb.url('youtube', `/watch?v=${v.id}`) });
    expect(v).toMatchObject({
      title: 'My video',
      description: 'About this video',
      privacyStatus: 'public',
      bytes: clip.size,
      mimeType: 'video/mp4',
    });
    const start = sessions(s)[0]!;
    expect(start.query).toMatchObject({ uploadType: 'resumable', part: 'snippet,status' });
    expect(start.headers).toMatchObject({
      'x-upload-content-length': String(clip.size),
      'x-upload-content-type': 'video/mp4',
    });
    expect(puts(s).map((p) => [p.status, p.headers['content-range']])).toEqual([
      [308, `bytes 0-${UPLOAD_CHUNK - 1}/${clip.size}`],
      [308, `bytes ${UPLOAD_CHUNK}-${2 * UPLOAD_CHUNK - 1}/${clip.size}`],
      [201, `bytes ${2 * UPLOAD_CHUNK}-${clip.size - 1}/${clip.size}`],
    ]);
    expect(UPLOAD_CHUNK % (256 * 1024)).toBe(0);
    expect(journal.log.map(([k]) => k)).toEqual([
      YOUTUBE_STEPS.sessionUri,
      YOUTUBE_STEPS.videoId,
      YOUTUBE_STEPS.privacy,
    ]);
    expect(journal.steps[YOUTUBE_STEPS.privacy]).toBe('public:public');
    expect(journal.steps[YOUTUBE_STEPS.sessionUri]).toContain('upload_id=');
  });

  it('sets the thumbnail, adds the video to the playlist and honours the privacy option', async () => {
    await sb.lenient('youtube_unaudited'); // an audited API project: the upload keeps the privacy asked for
    const clip = await video('extras.mp4');
    const thumb = fixtureMedia(sb, {
      name: 'thumb.jpg',
      bytes: await jpegImage(1280, 720),
      kind: 'image',
      mime: 'image/jpeg',
      format: 'jpeg',
    });
    const journal = memoryJournal();
    const req = request({
      media: [clip],
      thumbnail: thumb,
      title: undefined,
      description: undefined,
      text: 'Title from text',
      options: { playlist_id: playlistId, privacy_status: 'unlisted' },
    });
    const out = await publishDone(req, journal);
    expect(out.state).toBe('published');
    const s = await sb.state('youtube');
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({
      title: 'Title from text',
      description: '',
      privacyStatus: 'unlisted',
      thumbnail: { mimeType: 'image/jpeg', bytes: thumb.size },
    });
    expect(s.posts[0]?.playlistItems).toEqual([expect.objectContaining({ playlistId })]);
    expect(journal.steps).toMatchObject({
      [YOUTUBE_STEPS.thumbnail]: 'set',
      [YOUTUBE_STEPS.playlistItem]: expect.any(String),
    });
    // A retry after everything was done adds nothing.
    expect(await publisher.publish(tokens, req, journal)).toEqual(out);
    const again = await sb.state('youtube');
    expect(again.posts[0]?.playlistItems).toHaveLength(1);
    expect(sessions(again)).toHaveLength(1);
  });

  it('keeps the video published when the playlist is refused for good, journaling the refusal', async () => {
    const journal = memoryJournal();
    const out = await publishDone(
      request({ media: [await video('pl.mp4')], options: { playlist_id: 'PLdoesnotexist' } }),
      journal,
    );
    expect(out.state).toBe('published');
    expect(journal.steps[YOUTUBE_STEPS.playlistItem]).toBe('failed:playlistNotFound');
  });
});

describe('youtube publisher: resuming', () => {
  it('resumes within the call after the connection drops mid-chunk, from the Range the server kept', async () => {
    const clip = await video('drop.mp4', 20 * MIB);
    const out = await publishDone(request({ media: [droppingAt(clip, UPLOAD_CHUNK, { afterBytes: MIB })] }));
    expect(out.state).toBe('published');
    const s = await sb.state('youtube');
    expect(sessions(s)).toHaveLength(1);
    const answered = puts(s).filter((p) => p.status !== 499);
    expect(answered.map((p) => [p.status, p.headers['content-range']])).toEqual([
      [308, `bytes 0-${UPLOAD_CHUNK - 1}/${clip.size}`],
      [308, `bytes */${clip.size}`],
      [308, `bytes ${UPLOAD_CHUNK}-${2 * UPLOAD_CHUNK - 1}/${clip.size}`],
      [201, `bytes ${2 * UPLOAD_CHUNK}-${clip.size - 1}/${clip.size}`],
    ]);
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ bytes: clip.size });
  });

  it('resumes the journaled session after a crash mid-upload instead of starting a new upload', async () => {
    const clip = await video('crash.mp4', 20 * MIB);
    const req = request({ media: [crashingAt(clip, UPLOAD_CHUNK)] });
    const journal = memoryJournal();
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    expect((await sb.state('youtube')).posts).toHaveLength(0);
    const out = await publishDone(req, journal);
    expect(out.state).toBe('published');
    expect(clip.opens).toEqual([
      { start: 0, end: UPLOAD_CHUNK - 1 },
      { start: UPLOAD_CHUNK, end: 2 * UPLOAD_CHUNK - 1 },
      { start: 2 * UPLOAD_CHUNK, end: clip.size - 1 },
    ]);
    const s = await sb.state('youtube');
    expect(sessions(s)).toHaveLength(1);
    expect(puts(s).map((p) => p.headers['content-range'])).toContain(`bytes */${clip.size}`);
    expect(s.uploads).toHaveLength(1);
    expect(s.uploads[0]).toMatchObject({ received: clip.size, status: 'complete', videoId: s.posts[0]?.id });
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ bytes: clip.size });
  });

  it('starts the upload from zero on the journaled session when the crash came before any byte', async () => {
    const clip = await video('early.mp4');
    const journal = memoryJournal();
    journal.crashAfter = YOUTUBE_STEPS.sessionUri;
    await expect(publisher.publish(tokens, request({ media: [clip] }), journal)).rejects.toBeInstanceOf(SimulatedCrash);
    expect((await publishDone(request({ media: [clip] }), journal)).state).toBe('published');
    const s = await sb.state('youtube');
    expect(sessions(s)).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('adopts the finished video when only the session URI was journaled, without uploading again', async () => {
    const clip = await video('lost.mp4');
    const first = memoryJournal();
    const out = await publishDone(request({ media: [clip] }), first);
    // The worker died after the last byte, before the video id was durable.
    const journal = memoryJournal({ [YOUTUBE_STEPS.sessionUri]: first.steps[YOUTUBE_STEPS.sessionUri]! });
    expect(await publisher.reconcile!(tokens, request({ media: [clip] }), journal)).toEqual({
      postId: out.state === 'published' ? out.postId : '',
      permalink: expect.stringContaining('watch?v='),
    });
    expect(
      await publisher.publish(
        tokens,
        request({ media: [clip] }),
        memoryJournal({ [YOUTUBE_STEPS.sessionUri]: first.steps[YOUTUBE_STEPS.sessionUri]! }),
      ),
    ).toEqual(out);
    const s = await sb.state('youtube');
    expect(sessions(s)).toHaveLength(1);
    expect(clip.opens).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('starts a new session when the journaled one expired', async () => {
    const clip = await video('expired.mp4');
    const journal = memoryJournal();
    journal.crashAfter = YOUTUBE_STEPS.sessionUri;
    await expect(publisher.publish(tokens, request({ media: [clip] }), journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const old = journal.steps[YOUTUBE_STEPS.sessionUri];
    sb.advance(8 * 24 * 3600);
    tokens = await auth.refresh!(tokens);
    expect((await publishDone(request({ media: [clip] }), journal)).state).toBe('published');
    expect(journal.steps[YOUTUBE_STEPS.sessionUri]).not.toBe(old);
    const s = await sb.state('youtube');
    expect(sessions(s)).toHaveLength(2);
    expect(s.posts).toHaveLength(1);
  });
});

describe('youtube publisher: status, reconcile, errors and faults', () => {
  it('reports processing failures through checkStatus, and at once when the upload answer already has them', async () => {
    await sb.lenient('youtube_unaudited'); // an audited API project (checkStatus below gets a journal without the privacy pair)
    const notVideo = fixtureMedia(sb, {
      name: 'fake.mp4',
      bytes: await jpegImage(),
      kind: 'video',
      mime: 'video/mp4',
      format: 'mp4',
    });
    const req = request({ media: [notVideo] });
    const out = await publisher.publish(tokens, req, memoryJournal());
    if (out.state !== 'processing') throw new Error('expected processing');
    sb.advance(1);
    const err = await expectPlatformError(
      publisher.checkStatus!(tokens, out.handle, req, memoryJournal()),
      'invalid_content',
    );
    expect(err.code).toBe('invalidFile');
    await sb.configure({ processingMs: 0 });
    await expectPlatformError(publisher.publish(tokens, req, memoryJournal()), 'invalid_content');
    const good = await publishDone(request({ media: [await video('ok.mp4')] }));
    if (good.state !== 'published') throw new Error('expected published');
    expect(await publisher.checkStatus!(tokens, good.postId, req, memoryJournal())).toEqual(good);
  });

  it('reconciles by the journaled video id, and finds nothing without one or after a delete', async () => {
    const clip = await video('rec.mp4');
    const journal = memoryJournal();
    expect(await publisher.reconcile!(tokens, request({ media: [clip] }), journal)).toBeNull();
    const out = await publishDone(request({ media: [clip] }), journal);
    if (out.state !== 'published') throw new Error('expected published');
    expect(await publisher.reconcile!(tokens, request({ media: [clip] }), journal)).toEqual({
      postId: out.postId,
      permalink: out.permalink,
    });
    const del = await fetch(`${sb.publicUrl}/sandbox/youtube/youtube/v3/videos?id=${out.postId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(del.status).toBe(204);
    expect(await publisher.reconcile!(tokens, request({ media: [clip] }), journal)).toBeNull();
  });

  it('refuses what YouTube would refuse before uploading, and maps API refusals', async () => {
    const clip = await video('refuse.mp4');
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'image', media: [clip] }), memoryJournal()),
      'unsupported',
    );
    const bigThumb = { ...clip, kind: 'image' as const, mime: 'image/jpeg', size: 3 * MIB };
    await expectPlatformError(
      publisher.publish(tokens, request({ media: [clip], thumbnail: bigThumb }), memoryJournal()),
      'invalid_content',
    );
    expect(sessions(await sb.state('youtube'))).toHaveLength(0);
    const bad = await expectPlatformError(
      publisher.publish(tokens, request({ media: [clip], title: 'a <b> title' }), memoryJournal()),
      'invalid_content',
    );
    expect(bad.code).toBe('invalidTitle');
    await sb.fault({ platform: 'youtube', operation: 'publish', fault: 'expire_token' });
    await expectPlatformError(publisher.publish(tokens, request({ media: [clip] }), memoryJournal()), 'auth_expired', [
      tokens.accessToken,
    ]);
  });

  it('survives upload 5xx within the call, and reports session-start and status faults', async () => {
    const clip = await video('faults.mp4', 10 * MIB);
    await sb.fault({ platform: 'youtube', operation: 'upload', fault: 'server_error', times: 2 });
    const out = await publishDone(request({ media: [clip] }));
    if (out.state !== 'published') throw new Error('expected published');
    let s = await sb.state('youtube');
    expect(puts(s).filter((p) => p.status === 503)).toHaveLength(2);
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ bytes: clip.size });

    await sb.fault({ platform: 'youtube', operation: 'publish', fault: 'server_error' });
    const journal = memoryJournal();
    await expectPlatformError(publisher.publish(tokens, request({ media: [clip] }), journal), 'transient');
    expect(journal.steps[YOUTUBE_STEPS.sessionUri]).toBeUndefined();
    await sb.fault({ platform: 'youtube', operation: 'status', fault: 'rate_limit' });
    await expectPlatformError(publisher.checkStatus!(tokens, out.postId, request(), memoryJournal()), 'rate_limited');
    s = await sb.state('youtube');
    expect(s.posts).toHaveLength(1);
  });
});

describe('youtube publisher: what the real API refuses or changes (strict sandbox)', () => {
  it('refuses a description over 5,000 UTF-8 bytes, and < or > in title or description, before sending anything', async () => {
    const clip = await video('meta.mp4');
    // 2,600 characters, 5,200 bytes: within a character count, over YouTube's byte limit.
    const long = await expectPlatformError(
      publisher.publish(tokens, request({ media: [clip], description: 'é'.repeat(2600) }), memoryJournal()),
      'invalid_content',
    );
    expect(long.code).toBe('invalidDescription');
    await expectPlatformError(
      publisher.publish(tokens, request({ media: [clip], description: 'x > y' }), memoryJournal()),
      'invalid_content',
    );
    await expectPlatformError(
      publisher.publish(tokens, request({ media: [clip], title: 't'.repeat(101) }), memoryJournal()),
      'invalid_content',
    );
    expect(sessions(await sb.state('youtube'))).toHaveLength(0);
    expect((await publishDone(request({ media: [clip], description: 'é'.repeat(2500) }))).state).toBe('published');
  });

  it('youtube_unaudited: the upload comes back private although public was asked, and the result says so', async () => {
    await sb.configure({ strict: { youtube_unaudited: true } });
    const journal = memoryJournal();
    const out = await publishDone(
      request({ media: [await video('private.mp4')], options: { privacy_status: 'public' } }),
      journal,
    );
    expect(out).toMatchObject({ state: 'published', notice: expect.stringMatching(/private, not public/) });
    expect(journal.steps[YOUTUBE_STEPS.privacy]).toBe('public:private');
    expect((await sb.state('youtube')).posts[0]).toMatchObject({ privacyStatus: 'private' });
    // Asking for private gets private: nothing to report.
    const asked = await publishDone(
      request({ media: [await video('asked.mp4')], options: { privacy_status: 'private' } }),
    );
    expect(asked).not.toHaveProperty('notice');
  });

  it('youtube_quota: a spent daily quota is rate-limited until midnight Pacific, and not asked again before then', async () => {
    // One upload (1,600 units) and its reads fit; the second upload does not.
    await sb.configure({ strict: { youtube_quota: true }, youtubeDailyQuota: 2000 });
    expect((await publishDone(request({ media: [await video('q1.mp4')] }))).state).toBe('published');
    const clip = await video('q2.mp4');
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ media: [clip] }), memoryJournal()),
      'rate_limited',
    );
    expect(err.retryable).toBe(true);
    // START is 12:00 UTC = 04:00 in Los Angeles (PST): 20 hours to the reset, less the seconds processing took.
    const wait = err.retryAfterSeconds!;
    expect(wait).toBeLessThanOrEqual(20 * 3600);
    expect(wait).toBeGreaterThan(20 * 3600 - 60);
    const before = (await sb.state('youtube')).requests.length;
    sb.advance(3600);
    const again = await expectPlatformError(
      publisher.publish(tokens, request({ media: [clip] }), memoryJournal()),
      'rate_limited',
    );
    expect(again.retryAfterSeconds).toBe(wait - 3600);
    expect((await sb.state('youtube')).requests).toHaveLength(before);
    // After midnight Pacific the quota is back.
    sb.advance(wait - 3600 + 1);
    tokens = await auth.refresh!(tokens);
    expect((await publishDone(request({ media: [clip] }))).state).toBe('published');
  });
});

describe('youtube publisher: a declared daily quota (HERALD_YOUTUBE_DAILY_QUOTA)', () => {
  it('counts the units its uploads spend in the Pacific day and refuses one the rest does not cover, before calling YouTube', async () => {
    await sb.configure({ strict: { youtube_quota: true }, youtubeDailyQuota: 2000 });
    const deps = sandboxDeps(sb, 'youtube');
    const counted = publisherOf(
      youtubeAdapter({
        ...deps,
        config: { ...deps.config, settings: { ...deps.config.settings, dailyQuota: '2000' } },
      }),
    );
    const first = await counted.publish(tokens, request({ media: [await video('c1.mp4')] }), memoryJournal());
    expect(['processing', 'published']).toContain(first.state);
    const before = sessions(await sb.state('youtube')).length;
    const err = await expectPlatformError(
      counted.publish(tokens, request({ media: [await video('c2.mp4')] }), memoryJournal()),
      'rate_limited',
    );
    expect(err.code).toBe('quotaExceeded');
    expect(err.message).toContain('HERALD_YOUTUBE_DAILY_QUOTA');
    // START is 04:00 in Los Angeles: 20 hours to midnight Pacific.
    expect(err.retryAfterSeconds).toBe(20 * 3600);
    // Refused by Herald: YouTube was not asked (an upload session would have cost a refused call).
    expect(sessions(await sb.state('youtube'))).toHaveLength(before);
    // A new Pacific day: the count starts over.
    sb.advance(20 * 3600 + 1);
    tokens = await auth.refresh!(tokens);
    expect(['processing', 'published']).toContain(
      (await counted.publish(tokens, request({ media: [await video('c3.mp4')] }), memoryJournal())).state,
    );
  });
});

describe('youtube overrides reach the adapter', () => {
  const networks = new Networks();
  const plan = (youtube: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    planTargets({
      networks,
      postType: 'video',
      body: {
        platforms: ['youtube'],
        default_text: 'A description',
        video_id: '00000000-0000-4000-8000-000000000001',
        youtube: { youtube_title: 'A title', ...youtube },
        ...extra,
      } as PostBody,
    });

  it('privacy, made-for-kids, tags, category and notify-subscribers become the options the publisher reads', () => {
    const [t] = plan({
      youtube_privacy_status: 'unlisted',
      youtube_made_for_kids: false,
      youtube_tags: ['one', 'two words'],
      youtube_category_id: '10',
      youtube_notify_subscribers: false,
      youtube_playlist_id: 'PL1',
    });
    expect(t?.options).toEqual({
      privacy_status: 'unlisted',
      made_for_kids: false,
      tags: ['one', 'two words'],
      category_id: '10',
      notify_subscribers: false,
      playlist_id: 'PL1',
    });
    expect(network.override?.safeParse({ youtube_privacy_status: 'friends' }).success).toBe(false);
  });

  it('refuses before sending what YouTube would refuse: a description over 5,000 bytes, < or >, too many tag characters', () => {
    expect(() => plan({ youtube_description: 'é'.repeat(2600) })).toThrow(/5000 UTF-8 bytes|bytes/);
    expect(() => plan({ youtube_title: 'a <b>' })).toThrow(/< or >/);
    expect(() => plan({ youtube_description: 'x > y' })).toThrow(/< or >/);
    expect(() => plan({ youtube_tags: ['t'.repeat(300), 'u'.repeat(300)] })).toThrow(/500 characters/);
    expect(plan({ youtube_description: 'é'.repeat(2500) })).toHaveLength(1);
  });
});
