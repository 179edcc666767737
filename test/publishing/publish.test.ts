import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { eq } from '../../src/db/orm.ts';
import { creditBalances, creditLedger } from '../../src/db/schema.ts';
import { posts, postTargets } from '../../src/db/schema-publishing.ts';
import { imageMedia, scriptedAdapters, type Script } from './helpers.ts';

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

const post = (u: Parameters<typeof asUser>[0], type: string, payload: object, headers: Record<string, string> = {}) =>
  h.req({ method: 'POST', url: `/unified/post/${type}`, headers: { ...asUser(u), ...headers }, payload });

describe('publishing now', () => {
  it('publishes to one network with the single-platform response and records the ledger', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    script.calls.length = 0;
    const res = await post(u, 'text', { platforms: ['bluesky'], default_text: 'Hello from Herald' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      post: {
        platform: 'bluesky',
        post_id: expect.stringMatching(/^bluesky-/),
        permalink: expect.stringContaining('https://'),
      },
    });
    expect(script.calls).toHaveLength(1);
    expect(script.calls[0]!.req).toMatchObject({ postType: 'text', text: 'Hello from Herald' });
    const usage = (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json();
    expect(usage.used_this_period.posts).toBe(1);
  });

  it('fans out in parallel with partial success, NOT_CONNECTED, and refunds failed targets', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await connect(h, u, 'linkedin');
    const { PlatformError } = await import('../../src/platforms/types.ts');
    script.behaviour.linkedin = async () => {
      throw new PlatformError('linkedin', 'rate_limited', 'LinkedIn is throttling this account', {
        retryAfterSeconds: 30,
      });
    };
    try {
      const res = await post(u, 'text', { platforms: ['bluesky', 'linkedin', 'threads'], default_text: 'Three ways' });
      const results = res.json().results as { platform: string; success: boolean; error?: string }[];
      expect(results.map((r) => [r.platform, r.success, r.error ?? null])).toEqual([
        ['bluesky', true, null],
        ['linkedin', false, 'RATE_LIMITED'],
        ['threads', false, 'NOT_CONNECTED'],
      ]);
      const usage = (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json();
      expect(usage.used_this_period.posts).toBe(1);
    } finally {
      delete script.behaviour.linkedin;
    }
  });

  it('posts to every LinkedIn page (and the person with post_to_personal) with per-page texts', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    const profile = (
      await h.req({ method: 'GET', url: '/unified/user-profiles/?platforms=linkedin', headers: asUser(u) })
    ).json();
    const pages = (profile.linkedin.organizations as { page_id: string }[]).map((o) => o.page_id);
    script.calls.length = 0;
    const res = await post(u, 'text', {
      platforms: ['linkedin'],
      default_text: 'Default',
      linkedin: {
        linkedin_page_ids: pages,
        post_to_personal: true,
        linkedin_page_texts: { [pages[0]!]: 'For page one' },
      },
    });
    expect(res.json().results).toHaveLength(pages.length + 1);
    expect(script.calls.map((c) => [c.req.destination?.kind, c.req.text])).toEqual(
      expect.arrayContaining([
        ['personal', 'Default'],
        ['organization', 'For page one'],
      ]),
    );
  });

  it('replays an Idempotency-Key with the same body and refuses it with another body', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    script.calls.length = 0;
    const first = await post(
      u,
      'text',
      { platforms: ['bluesky'], default_text: 'Once only' },
      { 'idempotency-key': 'k-1' },
    );
    const again = await post(
      u,
      'text',
      { platforms: ['bluesky'], default_text: 'Once only' },
      { 'idempotency-key': 'k-1' },
    );
    expect(again.json()).toEqual(first.json());
    expect(script.calls).toHaveLength(1);
    const other = await post(
      u,
      'text',
      { platforms: ['bluesky'], default_text: 'Something else' },
      { 'idempotency-key': 'k-1' },
    );
    expect(other.statusCode).toBe(422);
  });

  it('runs out of post credits with 402 before any network is called', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free'); // 5 posts a month
    await connect(h, u, 'bluesky');
    for (let i = 0; i < 5; i++)
      expect((await post(u, 'text', { platforms: ['bluesky'], default_text: `n${i}` })).json().success).toBe(true);
    script.calls.length = 0;
    const res = await post(u, 'text', { platforms: ['bluesky'], default_text: 'one too many' });
    expect(res.statusCode).toBe(402);
    expect(res.json().detail).toMatchObject({
      error: 'insufficient_credits',
      credit_type: 'posts',
      required: 1,
      available: 0,
    });
    expect(script.calls).toHaveLength(0);
    // The refused request wrote nothing: no post, no target, no ledger line; the running total is the limit.
    const db = h.ctx.database.db;
    expect(await db.select().from(posts).where(eq(posts.workspaceId, u.workspaceId))).toHaveLength(5);
    expect(await db.select().from(postTargets).where(eq(postTargets.workspaceId, u.workspaceId))).toHaveLength(5);
    expect(await db.select().from(creditLedger).where(eq(creditLedger.workspaceId, u.workspaceId))).toHaveLength(5);
    const [balance] = await db.select().from(creditBalances).where(eq(creditBalances.workspaceId, u.workspaceId));
    expect(balance?.used).toBe(5);
    // The post that took the remaining credits to the low mark (a tenth of 5, rounded up: 1 left) said so, once.
    const low = (await h.req({ method: 'GET', url: '/events?type=credits.low', headers: asUser(u) })).json().events;
    expect(low.map((e: { data: object }) => e.data)).toEqual([
      { credit_type: 'posts', used: 4, limit: 5, remaining: 1, period_start: '2026-11-01T00:00:00.000Z' },
    ]);
  });
});

describe('validation before anything is sent', () => {
  it('answers the interface 400s', async () => {
    const u = await h.signup();
    const cases: [string, object, string][] = [
      ['text', { platforms: ['myspace'], default_text: 'x' }, "Invalid or unsupported platform: 'myspace'"],
      ['text', { platforms: ['instagram'], default_text: 'x' }, 'This platform does not support text posting.'],
      ['text', { platforms: [], default_text: 'x' }, 'platforms must have at least one platform'],
      [
        'text',
        { platforms: ['bluesky'], default_text: 'x', draft_platforms: ['linkedin'] },
        'draft_platforms must be a subset of platforms. Invalid: linkedin.',
      ],
    ];
    for (const [type, payload, message] of cases) {
      const res = await post(u, type, payload);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().detail).toContain(message);
    }
  });

  it('counts text the way each network does and names the field', async () => {
    const u = await h.signup();
    // A family emoji is one grapheme but 11 UTF-16 units: Bluesky counts graphemes.
    const family = '👩‍👩‍👧‍👦';
    const bsky = await post(u, 'text', {
      platforms: ['bluesky'],
      default_text: `${family.repeat(200)}${'a'.repeat(101)}`,
    });
    expect(bsky.statusCode).toBe(422);
    expect(bsky.json().detail).toBe(
      'Max text character limit for bluesky is 300. Received 301 characters in default_text.',
    );
    // 300 graphemes, 1,300 UTF-16 units and 2,700 bytes: within both of Bluesky's limits.
    const ok = await post(u, 'text', {
      platforms: ['bluesky'],
      default_text: `${family.repeat(100)}${'a'.repeat(200)}`,
    });
    expect(ok.statusCode).not.toBe(422);
    const threads = await post(u, 'text', {
      platforms: ['threads'],
      default_text: 'x',
      threads: { threads_text: 'y'.repeat(501) },
    });
    expect(threads.json().detail).toBe(
      'Max text character limit for threads is 500. Received 501 characters in threads_text.',
    );
    const tiktok = await post(u, 'image', {
      platforms: ['tiktok'],
      default_image_id: '00000000-0000-4000-8000-000000000000',
      tiktok: { tiktok_title: 'é'.repeat(91) },
    });
    expect(tiktok.json().detail).toBe(
      'Max TikTok Business photo title length is 90 UTF-16 code units. Received 91 in tiktok_title.',
    );
    const yt = await post(u, 'video', {
      platforms: ['youtube'],
      video_id: '00000000-0000-4000-8000-000000000000',
      youtube: { youtube_title: 't'.repeat(101) },
    });
    expect(yt.json().detail).toBe(
      'Max text character limit for youtube is 100. Received 101 characters in youtube_title.',
    );
    const page = await post(u, 'text', {
      platforms: ['linkedin'],
      default_text: 'x',
      linkedin: { linkedin_page_ids: ['1'], linkedin_page_texts: { '1': 'z'.repeat(3001) } },
    });
    expect(page.json().detail).toBe(
      'Max text character limit for linkedin is 3000. Received 3001 characters in linkedin_page_texts[1].',
    );
  });

  it('requires Facebook pages (a bad network fails the request); a Pinterest board and a YouTube title fail that network alone', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const img = await imageMedia(h, u);
    script.calls.length = 0;
    const fb = await post(u, 'text', { platforms: ['bluesky', 'facebook'], default_text: 'x' });
    expect(fb.statusCode).toBe(422);
    expect(fb.json().detail).toMatch(/facebook_page_ids is required/);
    // A network's own requirement (test/compat/per-network.test.ts): in the results, as the error catalogue puts them.
    const pin = await post(u, 'image', { platforms: ['pinterest'], default_image_id: img });
    expect(pin.json()).toEqual({
      success: false,
      message: 'Pinterest pin requires pinterest.board_id',
      error: 'board_id_required',
    });
    const yt = await post(u, 'video', { platforms: ['youtube'], video_id: img });
    expect(yt.json()).toMatchObject({
      success: false,
      message: 'YouTube requires a title. Set default_text or youtube.youtube_title.',
    });
    expect(script.calls).toHaveLength(0);
  });

  it('checks media: carousel size, existence in this workspace, kind and format per network', async () => {
    const u = await h.signup();
    const other = await h.signup();
    const mine = await imageMedia(h, u);
    const png = await imageMedia(h, u, { format: 'png' });
    const theirs = await imageMedia(h, other);
    const one = await post(u, 'carousel', { platforms: ['instagram'], image_ids: [mine] });
    expect(one.statusCode).toBe(422);
    const foreign = await post(u, 'image', { platforms: ['instagram'], default_image_id: theirs });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().detail).toBe(`Media not found: ${theirs}`);
    const pngIg = await post(u, 'image', { platforms: ['instagram'], default_image_id: png });
    expect(pngIg.statusCode).toBe(422);
    expect(pngIg.json().detail).toEqual([
      {
        loc: ['body', 'default_image_id'],
        msg: expect.stringMatching(/Instagram accepts JPEG images only/),
        type: 'media_unsuitable',
      },
    ]);
    const imageAsVideo = await post(u, 'video', { platforms: ['tiktok'], video_id: mine });
    expect(imageAsVideo.json().detail[0].msg).toMatch(/needs a video/);
    const tall = await imageMedia(h, u, { width: 400, height: 1000 });
    const aspect = await post(u, 'image', { platforms: ['instagram'], default_image_id: tall });
    expect(aspect.json().detail[0].msg).toMatch(/aspect ratio/);
  });

  it('rejects malformed bodies with field-level 422s', async () => {
    const u = await h.signup();
    const res = await post(u, 'text', { platforms: 'bluesky', default_text: 5 });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.platforms', 'body.default_text']),
    );
    const privacy = await post(u, 'image', {
      platforms: ['tiktok'],
      default_image_id: 'x',
      tiktok: { privacy_level: 'EVERYONE' },
    });
    expect(privacy.statusCode).toBe(422);
  });
});

describe('drafts', () => {
  it('saves all drafts, mixes drafts with publishing, and publishes a draft later', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const all = await post(u, 'text', { platforms: ['bluesky', 'linkedin'], default_text: 'Later', draft: true });
    expect(all.json()).toMatchObject({
      success: true,
      message: 'Saved as drafts',
      drafts: [
        { platform: 'bluesky', status: 'draft' },
        { platform: 'linkedin', status: 'draft' },
      ],
    });
    const mixed = await post(u, 'text', {
      platforms: ['bluesky', 'linkedin'],
      default_text: 'Half',
      draft_platforms: ['linkedin'],
    });
    expect(mixed.json()).toMatchObject({
      drafts: [{ platform: 'linkedin' }],
      results: [{ platform: 'bluesky', success: true }],
    });
    const list = (await h.req({ method: 'GET', url: '/unified/drafts', headers: asUser(u) })).json();
    expect(list.total).toBe(3);
    const bskyDraft = all.json().drafts[0].draft_id;
    const one = (await h.req({ method: 'GET', url: `/unified/drafts/${bskyDraft}`, headers: asUser(u) })).json();
    expect(one.data).toMatchObject({
      id: bskyDraft,
      platform: 'bluesky',
      post_type: 'text',
      status: 'draft',
      default_text: 'Later',
    });
    const patched = await h.req({
      method: 'PATCH',
      url: `/unified/drafts/${bskyDraft}`,
      headers: asUser(u),
      payload: { default_text: 'Edited' },
    });
    expect(patched.json().data.default_text).toBe('Edited');
    const tooLong = await h.req({
      method: 'PATCH',
      url: `/unified/drafts/${bskyDraft}`,
      headers: asUser(u),
      payload: { default_text: 'x'.repeat(301) },
    });
    expect(tooLong.statusCode).toBe(422);
    script.calls.length = 0;
    const published = await h.req({ method: 'POST', url: `/unified/drafts/${bskyDraft}/publish`, headers: asUser(u) });
    expect(published.json()).toMatchObject({ success: true, post: { platform: 'bluesky' } });
    expect(script.calls[0]!.req.text).toBe('Edited');
    expect((await h.req({ method: 'GET', url: `/unified/drafts/${bskyDraft}`, headers: asUser(u) })).statusCode).toBe(
      404,
    );
    const other = await h.signup();
    const liDraft = all.json().drafts[1].draft_id;
    expect((await h.req({ method: 'GET', url: `/unified/drafts/${liDraft}`, headers: asUser(other) })).statusCode).toBe(
      404,
    );
    expect((await h.req({ method: 'DELETE', url: `/unified/drafts/${liDraft}`, headers: asUser(u) })).json()).toEqual({
      success: true,
      message: 'Draft deleted',
    });
  });

  it('needs drafts_enabled for draft: true', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free');
    const res = await post(u, 'text', { platforms: ['bluesky'], default_text: 'x', draft: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatchObject({ error: 'plan_required', feature: 'drafts_enabled' });
  });
});
