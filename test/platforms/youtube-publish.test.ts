import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublishRequest, Publisher } from '../../src/platforms/publishing.ts';
import type { OAuth2Auth, TokenSet } from '../../src/platforms/types.ts';
import { YOUTUBE_STEPS, youtubeAdapter } from '../../src/platforms/youtube/index.ts';
import { UPLOAD_CHUNK } from '../../src/platforms/youtube/upload.ts';
import { connectThrough, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import { crashingAt, droppingAt, fixtureMedia, jpegImage, memoryJournal, mp4Video, publisherOf, SimulatedCrash , PUBLISH_PROCESSING_MS } from './helpers/publish-fixtures.ts';
import type { FixtureMedia } from './helpers/publish-fixtures.ts';
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
  return { postType: 'video', text: 'About this video', title: 'My video', description: 'About this video', media: [], options: {}, targetId: 'tgt_yt', ...over };
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
  it('uploads in 8 MiB chunks over a resumable session and publishes once the last byte is in', async () => {
    const clip = await video('long.mp4', 20 * MIB);
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ media: [clip] }), journal);
    const s = await sb.state('youtube');
    expect(s.posts).toHaveLength(1);
    const v = s.posts[0]!;
    expect(v.id).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(out).toEqual({ state: 'published', postId: v.id, permalink: `https://www.youtube.com/watch?v=${v.id}` });
    expect(v).toMatchObject({ title: 'My video', description: 'About this video', privacyStatus: 'public', bytes: clip.size, mimeType: 'video/mp4' });
    const start = sessions(s)[0]!;
    expect(start.query).toMatchObject({ uploadType: 'resumable', part: 'snippet,status' });
    expect(start.headers).toMatchObject({ 'x-upload-content-length': String(clip.size), 'x-upload-content-type': 'video/mp4' });
    expect(puts(s).map((p) => [p.status, p.headers['content-range']])).toEqual([
      [308, `bytes 0-${UPLOAD_CHUNK - 1}/${clip.size}`],
      [308, `bytes ${UPLOAD_CHUNK}-${2 * UPLOAD_CHUNK - 1}/${clip.size}`],
      [201, `bytes ${2 * UPLOAD_CHUNK}-${clip.size - 1}/${clip.size}`],
    ]);
    expect(UPLOAD_CHUNK % (256 * 1024)).toBe(0);
    expect(journal.log.map(([k]) => k)).toEqual([YOUTUBE_STEPS.sessionUri, YOUTUBE_STEPS.videoId]);
    expect(journal.steps[YOUTUBE_STEPS.sessionUri]).toContain('upload_id=');
  });

  it('sets the thumbnail, adds the video to the playlist and honours the privacy option', async () => {
    const clip = await video('extras.mp4');
    const thumb = fixtureMedia(sb, { name: 'thumb.jpg', bytes: await jpegImage(1280, 720), kind: 'image', mime: 'image/jpeg', format: 'jpeg' });
    const journal = memoryJournal();
    const req = request({ media: [clip], thumbnail: thumb, title: undefined, description: undefined, text: 'Title from text', options: { playlist_id: playlistId, privacy_status: 'unlisted' } });
    const out = await publisher.publish(tokens, req, journal);
    expect(out.state).toBe('published');
    const s = await sb.state('youtube');
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ title: 'Title from text', description: '', privacyStatus: 'unlisted', thumbnail: { mimeType: 'image/jpeg', bytes: thumb.size } });
    expect(s.posts[0]?.playlistItems).toEqual([expect.objectContaining({ playlistId })]);
    expect(journal.steps).toMatchObject({ [YOUTUBE_STEPS.thumbnail]: 'set', [YOUTUBE_STEPS.playlistItem]: expect.any(String) });
    // A retry after everything was done adds nothing.
    expect(await publisher.publish(tokens, req, journal)).toEqual(out);
    const again = await sb.state('youtube');
    expect(again.posts[0]?.playlistItems).toHaveLength(1);
    expect(sessions(again)).toHaveLength(1);
  });

  it('keeps the video published when the playlist is refused for good, journaling the refusal', async () => {
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ media: [await video('pl.mp4')], options: { playlist_id: 'PLdoesnotexist' } }), journal);
    expect(out.state).toBe('published');
    expect(journal.steps[YOUTUBE_STEPS.playlistItem]).toBe('failed:playlistNotFound');
  });
});

describe('youtube publisher: resuming', () => {
  it('resumes within the call after the connection drops mid-chunk, from the Range the server kept', async () => {
    const clip = await video('drop.mp4', 20 * MIB);
    const out = await publisher.publish(tokens, request({ media: [droppingAt(clip, UPLOAD_CHUNK, { afterBytes: MIB })] }), memoryJournal());
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
    const out = await publisher.publish(tokens, req, journal);
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
    expect((await publisher.publish(tokens, request({ media: [clip] }), journal)).state).toBe('published');
    const s = await sb.state('youtube');
    expect(sessions(s)).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('adopts the finished video when only the session URI was journaled, without uploading again', async () => {
    const clip = await video('lost.mp4');
    const first = memoryJournal();
    const out = await publisher.publish(tokens, request({ media: [clip] }), first);
    // The worker died after the last byte, before the video id was durable.
    const journal = memoryJournal({ [YOUTUBE_STEPS.sessionUri]: first.steps[YOUTUBE_STEPS.sessionUri]! });
    expect(await publisher.reconcile!(tokens, request({ media: [clip] }), journal)).toEqual({ postId: out.state === 'published' ? out.postId : '', permalink: expect.stringContaining('watch?v=') });
    expect(await publisher.publish(tokens, request({ media: [clip] }), memoryJournal({ [YOUTUBE_STEPS.sessionUri]: first.steps[YOUTUBE_STEPS.sessionUri]! }))).toEqual(out);
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
    expect((await publisher.publish(tokens, request({ media: [clip] }), journal)).state).toBe('published');
    expect(journal.steps[YOUTUBE_STEPS.sessionUri]).not.toBe(old);
    const s = await sb.state('youtube');
    expect(sessions(s)).toHaveLength(2);
    expect(s.posts).toHaveLength(1);
  });
});

describe('youtube publisher: status, reconcile, errors and faults', () => {
  it('reports processing failures through checkStatus, and at once when the upload answer already has them', async () => {
    const notVideo = fixtureMedia(sb, { name: 'fake.mp4', bytes: await jpegImage(), kind: 'video', mime: 'video/mp4', format: 'mp4' });
    const req = request({ media: [notVideo] });
    const out = await publisher.publish(tokens, req, memoryJournal());
    if (out.state !== 'published') throw new Error('expected published');
    sb.advance(1);
    const err = await expectPlatformError(publisher.checkStatus!(tokens, out.postId, req, memoryJournal()), 'invalid_content');
    expect(err.code).toBe('invalidFile');
    await sb.configure({ processingMs: 0 });
    await expectPlatformError(publisher.publish(tokens, req, memoryJournal()), 'invalid_content');
    const good = await publisher.publish(tokens, request({ media: [await video('ok.mp4')] }), memoryJournal());
    if (good.state !== 'published') throw new Error('expected published');
    expect(await publisher.checkStatus!(tokens, good.postId, req, memoryJournal())).toEqual(good);
  });

  it('reconciles by the journaled video id, and finds nothing without one or after a delete', async () => {
    const clip = await video('rec.mp4');
    const journal = memoryJournal();
    expect(await publisher.reconcile!(tokens, request({ media: [clip] }), journal)).toBeNull();
    const out = await publisher.publish(tokens, request({ media: [clip] }), journal);
    if (out.state !== 'published') throw new Error('expected published');
    expect(await publisher.reconcile!(tokens, request({ media: [clip] }), journal)).toEqual({ postId: out.postId, permalink: out.permalink });
    const del = await fetch(`${sb.publicUrl}/sandbox/youtube/youtube/v3/videos?id=${out.postId}`, { method: 'DELETE', headers: { authorization: `Bearer ${tokens.accessToken}` } });
    expect(del.status).toBe(204);
    expect(await publisher.reconcile!(tokens, request({ media: [clip] }), journal)).toBeNull();
  });

  it('refuses what YouTube would refuse before uploading, and maps API refusals', async () => {
    const clip = await video('refuse.mp4');
    await expectPlatformError(publisher.publish(tokens, request({ postType: 'image', media: [clip] }), memoryJournal()), 'unsupported');
    const bigThumb = { ...clip, kind: 'image' as const, mime: 'image/jpeg', size: 3 * MIB };
    await expectPlatformError(publisher.publish(tokens, request({ media: [clip], thumbnail: bigThumb }), memoryJournal()), 'invalid_content');
    expect(sessions(await sb.state('youtube'))).toHaveLength(0);
    const bad = await expectPlatformError(publisher.publish(tokens, request({ media: [clip], title: 'a <b> title' }), memoryJournal()), 'invalid_content');
    expect(bad.code).toBe('invalidTitle');
    await sb.fault({ platform: 'youtube', operation: 'publish', fault: 'expire_token' });
    await expectPlatformError(publisher.publish(tokens, request({ media: [clip] }), memoryJournal()), 'auth_expired', [tokens.accessToken]);
  });

  it('survives upload 5xx within the call, and reports session-start and status faults', async () => {
    const clip = await video('faults.mp4', 10 * MIB);
    await sb.fault({ platform: 'youtube', operation: 'upload', fault: 'server_error', times: 2 });
    const out = await publisher.publish(tokens, request({ media: [clip] }), memoryJournal());
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
