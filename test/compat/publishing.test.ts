// What clients written from the public documentation send and read on the post routes
// (docs/compatibility.md), against the sandbox with a scripted publisher per network.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
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

async function linkedinPages(u: TestUser): Promise<string[]> {
  const profile = (
    await h.req({ method: 'GET', url: '/unified/user-profiles/?platforms=linkedin', headers: asUser(u) })
  ).json();
  return (profile.linkedin.organizations as { page_id: string }[]).map((o) => o.page_id);
}
async function facebookPages(u: TestUser): Promise<string[]> {
  const profile = (
    await h.req({ method: 'GET', url: '/unified/user-profiles/?platforms=facebook', headers: asUser(u) })
  ).json();
  return (profile.facebook.pages as { page_id: string }[]).map((p) => p.page_id);
}

describe('single-network replies (items 1 and 2)', () => {
  it('carries error: null on success, beside success, message and post', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const res = await post(u, 'text', { platforms: ['bluesky'], default_text: 'Hello' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'post', 'success']);
    expect(body).toMatchObject({
      success: true,
      error: null,
      post: { platform: 'bluesky', post_id: expect.any(String), permalink: expect.any(String) },
    });
  });

  it('answers one network with several destinations in the single shape (personal first) and also results[] per destination', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    const pages = await linkedinPages(u);
    expect(pages.length).toBeGreaterThan(0);
    script.calls.length = 0;
    const res = await post(u, 'text', {
      platforms: ['linkedin'],
      default_text: 'Everywhere',
      linkedin: { linkedin_page_ids: pages, post_to_personal: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.results).toHaveLength(pages.length + 1);
    const personal = script.calls.find((c) => c.req.destination?.kind === 'personal')!;
    const personalId = personal.journal.post_id ?? body.results[0].post.post_id;
    expect(body).toMatchObject({
      success: true,
      error: null,
      message: expect.any(String),
      post: { platform: 'linkedin', post_id: body.results[0].post.post_id },
    });
    expect(body.results[0].post.post_id).toBe(personalId);
    expect(
      body.results.every((r: { platform: string; success: boolean }) => r.platform === 'linkedin' && r.success),
    ).toBe(true);
    expect(new Set(body.results.map((r: { post_id: string }) => r.post_id)).size).toBe(pages.length + 1);
  });

  it('reports a failed destination of the one network at the top level, with the others still in results[]', async () => {
    const u = await h.signup();
    await connect(h, u, 'facebook');
    const pages = await facebookPages(u);
    expect(pages.length).toBeGreaterThan(1);
    const { PlatformError } = await import('../../src/platforms/types.ts');
    script.behaviour.facebook = async (req, journal) => {
      if (req.destination?.id === pages[1])
        throw new PlatformError('facebook', 'reauth_required', 'Page token expired');
      await journal.record('post_id', `${req.destination!.id}_1`);
      return {
        state: 'published',
        postId: `${req.destination!.id}_1`,
        permalink: `https://facebook.example/${req.destination!.id}_1`,
      };
    };
    try {
      const res = await post(u, 'text', {
        platforms: ['facebook'],
        default_text: 'Pages',
        facebook: { facebook_page_ids: pages.slice(0, 2) },
      });
      const body = res.json();
      expect(body).toMatchObject({
        success: false,
        error: 'OAUTH_ERROR',
        message: expect.stringContaining('Page token expired'),
        post: { post_id: `${pages[0]}_1` },
      });
      expect(body.results.map((r: { success: boolean }) => r.success)).toEqual([true, false]);
    } finally {
      delete script.behaviour.facebook;
    }
  });
});

describe('multi-network results[] (item 4)', () => {
  it('carries post_id and permalink at the top level of each entry, null where nothing was posted', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const res = await post(u, 'text', { platforms: ['bluesky', 'threads'], default_text: 'Two' });
    expect(res.statusCode, res.body).toBe(200);
    const [bsky, threads] = res.json().results;
    expect(bsky).toMatchObject({
      platform: 'bluesky',
      success: true,
      post_id: bsky.post.post_id,
      permalink: bsky.post.permalink,
    });
    expect(bsky.post_id).toEqual(expect.any(String));
    expect(threads).toMatchObject({
      platform: 'threads',
      success: false,
      error: 'NOT_CONNECTED',
      post_id: null,
      permalink: null,
    });
  });

  it('carries error: null on a successful entry, as the documented {platform, success, message, post, error}', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await connect(h, u, 'threads');
    const res = await post(u, 'text', { platforms: ['bluesky', 'threads'], default_text: 'Both' });
    expect(res.statusCode, res.body).toBe(200);
    for (const entry of res.json().results) {
      expect(entry).toMatchObject({ success: true, error: null });
      expect(Object.keys(entry)).toEqual(expect.arrayContaining(['platform', 'success', 'message', 'post', 'error']));
    }
  });
});

describe('per-page images (item 7)', () => {
  it('publishes an image post with no default image when every LinkedIn and Facebook destination has its own', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    await connect(h, u, 'facebook');
    const [li] = await linkedinPages(u);
    const [fb] = await facebookPages(u);
    const liImage = await imageMedia(h, u);
    const fbImage = await imageMedia(h, u, { format: 'png' });
    script.calls.length = 0;
    const res = await post(u, 'image', {
      platforms: ['linkedin', 'facebook'],
      default_text: 'Own images',
      linkedin: { linkedin_page_ids: [li], linkedin_page_images: { [li!]: liImage } },
      facebook: { facebook_page_ids: [fb], facebook_page_images: { [fb!]: fbImage } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((r: { platform: string; success: boolean }) => [r.platform, r.success])).toEqual([
      ['linkedin', true],
      ['facebook', true],
    ]);
    expect(script.calls.map((c) => [c.platform, c.req.media.map((m) => m.id)]).sort()).toEqual([
      ['facebook', [fbImage]],
      ['linkedin', [liImage]],
    ]);
  });

  it("finds a LinkedIn page's own image and caption under either form of its id (URN or number)", async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    const [urn] = await linkedinPages(u);
    const numeric = urn!.replace('urn:li:organization:', '');
    expect(numeric).toMatch(/^\d+$/);
    const img = await imageMedia(h, u);
    script.calls.length = 0;
    const res = await post(u, 'image', {
      platforms: ['linkedin'],
      default_text: 'Default',
      linkedin: {
        linkedin_page_ids: [numeric],
        linkedin_page_images: { [urn!]: img },
        linkedin_page_texts: { [urn!]: 'Own caption' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(script.calls.map((c) => [c.req.destination?.id, c.req.text, c.req.media.map((m) => m.id)])).toEqual([
      [numeric, 'Own caption', [img]],
    ]);
  });

  it('fails a destination without its own image alone (the LinkedIn profile, a page left out of the map); the others publish', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    await connect(h, u, 'facebook');
    const [li] = await linkedinPages(u);
    const [p1, p2] = await facebookPages(u);
    const img = await imageMedia(h, u);
    script.calls.length = 0;
    const personal = await post(u, 'image', {
      platforms: ['linkedin'],
      linkedin: { linkedin_page_ids: [li], post_to_personal: true, linkedin_page_images: { [li!]: img } },
    });
    expect(personal.statusCode, personal.body).toBe(200);
    const lBody = personal.json();
    expect(lBody).toMatchObject({
      success: false,
      error: 'image_required',
      message: expect.stringMatching(/An image is required for LinkedIn \(the personal profile\)/),
    });
    expect(lBody.results.map((r: { success: boolean; error: string | null }) => [r.success, r.error])).toEqual([
      [false, 'image_required'],
      [true, null],
    ]);
    const both = await post(u, 'image', {
      platforms: ['linkedin', 'facebook'],
      default_text: 'Some pages',
      linkedin: { linkedin_page_ids: [li], linkedin_page_images: { [li!]: img } },
      facebook: { facebook_page_ids: [p1, p2], facebook_page_images: { [p1!]: img } },
    });
    expect(both.statusCode, both.body).toBe(200);
    const results = both.json().results as {
      platform: string;
      success: boolean;
      error: string | null;
      message: string;
    }[];
    expect(results.map((r) => [r.platform, r.success, r.error])).toEqual([
      ['linkedin', true, null],
      ['facebook', true, null],
      ['facebook', false, 'image_required'],
    ]);
    expect(results[2]!.message).toContain(`page ${p2}`);
    // Only the destinations with an image reached their network.
    expect(script.calls.map((c) => [c.platform, c.req.destination?.id]).sort()).toEqual(
      [
        ['facebook', p1],
        ['linkedin', li],
        ['linkedin', li],
      ].sort(),
    );
  });

  it('keeps the 422 when no destination has an image at all', async () => {
    const u = await h.signup();
    await connect(h, u, 'facebook');
    const res = await post(u, 'image', { platforms: ['facebook'], facebook: { facebook_page_ids: ['p1', 'p2'] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(/An image is required for Facebook/);
  });
});
