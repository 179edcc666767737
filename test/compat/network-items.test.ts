// Network items clients send, through the routes, the real adapters and the simulators: TikTok without privacy_level
// posts as publicly as the creator's creator_info allows and says which level it used; Bluesky takes image and
// carousel posts (one image; two to four) with alt texts. The adapters' own tests (test/platforms/tiktok-publish,
// bluesky-publish and bluesky-pds-publish, the last against a real local PDS) cover re-encoding and the PDS's limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { endToEnd } from '../publishing/end-to-end.ts';
import { connect } from '../connections/helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date(), env: { HERALD_PUBLISH_WAIT_SECONDS: '60' } });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0 }),
  });
});
afterAll(async () => h?.close());

const { state, postsOf, media } = endToEnd(() => h);

describe('network items clients send', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    for (const p of ['tiktok', 'bluesky']) await connect(h, u, p);
  });

  it('publishes Bluesky image and carousel posts with alt texts, and refuses what Bluesky cannot take', async () => {
    type Embed = { $type: string; images: { alt: string; aspectRatio: { width: number; height: number } }[] };
    const embedOf = async (postId: string) =>
      ((await postsOf('bluesky')).find((p) => p.id === postId) as unknown as { record: { embed: Embed } }).record.embed;
    const one = await media(u, 'jpeg', { width: 1200, height: 800 });
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/image',
      headers: asUser(u),
      payload: {
        platforms: ['bluesky'],
        default_text: 'One picture',
        default_image_id: one,
        bluesky: { alt_text: 'A blue field' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      post: { platform: 'bluesky', post_id: expect.stringMatching(/^at:\/\//) },
    });
    expect(await embedOf(res.json().post.post_id)).toEqual({
      $type: 'app.bsky.embed.images',
      images: [{ image: expect.any(Object), alt: 'A blue field', aspectRatio: { width: 1200, height: 800 } }],
    });

    const four = [
      await media(u, 'jpeg'),
      await media(u, 'jpeg', { width: 800, height: 1000 }),
      await media(u, 'jpeg'),
      await media(u, 'jpeg', { width: 1920, height: 1080 }),
    ];
    const carousel = await h.req({
      method: 'POST',
      url: '/unified/post/carousel',
      headers: asUser(u),
      payload: {
        platforms: ['bluesky'],
        default_text: 'Four pictures',
        image_ids: four,
        bluesky: { alt_texts: ['First', null, 'Third'] },
      },
    });
    expect(carousel.json()).toMatchObject({ success: true, post: { platform: 'bluesky' } });
    const embed = await embedOf(carousel.json().post.post_id);
    expect(embed.images.map((i) => [i.alt, i.aspectRatio])).toEqual([
      ['First', { width: 1080, height: 1080 }],
      ['', { width: 800, height: 1000 }],
      ['Third', { width: 1080, height: 1080 }],
      ['', { width: 1920, height: 1080 }],
    ]);

    const before = (await postsOf('bluesky')).length;
    const refused = async (url: string, payload: Record<string, unknown>) => {
      const r = await h.req({
        method: 'POST',
        url,
        headers: asUser(u),
        payload: { platforms: ['bluesky'], default_text: 'No', ...payload },
      });
      expect(r.statusCode, JSON.stringify(r.json())).toBe(422);
      return JSON.stringify(r.json());
    };
    expect(await refused('/unified/post/carousel', { image_ids: [...four, one] })).toContain(
      'Bluesky carousels take 2 to 4 images; got 5.',
    );
    expect(
      await refused('/unified/post/carousel', { image_ids: four.slice(0, 2), bluesky: { alt_texts: ['a', 'b', 'c'] } }),
    ).toContain('bluesky.alt_texts has 3 entries for 2 image(s).');
    expect(
      await refused('/unified/post/image', { default_image_id: one, bluesky: { alt_text: 'x'.repeat(2001) } }),
    ).toContain('Received 2001 characters in bluesky.alt_texts[0]');
    expect(await refused('/unified/post/carousel', { image_ids: [four[0], await media(u, 'mp4')] })).toContain(
      'the carousel route needs images',
    );
    expect((await postsOf('bluesky')).length).toBe(before);
  });

  it('TikTok without privacy_level posts as publicly as creator_info allows and says which level it used', async () => {
    const video = await media(u, 'mp4');
    const payload = { platforms: ['tiktok'], default_text: 'Public by default', video_id: video };
    const res = await h.req({ method: 'POST', url: '/unified/post/video', headers: asUser(u), payload });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      post: { platform: 'tiktok', privacy_level: 'PUBLIC_TO_EVERYONE' },
    });
    const several = await h.req({
      method: 'POST',
      url: '/unified/post/video',
      headers: asUser(u),
      payload: { ...payload, platforms: ['tiktok', 'bluesky'], tiktok: { privacy_level: 'MUTUAL_FOLLOW_FRIENDS' } },
    });
    const results = several.json().results as { platform: string; post?: Record<string, unknown> }[];
    expect(results.find((r) => r.platform === 'tiktok')?.post).toMatchObject({
      privacy_level: 'MUTUAL_FOLLOW_FRIENDS',
    });
    expect(results.find((r) => r.platform === 'bluesky')?.post).not.toHaveProperty('privacy_level');

    // A creator of an app TikTok has not audited is offered SELF_ONLY only.
    const other = await h.signup();
    const url = (
      await h.req({
        method: 'POST',
        url: '/unified/oauth/url',
        headers: asUser(other),
        payload: { platform: ['tiktok'] },
      })
    ).json().results.tiktok.auth_url as string;
    const approved = await fetch(url, {
      headers: { 'x-sandbox-auto-approve': '1', 'x-sandbox-user': 'unaudited-creator' },
      redirect: 'follow',
    });
    expect(await approved.text()).toContain('data-status="success"');
    const mine = await media(other, 'mp4');
    const self = await h.req({
      method: 'POST',
      url: '/unified/post/video',
      headers: asUser(other),
      payload: { platforms: ['tiktok'], default_text: 'Only me', video_id: mine },
    });
    expect(self.json()).toMatchObject({ success: true, post: { platform: 'tiktok', privacy_level: 'SELF_ONLY' } });
    const inits = (
      (await state()) as unknown as Record<
        string,
        { requests: { path: string; body?: { post_info?: { privacy_level?: string } } }[] }
      >
    ).tiktok!.requests.filter((r) => r.path.endsWith('/v2/post/publish/video/init/'));
    expect(inits.map((r) => r.body?.post_info?.privacy_level).slice(-3)).toEqual([
      'PUBLIC_TO_EVERYONE',
      'MUTUAL_FOLLOW_FRIENDS',
      'SELF_ONLY',
    ]);
  });
});
