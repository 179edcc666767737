// Publishing end to end: Herald's routes → real adapters → the simulators over HTTP, counted in the
// simulators' state, including failures of one network and a retried request.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { endToEnd } from './end-to-end.ts';
import { connect, fault } from '../connections/helpers.ts';

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

async function pageIds(u: TestUser) {
  const profiles = (
    await h.req({
      method: 'GET',
      url: '/unified/user-profiles/?platforms=facebook&platforms=pinterest&platforms=linkedin',
      headers: asUser(u),
    })
  ).json();
  return {
    facebook: (profiles.facebook.pages as { page_id: string }[])[0]!.page_id,
    board: (profiles.pinterest.boards as { board_id: string }[])[0]!.board_id,
  };
}

describe('publishing through the adapters to the simulators', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    for (const p of ['linkedin', 'facebook', 'instagram', 'threads', 'tiktok', 'youtube', 'pinterest', 'bluesky'])
      await connect(h, u, p);
  });

  it('publishes a text post to the four text networks, once each', async () => {
    const { facebook } = await pageIds(u);
    const before = await state();
    const text = `Text post ${randomUUID().slice(0, 8)} #herald https://example.com`;
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: {
        platforms: ['linkedin', 'facebook', 'threads', 'bluesky'],
        default_text: text,
        facebook: { facebook_page_ids: [facebook] },
      },
    });
    const results = res.json().results as {
      platform: string;
      success: boolean;
      message: string;
      post?: { post_id: string; permalink: string | null };
    }[];
    for (const r of results) expect(r.success, `${r.platform}: ${r.message}`).toBe(true);
    const after = await state();
    for (const p of ['linkedin', 'facebook', 'threads', 'bluesky']) {
      expect(after[p]!.posts.length - before[p]!.posts.length, p).toBe(1);
    }
    expect(results.find((r) => r.platform === 'bluesky')!.post!.post_id).toMatch(/^at:\/\//);
  });

  it('publishes an image and a video to every network that takes them', async () => {
    const { facebook, board } = await pageIds(u);
    const image = await media(u, 'jpeg');
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/image',
      headers: asUser(u),
      payload: {
        platforms: ['linkedin', 'facebook', 'instagram', 'threads', 'pinterest'],
        default_text: 'An image',
        default_image_id: image,
        facebook: { facebook_page_ids: [facebook] },
        pinterest: { board_id: board, pinterest_text: 'Pin title' },
      },
    });
    for (const r of res.json().results) expect(r.success, `${r.platform}: ${r.message}`).toBe(true);
    const ig = res.json().results.find((r: { platform: string }) => r.platform === 'instagram');
    expect(ig.post.permalink).toMatch(/\/sandbox\/instagram\/p\/[A-Za-z0-9_-]+\/$/);

    const video = await media(u, 'mp4');
    const vres = await h.req({
      method: 'POST',
      url: '/unified/post/video',
      headers: asUser(u),
      payload: {
        platforms: ['youtube', 'tiktok', 'bluesky'],
        default_text: 'A video',
        video_id: video,
        youtube: { youtube_title: 'Herald video' },
        tiktok: { privacy_level: 'SELF_ONLY' },
      },
    });
    for (const r of vres.json().results) expect(r.success, `${r.platform}: ${r.message}`).toBe(true);
  });

  it('one network failing does not stop the others, and a retry with the same key publishes nothing twice', async () => {
    await fault(h, { platform: 'threads', operation: 'publish', fault: 'rate_limit', times: 1 });
    const before = await state();
    const payload = { platforms: ['threads', 'bluesky'], default_text: `Retry-safe ${randomUUID().slice(0, 6)}` };
    const first = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: { ...asUser(u), 'idempotency-key': 'e2e-retry' },
      payload,
    });
    const results = first.json().results as { platform: string; success: boolean; error?: string }[];
    expect(results.map((r) => [r.platform, r.success, r.error ?? null])).toEqual([
      ['threads', false, 'RATE_LIMITED'],
      ['bluesky', true, null],
    ]);
    const again = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: { ...asUser(u), 'idempotency-key': 'e2e-retry' },
      payload,
    });
    expect(again.json()).toEqual(first.json());
    const after = await state();
    expect(after.bluesky!.posts.length - before.bluesky!.posts.length).toBe(1);
    expect(after.threads!.posts.length - before.threads!.posts.length).toBe(0);
  });

  it('an expired token is refreshed once and the publish retried', async () => {
    await fault(h, { platform: 'linkedin', operation: 'publish', fault: 'expire_token', times: 1 });
    const before = (await postsOf('linkedin')).length;
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['linkedin'], default_text: `After refresh ${randomUUID().slice(0, 6)}` },
    });
    expect(res.json()).toMatchObject({ success: true, post: { platform: 'linkedin' } });
    expect((await postsOf('linkedin')).length - before).toBe(1);
  });
});

describe('a network that hangs', () => {
  it('answers TIMEOUT for it within the publish wait while the others publish', async () => {
    const quick = await createHarness({
      sandbox: true,
      clock: () => new Date(),
      env: { HERALD_PUBLISH_WAIT_SECONDS: '2', HERALD_PLATFORM_TIMEOUT_SECONDS: '600' },
    });
    try {
      const u = await quick.signup();
      await connect(quick, u, 'bluesky');
      await connect(quick, u, 'threads');
      await fault(quick, { platform: 'bluesky', operation: 'publish', fault: 'timeout', times: 1 });
      // The network's own timeout (10 min) outlasts the test's: an answer at all can only come from the publish wait.
      const res = await quick.req({
        method: 'POST',
        url: '/unified/post/text',
        headers: asUser(u),
        payload: { platforms: ['bluesky', 'threads'], default_text: 'Does anyone hear me?' },
      });
      const results = res.json().results as { platform: string; success: boolean; error?: string }[];
      expect(results.map((r) => [r.platform, r.success, r.error ?? null])).toEqual([
        ['bluesky', false, 'TIMEOUT'],
        ['threads', true, null],
      ]);
      // The timed-out target stays in the ledger as processing, to be reconciled, not failed.
      const { postTargets } = await import('../../src/db/schema-publishing.ts');
      const { eq } = await import('../../src/db/orm.ts');
      const rows = await quick.ctx.database.db
        .select()
        .from(postTargets)
        .where(eq(postTargets.workspaceId, u.workspaceId));
      expect(rows.map((r) => [r.platform, r.state]).sort()).toEqual([
        ['bluesky', 'processing'],
        ['threads', 'published'],
      ]);
    } finally {
      await quick.close();
    }
  });
});
