// Publishing end to end: Herald's routes → real adapters → the simulators over HTTP, counted in the
// simulators' state, including failures of one network and a retried request.
import { stat, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { writeMp4 } from '../media/helpers/video-fixtures.ts';
import { connect, fault } from '../connections/helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date(), env: { HERALD_PUBLISH_WAIT_SECONDS: '60' } });
  await fetch(`${h.url}/sandbox/_config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ processingMs: 0 }) });
});
afterAll(async () => h?.close());

async function state(): Promise<Record<string, { posts: { id: string; text?: string }[] }>> {
  return (await (await fetch(`${h.url}/sandbox/_state`)).json()) as Record<string, { posts: { id: string; text?: string }[] }>;
}
const postsOf = async (platform: string) => (await state())[platform]!.posts;

async function media(u: TestUser, kind: 'jpeg' | 'mp4', opts: { width?: number; height?: number } = {}): Promise<string> {
  const path = join(tmpdir(), `herald-e2e-${randomUUID()}.${kind}`);
  if (kind === 'jpeg') {
    await writeFile(path, await sharp({ create: { width: opts.width ?? 1080, height: opts.height ?? 1080, channels: 3, background: '#3366aa' } }).jpeg().toBuffer());
  } else {
    await writeMp4(path, { width: 1080, height: 1920, durationSec: 12, mdatBytes: 256 * 1024, audio: true, moovFirst: true });
  }
  const row = await h.ctx.media.add({ workspaceId: u.workspaceId, platform: null, platformUserId: null }, { file: { path, size: (await stat(path)).size, filename: `f.${kind}` } }, kind === 'mp4' ? 'video' : 'image', ['body', 'media']);
  return row.id;
}

async function pageIds(u: TestUser) {
  const profiles = (await h.req({ method: 'GET', url: '/unified/user-profiles/?platforms=facebook&platforms=pinterest&platforms=linkedin', headers: asUser(u) })).json();
  return {
    facebook: (profiles.facebook.pages as { page_id: string }[])[0]!.page_id,
    board: (profiles.pinterest.boards as { board_id: string }[])[0]!.board_id,
  };
}

describe('publishing through the adapters to the simulators', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    for (const p of ['linkedin', 'facebook', 'instagram', 'threads', 'tiktok', 'youtube', 'pinterest', 'bluesky']) await connect(h, u, p);
  });

  it('publishes a text post to the four text networks, once each', async () => {
    const { facebook } = await pageIds(u);
    const before = await state();
    const text = `Text post ${randomUUID().slice(0, 8)} #herald https://example.com`;
    const res = await h.req({ method: 'POST', url: '/unified/post/text', headers: asUser(u), payload: { platforms: ['linkedin', 'facebook', 'threads', 'bluesky'], default_text: text, facebook: { facebook_page_ids: [facebook] } } });
    const results = res.json().results as { platform: string; success: boolean; message: string; post?: { post_id: string; permalink: string | null } }[];
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
      payload: { platforms: ['linkedin', 'facebook', 'instagram', 'threads', 'pinterest'], default_text: 'An image', default_image_id: image, facebook: { facebook_page_ids: [facebook] }, pinterest: { board_id: board, pinterest_text: 'Pin title' } },
    });
    for (const r of res.json().results) expect(r.success, `${r.platform}: ${r.message}`).toBe(true);
    const ig = res.json().results.find((r: { platform: string }) => r.platform === 'instagram');
    expect(ig.post.permalink).toMatch(/instagram\.com\/p\/[A-Za-z0-9_-]+/);

    const video = await media(u, 'mp4');
    const vres = await h.req({
      method: 'POST',
      url: '/unified/post/video',
      headers: asUser(u),
      payload: { platforms: ['youtube', 'tiktok', 'bluesky'], default_text: 'A video', video_id: video, youtube: { youtube_title: 'Herald video' }, tiktok: { privacy_level: 'SELF_ONLY' } },
    });
    for (const r of vres.json().results) expect(r.success, `${r.platform}: ${r.message}`).toBe(true);
  });

  it('publishes Bluesky image and carousel posts with alt texts, and refuses what Bluesky cannot take', async () => {
    type Embed = { $type: string; images: { alt: string; aspectRatio: { width: number; height: number } }[] };
    const embedOf = async (postId: string) => ((await postsOf('bluesky')).find((p) => p.id === postId) as unknown as { record: { embed: Embed } }).record.embed;
    const one = await media(u, 'jpeg', { width: 1200, height: 800 });
    const res = await h.req({ method: 'POST', url: '/unified/post/image', headers: asUser(u), payload: { platforms: ['bluesky'], default_text: 'One picture', default_image_id: one, bluesky: { alt_text: 'A blue field' } } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, post: { platform: 'bluesky', post_id: expect.stringMatching(/^at:\/\//) } });
    expect(await embedOf(res.json().post.post_id)).toEqual({ $type: 'app.bsky.embed.images', images: [{ image: expect.any(Object), alt: 'A blue field', aspectRatio: { width: 1200, height: 800 } }] });

    const four = [await media(u, 'jpeg'), await media(u, 'jpeg', { width: 800, height: 1000 }), await media(u, 'jpeg'), await media(u, 'jpeg', { width: 1920, height: 1080 })];
    const carousel = await h.req({ method: 'POST', url: '/unified/post/carousel', headers: asUser(u), payload: { platforms: ['bluesky'], default_text: 'Four pictures', image_ids: four, bluesky: { alt_texts: ['First', null, 'Third'] } } });
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
      const r = await h.req({ method: 'POST', url, headers: asUser(u), payload: { platforms: ['bluesky'], default_text: 'No', ...payload } });
      expect(r.statusCode, JSON.stringify(r.json())).toBe(422);
      return JSON.stringify(r.json());
    };
    expect(await refused('/unified/post/carousel', { image_ids: [...four, one] })).toContain('Bluesky carousels take 2 to 4 images; got 5.');
    expect(await refused('/unified/post/carousel', { image_ids: four.slice(0, 2), bluesky: { alt_texts: ['a', 'b', 'c'] } })).toContain('bluesky.alt_texts has 3 entries for 2 image(s).');
    expect(await refused('/unified/post/image', { default_image_id: one, bluesky: { alt_text: 'x'.repeat(2001) } })).toContain('Received 2001 characters in bluesky.alt_texts[0]');
    expect(await refused('/unified/post/carousel', { image_ids: [four[0], await media(u, 'mp4')] })).toContain('the carousel route needs images');
    expect((await postsOf('bluesky')).length).toBe(before);
  });

  it('TikTok without privacy_level posts as publicly as creator_info allows and says which level it used', async () => {
    const video = await media(u, 'mp4');
    const payload = { platforms: ['tiktok'], default_text: 'Public by default', video_id: video };
    const res = await h.req({ method: 'POST', url: '/unified/post/video', headers: asUser(u), payload });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, post: { platform: 'tiktok', privacy_level: 'PUBLIC_TO_EVERYONE' } });
    const several = await h.req({ method: 'POST', url: '/unified/post/video', headers: asUser(u), payload: { ...payload, platforms: ['tiktok', 'bluesky'], tiktok: { privacy_level: 'MUTUAL_FOLLOW_FRIENDS' } } });
    const results = several.json().results as { platform: string; post?: Record<string, unknown> }[];
    expect(results.find((r) => r.platform === 'tiktok')?.post).toMatchObject({ privacy_level: 'MUTUAL_FOLLOW_FRIENDS' });
    expect(results.find((r) => r.platform === 'bluesky')?.post).not.toHaveProperty('privacy_level');

    // A creator of an app TikTok has not audited is offered SELF_ONLY only.
    const other = await h.signup();
    const url = (await h.req({ method: 'POST', url: '/unified/oauth/url', headers: asUser(other), payload: { platform: ['tiktok'] } })).json().results.tiktok.auth_url as string;
    const approved = await fetch(url, { headers: { 'x-sandbox-auto-approve': '1', 'x-sandbox-user': 'unaudited-creator' }, redirect: 'follow' });
    expect(await approved.text()).toContain('data-status="success"');
    const mine = await media(other, 'mp4');
    const self = await h.req({ method: 'POST', url: '/unified/post/video', headers: asUser(other), payload: { platforms: ['tiktok'], default_text: 'Only me', video_id: mine } });
    expect(self.json()).toMatchObject({ success: true, post: { platform: 'tiktok', privacy_level: 'SELF_ONLY' } });
    const inits = ((await state()) as unknown as Record<string, { requests: { path: string; body?: { post_info?: { privacy_level?: string } } }[] }>).tiktok!.requests.filter((r) => r.path.endsWith('/v2/post/publish/video/init/'));
    expect(inits.map((r) => r.body?.post_info?.privacy_level).slice(-3)).toEqual(['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']);
  });

  it('one network failing does not stop the others, and a retry with the same key publishes nothing twice', async () => {
    await fault(h, { platform: 'threads', operation: 'publish', fault: 'rate_limit', times: 1 });
    const before = await state();
    const payload = { platforms: ['threads', 'bluesky'], default_text: `Retry-safe ${randomUUID().slice(0, 6)}` };
    const first = await h.req({ method: 'POST', url: '/unified/post/text', headers: { ...asUser(u), 'idempotency-key': 'e2e-retry' }, payload });
    const results = first.json().results as { platform: string; success: boolean; error?: string }[];
    expect(results.map((r) => [r.platform, r.success, r.error ?? null])).toEqual([
      ['threads', false, 'RATE_LIMITED'],
      ['bluesky', true, null],
    ]);
    const again = await h.req({ method: 'POST', url: '/unified/post/text', headers: { ...asUser(u), 'idempotency-key': 'e2e-retry' }, payload });
    expect(again.json()).toEqual(first.json());
    const after = await state();
    expect(after.bluesky!.posts.length - before.bluesky!.posts.length).toBe(1);
    expect(after.threads!.posts.length - before.threads!.posts.length).toBe(0);
  });

  it('an expired token is refreshed once and the publish retried', async () => {
    await fault(h, { platform: 'linkedin', operation: 'publish', fault: 'expire_token', times: 1 });
    const before = (await postsOf('linkedin')).length;
    const res = await h.req({ method: 'POST', url: '/unified/post/text', headers: asUser(u), payload: { platforms: ['linkedin'], default_text: `After refresh ${randomUUID().slice(0, 6)}` } });
    expect(res.json()).toMatchObject({ success: true, post: { platform: 'linkedin' } });
    expect((await postsOf('linkedin')).length - before).toBe(1);
  });
});

describe('a network that hangs', () => {
  it('answers TIMEOUT for it within the publish wait while the others publish', async () => {
    const quick = await createHarness({ sandbox: true, clock: () => new Date(), env: { HERALD_PUBLISH_WAIT_SECONDS: '2', HERALD_PLATFORM_TIMEOUT_SECONDS: '600' } });
    try {
      const u = await quick.signup();
      await connect(quick, u, 'bluesky');
      await connect(quick, u, 'threads');
      await fault(quick, { platform: 'bluesky', operation: 'publish', fault: 'timeout', times: 1 });
      // The network's own timeout (10 min) outlasts the test's: an answer at all can only come from the publish wait.
      const res = await quick.req({ method: 'POST', url: '/unified/post/text', headers: asUser(u), payload: { platforms: ['bluesky', 'threads'], default_text: 'Does anyone hear me?' } });
      const results = res.json().results as { platform: string; success: boolean; error?: string }[];
      expect(results.map((r) => [r.platform, r.success, r.error ?? null])).toEqual([
        ['bluesky', false, 'TIMEOUT'],
        ['threads', true, null],
      ]);
      // The timed-out target stays in the ledger as processing, to be reconciled, not failed.
      const { postTargets } = await import('../../src/db/schema-publishing.ts');
      const { eq } = await import('../../src/db/orm.ts');
      const rows = await quick.ctx.database.db.select().from(postTargets).where(eq(postTargets.workspaceId, u.workspaceId));
      expect(rows.map((r) => [r.platform, r.state]).sort()).toEqual([['bluesky', 'processing'], ['threads', 'published']]);
    } finally {
      await quick.close();
    }
  });
});
