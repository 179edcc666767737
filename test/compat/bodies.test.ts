// Explicit null means "not set" in post, draft and scheduled-post bodies, and a
// scheduled post (or draft) without post_type is the interface's 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';

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

/** Every optional field of the documented parameter reference, at its documented default. */
const nulls = {
  visibility: null,
  scheduled_time: null,
  draft: null,
  draft_platforms: null,
  board_id: null,
  linkedin: null,
  facebook: null,
  instagram: null,
  threads: null,
  tiktok: null,
  youtube: null,
  pinterest: null,
};

describe('explicit null (item 3)', () => {
  it('publishes now when scheduled_time, draft_platforms and the override objects are null', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    script.calls.length = 0;
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['bluesky'], default_text: 'Now', ...nulls },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, error: null, post: { platform: 'bluesky' } });
    expect(script.calls).toHaveLength(1);
  });

  it('takes null inside override objects and per-page maps, and for media ids and URLs', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    script.calls.length = 0;
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: {
        platforms: ['linkedin'],
        default_text: 'Personal only',
        default_image_id: null,
        default_image_url: null,
        video_id: null,
        video_url: null,
        linkedin: {
          linkedin_text: null,
          linkedin_page_ids: null,
          post_to_personal: null,
          linkedin_page_texts: null,
          linkedin_image_url: null,
          visibility: null,
          scheduled_time: null,
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, error: null });
    expect(script.calls.map((c) => [c.req.destination?.kind, c.req.text])).toEqual([['personal', 'Personal only']]);
  });

  it('saves drafts and schedules posts whose optional fields are null', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const draft = await h.req({
      method: 'POST',
      url: '/unified/drafts',
      headers: asUser(u),
      payload: { post_type: 'text', platforms: ['bluesky'], default_text: 'Draft', ...nulls, draft: undefined },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json().drafts).toEqual([{ platform: 'bluesky', draft_id: expect.any(String), status: 'draft' }]);
    const scheduled = await h.req({
      method: 'POST',
      url: '/unified/scheduled-posts',
      headers: asUser(u),
      payload: {
        post_type: 'text',
        platforms: ['bluesky'],
        default_text: 'Later',
        ...nulls,
        scheduled_time: '2026-11-21T10:00:00Z',
      },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json().scheduled).toEqual([
      { platform: 'bluesky', scheduled_post_id: expect.any(String), scheduled_time: '2026-11-21T10:00:00.000Z' },
    ]);
  });

  it('says so in the API document of the post, draft and scheduled-post routes', async () => {
    const doc = (await h.req({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, { post: { description: string } }>;
    };
    for (const path of ['/unified/post/text', '/unified/post/video', '/unified/drafts', '/unified/scheduled-posts'])
      expect(doc.paths[path]!.post.description, path).toContain('explicit null');
  });

  it('still refuses null where a value is required, and null inside a list', async () => {
    const u = await h.signup();
    const noPlatforms = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: null, default_text: 'x' },
    });
    expect(noPlatforms.statusCode).toBe(422);
    expect(noPlatforms.json().detail[0].loc).toEqual(['body', 'platforms']);
    const noTime = await h.req({
      method: 'POST',
      url: '/unified/scheduled-posts',
      headers: asUser(u),
      payload: { post_type: 'text', platforms: ['bluesky'], default_text: 'x', scheduled_time: null },
    });
    expect(noTime.statusCode).toBe(422);
    expect(noTime.json().detail[0].loc).toEqual(['body', 'scheduled_time']);
    const inList = await h.req({
      method: 'POST',
      url: '/unified/post/carousel',
      headers: asUser(u),
      payload: { platforms: ['linkedin'], image_ids: [null, null] },
    });
    expect(inList.statusCode).toBe(422);
  });
});

describe('missing post_type (item 9)', () => {
  it('is a 400 on POST /unified/scheduled-posts and POST /unified/drafts; a wrong value stays a 422', async () => {
    const u = await h.signup();
    const body = { platforms: ['bluesky'], default_text: 'x', scheduled_time: '2026-11-21T10:00:00Z' };
    for (const url of ['/unified/scheduled-posts', '/unified/drafts']) {
      const missing = await h.req({
        method: 'POST',
        url,
        headers: asUser(u),
        payload: url.endsWith('drafts') ? { ...body, scheduled_time: undefined } : body,
      });
      expect(missing.statusCode, url).toBe(400);
      expect(missing.json()).toEqual({ detail: 'post_type is required' });
      const asNull = await h.req({ method: 'POST', url, headers: asUser(u), payload: { ...body, post_type: null } });
      expect(asNull.statusCode, url).toBe(400);
      const wrong = await h.req({
        method: 'POST',
        url,
        headers: asUser(u),
        payload: { ...body, post_type: 'hologram' },
      });
      expect(wrong.statusCode, url).toBe(422);
      expect(wrong.json().detail[0].loc).toEqual(['body', 'post_type']);
    }
  });
});
