// A network's own requirement (a YouTube title, a Pinterest board) fails that network
// alone, in the results, so the request's other networks still publish; character limits stay 422s.
import { stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { writeMp4 } from '../media/helpers/video-fixtures.ts';
import { imageMedia, scriptedAdapters, type Script } from '../publishing/helpers.ts';

const script: Script = { calls: [], behaviour: {} };
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: () => new Date('2026-11-20T10:00:00Z'),
    overrides: { adapters: scriptedAdapters(script) },
  });
});
afterAll(async () => h?.close());

const post = (u: TestUser, type: string, payload: object) =>
  h.req({ method: 'POST', url: `/unified/post/${type}`, headers: asUser(u), payload });
const usage = async (u: TestUser) =>
  (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json().used_this_period;

async function video(u: TestUser): Promise<string> {
  const path = join(tmpdir(), `herald-compat-${randomUUID()}.mp4`);
  await writeMp4(path, {
    width: 1080,
    height: 1920,
    durationSec: 12,
    mdatBytes: 64 * 1024,
    audio: true,
    moovFirst: true,
  });
  const row = await h.ctx.media.add(
    { workspaceId: u.workspaceId, platform: null, platformUserId: null },
    { file: { path, size: (await stat(path)).size, filename: 'v.mp4' } },
    'video',
    ['body', 'media'],
  );
  return row.id;
}

const YT = 'YouTube requires a title. Set default_text or youtube.youtube_title.';
const PIN = 'Pinterest pin requires pinterest.board_id';

describe('per-network requirements stay per network', () => {
  it('YouTube without a title fails alone; the other networks of the video post publish', async () => {
    const u = await h.signup();
    await connect(h, u, 'youtube');
    await connect(h, u, 'tiktok');
    const v = await video(u);
    script.calls.length = 0;
    const res = await post(u, 'video', {
      platforms: ['youtube', 'tiktok'],
      video_id: v,
      tiktok: { privacy_level: 'SELF_ONLY' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [yt, tt] = res.json().results;
    expect(yt).toEqual({
      platform: 'youtube',
      success: false,
      message: YT,
      error: 'title_required',
      post_id: null,
      permalink: null,
    });
    expect(tt).toMatchObject({ platform: 'tiktok', success: true });
    expect(script.calls.map((c) => c.platform)).toEqual(['tiktok']);
    // Only the network that ran spends a post credit.
    expect((await usage(u)).posts).toBe(1);
  });

  it('Pinterest without a board fails alone with board_id_required; the other networks of the image post publish', async () => {
    const u = await h.signup();
    await connect(h, u, 'pinterest');
    await connect(h, u, 'threads');
    const img = await imageMedia(h, u);
    script.calls.length = 0;
    const res = await post(u, 'image', {
      platforms: ['threads', 'pinterest'],
      default_text: 'Pin me',
      default_image_id: img,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [threads, pin] = res.json().results;
    expect(threads).toMatchObject({ platform: 'threads', success: true, post_id: expect.any(String) });
    expect(pin).toEqual({
      platform: 'pinterest',
      success: false,
      message: PIN,
      error: 'board_id_required',
      post_id: null,
      permalink: null,
    });
    expect(script.calls.map((c) => c.platform)).toEqual(['threads']);
  });

  it('answers a request for that one network alone in the single-platform shape with success: false', async () => {
    const u = await h.signup();
    await connect(h, u, 'pinterest');
    await connect(h, u, 'youtube');
    const img = await imageMedia(h, u);
    const v = await video(u);
    script.calls.length = 0;
    const pin = await post(u, 'image', {
      platforms: ['pinterest'],
      default_image_id: img,
      pinterest: { pinterest_text: 'Title' },
    });
    expect(pin.statusCode).toBe(200);
    expect(pin.json()).toEqual({ success: false, message: PIN, error: 'board_id_required' });
    const yt = await post(u, 'video', { platforms: ['youtube'], video_id: v, youtube: { youtube_title: '' } });
    expect(yt.statusCode).toBe(200);
    expect(yt.json()).toEqual({ success: false, message: YT, error: 'title_required' });
    expect(script.calls).toHaveLength(0);
    expect((await usage(u)).posts).toBe(0);
  });

  it('publishes the others now when the post is scheduled for the failing network too, and keeps 422s where it cannot answer per network', async () => {
    const u = await h.signup();
    await connect(h, u, 'threads');
    const img = await imageMedia(h, u);
    const scheduled = await post(u, 'image', {
      platforms: ['threads', 'pinterest'],
      default_image_id: img,
      scheduled_time: '2026-11-21T10:00:00Z',
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json()).toMatchObject({
      scheduled: [{ platform: 'threads' }],
      results: [{ platform: 'pinterest', success: false, error: 'board_id_required' }],
    });
    // A draft is saved only when it could be published; the scheduled-posts route answers for entries only.
    const draft = await post(u, 'image', { platforms: ['threads', 'pinterest'], default_image_id: img, draft: true });
    expect(draft.statusCode).toBe(422);
    expect(draft.json().detail).toBe(PIN);
    const entry = await h.req({
      method: 'POST',
      url: '/unified/scheduled-posts',
      headers: asUser(u),
      payload: {
        post_type: 'image',
        platforms: ['pinterest'],
        default_image_id: img,
        scheduled_time: '2026-11-21T10:00:00Z',
      },
    });
    expect(entry.statusCode).toBe(422);
    expect(entry.json().detail).toBe(PIN);
  });

  it('keeps character limits whole-request 422s', async () => {
    const u = await h.signup();
    await connect(h, u, 'threads');
    const v = await video(u);
    script.calls.length = 0;
    const long = await post(u, 'video', {
      platforms: ['threads', 'youtube'],
      video_id: v,
      youtube: { youtube_title: 't'.repeat(101) },
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().detail).toBe(
      'Max text character limit for youtube is 100. Received 101 characters in youtube_title.',
    );
    expect(script.calls).toHaveLength(0);
  });
});
