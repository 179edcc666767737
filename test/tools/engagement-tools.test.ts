// The read and engagement tools run in-process against the sandbox (real adapters over HTTP to the simulators):
// queued posts, analytics, comments, replies and connections, with REST's key scopes and plan gates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { approve, connect, sandboxState } from '../connections/helpers.ts';
import { endToEnd } from '../publishing/end-to-end.ts';
import { detailText, toolRunner } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: () => new Date(),
    env: { HERALD_POSTS_FRESH_SECONDS: '3600', HERALD_COMMENTS_FRESH_SECONDS: '3600' },
  });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0 }),
  });
});
afterAll(async () => h?.close());

const { media, state } = endToEnd(() => h);
const { call, fails } = toolRunner(() => h);

async function seed(body: Record<string, unknown>): Promise<string[]> {
  const res = await fetch(`${h.url}/sandbox/_seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`seed refused: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { comment_ids: string[] }).comment_ids;
}

async function publishVideo(u: TestUser, title: string): Promise<string> {
  const video = await media(u, 'mp4');
  const res = await h.req({
    method: 'POST',
    url: '/unified/post/video',
    headers: asUser(u),
    payload: {
      platforms: ['youtube'],
      default_text: `About ${title}`,
      video_id: video,
      youtube: { youtube_title: title },
    },
  });
  expect(res.json().success, res.body).toBe(true);
  return res.json().post.post_id as string;
}

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

describe('get_queued_posts', () => {
  let u: TestUser;
  let scheduledId: string;
  let draftId: string;
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'linkedin');
    const s = await h.req({
      method: 'POST',
      url: '/unified/scheduled-posts',
      headers: asUser(u),
      payload: {
        post_type: 'text',
        platforms: ['linkedin'],
        default_text: 'Later on LinkedIn',
        scheduled_time: inAnHour(),
      },
    });
    expect(s.statusCode, s.body).toBe(200);
    scheduledId = s.json().scheduled[0].scheduled_post_id;
    const d = await h.req({
      method: 'POST',
      url: '/unified/drafts',
      headers: asUser(u),
      payload: { post_type: 'text', platforms: ['linkedin'], default_text: 'A draft for LinkedIn' },
    });
    expect(d.statusCode, d.body).toBe(200);
    draftId = d.json().drafts[0].draft_id;
  });

  it('lists scheduled entries and drafts as the REST lists do', async () => {
    const all = await call(u, 'get_queued_posts', {});
    expect(all.success).toBe(true);
    expect((all.scheduled_posts as { scheduled_post_id: string }[]).map((e) => e.scheduled_post_id)).toEqual([
      scheduledId,
    ]);
    expect((all.drafts as { id: string }[]).map((d) => d.id)).toEqual([draftId]);
    expect(all.message).toBe('Found 1 scheduled post and 1 draft.');
    const rest = (await h.req({ method: 'GET', url: '/unified/scheduled-posts', headers: asUser(u) })).json().data
      .scheduled_posts;
    expect(all.scheduled_posts).toEqual(rest);

    const scheduled = await call(u, 'get_queued_posts', { type: 'scheduled', status: 'scheduled' });
    expect(scheduled).not.toHaveProperty('drafts');
    expect(scheduled.scheduled_posts).toHaveLength(1);
    expect((await call(u, 'get_queued_posts', { type: 'scheduled', status: 'cancelled' })).scheduled_posts).toEqual([]);
    expect((await call(u, 'get_queued_posts', { type: 'draft', platform: 'instagram' })).drafts).toEqual([]);
  });

  it('a key scoped to instagram sees none of the LinkedIn queue and cannot ask for it', async () => {
    const key = await h.createKey(u, 'instagram');
    const all = await call({ key }, 'get_queued_posts', { type: 'all' });
    expect(all.scheduled_posts).toEqual([]);
    expect(all.drafts).toEqual([]);
    const err = await fails({ key }, 'get_queued_posts', { platform: 'linkedin' });
    expect(err.code).toBe('scope_denied');
    expect(detailText(err)).toContain("'linkedin'");
  });

  it("plan gates: a plan without scheduling cannot list scheduled posts; 'all' lists what the plan has", async () => {
    const other = await h.signup();
    await h.setPlan(other.workspaceId, 'free');
    const err = await fails(other, 'get_queued_posts', { type: 'scheduled' });
    expect(err.code).toBe('plan_required');
    expect(detailText(err)).toContain('scheduling_enabled');
    expect((await fails(other, 'get_queued_posts', { type: 'all' })).code).toBe('plan_required');
    await h.setPlan(other.workspaceId, 'starter');
    expect(await call(other, 'get_queued_posts', {})).toMatchObject({ success: true, scheduled_posts: [], drafts: [] });
  });
});

describe('comments, replies and analytics', () => {
  let u: TestUser;
  let videoId: string;
  let commentIds: string[];
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'youtube');
    videoId = await publishVideo(u, 'Tool video');
    commentIds = await seed({
      platform: 'youtube',
      post_id: videoId,
      comments: [{ text: 'Loved it', author_name: 'Ada Byron' }, { text: 'Part two?' }],
    });
  });

  it('get_comments lists the comments of recent posts, and of one post with post_id + platform', async () => {
    const res = await call(u, 'get_comments', { platforms: ['youtube'], comments_per_post: 10 });
    const post = (
      res.youtube as { posts: { post_id: string; comments: { id: string; text: string; author_name: string }[] }[] }
    ).posts.find((p) => p.post_id === videoId)!;
    expect(post.comments.map((c) => c.text)).toEqual(['Part two?', 'Loved it']);
    expect(post.comments[1]).toMatchObject({ id: commentIds[0], author_name: 'Ada Byron' });

    const one = await call(u, 'get_comments', { post_id: videoId, platform: 'youtube' });
    expect((one.youtube as { posts: { post_id: string; comments: unknown[] }[] }).posts[0]).toMatchObject({
      post_id: videoId,
      comments: expect.arrayContaining([expect.objectContaining({ id: commentIds[1] })]),
    });
    const lone = await fails(u, 'get_comments', { post_id: videoId });
    expect(lone.code).toBe('bad_request');
    expect(detailText(lone)).toContain('post_id and platform go together');
    expect((await fails(u, 'get_comments', { platforms: 'myspace' })).code).toBe('bad_request');
  });

  it('reply_to_comment posts the reply on the network, threaded under the comment', async () => {
    const res = await call(u, 'reply_to_comment', {
      platform: 'youtube',
      comment_id: commentIds[0],
      text: 'Thanks, Ada!',
    });
    expect(res).toMatchObject({
      success: true,
      message: 'Reply posted',
      platform: 'youtube',
      reply_id: expect.any(String),
    });
    const stored = (
      (await state()) as unknown as Record<
        string,
        { comments: { id: string; parentId: string | null; text: string }[] }
      >
    ).youtube!.comments;
    expect(stored.find((c) => c.id === res.reply_id)).toMatchObject({ parentId: commentIds[0], text: 'Thanks, Ada!' });
    const unknown = await fails(u, 'reply_to_comment', {
      platform: 'youtube',
      comment_id: 'Ugz-never-synced',
      text: 'Hi',
    });
    expect(unknown.code).toBe('not_found');
    expect(detailText(unknown)).toContain('COMMENT_NOT_FOUND');
    expect(
      detailText(await fails(u, 'reply_to_comment', { platform: 'pinterest', comment_id: 'x', text: 'Hi' })),
    ).toContain('PLATFORM_NOT_SUPPORTED');
    expect(
      detailText(await fails(u, 'reply_to_comment', { platform: 'youtube', comment_id: commentIds[0], text: '   ' })),
    ).toContain('VALIDATION_ERROR');
  });

  it('a key scoped to linkedin can neither read nor answer YouTube comments', async () => {
    const key = await h.createKey(u, 'linkedin');
    const before = ((await state()) as unknown as Record<string, { comments: unknown[] }>).youtube!.comments.length;
    for (const [name, args] of [
      ['reply_to_comment', { platform: 'youtube', comment_id: commentIds[1], text: 'Not allowed' }],
      ['get_comments', { platforms: ['youtube'] }],
      ['get_comments', { post_id: videoId, platform: 'youtube' }],
      ['get_unified_analytics', { platforms: 'youtube' }],
    ] as const) {
      const err = await fails({ key }, name, args);
      expect(err.code, name).toBe('scope_denied');
      expect(detailText(err)).toContain('Key scope: linkedin');
    }
    expect(((await state()) as unknown as Record<string, { comments: unknown[] }>).youtube!.comments.length).toBe(
      before,
    );
    // Without platforms, the key's own networks only.
    expect(Object.keys(await call({ key }, 'get_comments', {}))).toEqual(['success', 'linkedin']);
  });

  it('get_unified_analytics answers what GET /unified/analytics answers', async () => {
    await seed({ platform: 'youtube', post_id: videoId, metrics: { likes: 7, impressions: 70 } });
    await call(u, 'get_user_posts', { platforms: 'youtube', refresh_stats: true });
    const res = await call(u, 'get_unified_analytics', { platforms: ['youtube', 'threads'] });
    const rest = (
      await h.req({ method: 'GET', url: '/unified/analytics?platforms=youtube,threads', headers: asUser(u) })
    ).json();
    expect(res).toEqual(rest);
    expect(res.platforms).toMatchObject({ youtube: { total_likes: 7 }, threads: { error: 'NOT_CONNECTED' } });
  });

  it('plan gates: inbox and analytics tools need their features', async () => {
    const other = await h.signup();
    await h.setPlan(other.workspaceId, 'free');
    for (const [name, feature, args] of [
      ['get_comments', 'inbox_enabled', {}],
      ['reply_to_comment', 'inbox_enabled', { platform: 'youtube', comment_id: 'c', text: 'Hi' }],
      ['get_unified_analytics', 'analytics_enabled', {}],
    ] as const) {
      const err = await fails(other, name, args);
      expect(err.code, name).toBe('plan_required');
      expect(detailText(err)).toContain(feature);
    }
  });

  it('a read-only linkedin_posts key may call get_user_posts and no other tool', async () => {
    const key = await h.createKey(u, 'linkedin_posts');
    expect((await call({ key }, 'get_user_posts', { platforms: 'linkedin' })).success).toBe(true);
    for (const name of ['get_accounts', 'get_comments', 'get_queued_posts', 'get_unified_analytics']) {
      const err = await fails({ key }, name, {});
      expect(err.code, name).toBe('scope_denied');
      expect(detailText(err)).toContain('read-only');
    }
  });
});

describe('manage_platform_connection', () => {
  it('connect answers a sign-in link that connects the network; disconnect removes it', async () => {
    const u = await h.signup();
    const res = await call(u, 'manage_platform_connection', { action: 'connect', platform: 'linkedin' });
    expect(res).toMatchObject({
      success: true,
      platform: 'linkedin',
      action: 'connect',
      auth_url: expect.stringMatching(/^http/),
    });
    const done = await approve(res.auth_url as string);
    expect(done.ok, done.html).toBe(true);
    expect((await call(u, 'get_accounts', {})).platforms).toEqual(['linkedin']);

    const off = await call(u, 'manage_platform_connection', { action: 'disconnect', platform: 'linkedin' });
    expect(off).toMatchObject({ success: true, platform: 'linkedin', action: 'disconnect' });
    expect((await call(u, 'get_accounts', {})).platforms).toEqual([]);
  });

  it('Bluesky connects at once with handle and app password, and needs both', async () => {
    const u = await h.signup();
    const err = await fails(u, 'manage_platform_connection', { action: 'connect', platform: 'bluesky' });
    expect(err.code).toBe('bad_request');
    expect(detailText(err)).toContain('handle and app_password are required');
    const res = await call(u, 'manage_platform_connection', {
      action: 'connect',
      platform: 'bluesky',
      handle: `t${u.userId.slice(0, 6)}.sandbox`,
      app_password: 'abcd-efgh-ijkl-mnop',
    });
    expect(res).toMatchObject({ success: true, auth_url: null });
    expect((await call(u, 'get_accounts', { platform: 'bluesky' })).platforms).toEqual(['bluesky']);
  });

  it('a key scoped to linkedin cannot connect or disconnect instagram; an unknown network is refused', async () => {
    const u = await h.signup();
    await connect(h, u, 'instagram');
    const key = await h.createKey(u, 'linkedin');
    for (const action of ['connect', 'disconnect']) {
      const err = await fails({ key }, 'manage_platform_connection', { action, platform: 'instagram' });
      expect(err.code).toBe('scope_denied');
    }
    expect((await sandboxState(h)).instagram).toBeDefined();
    expect((await call(u, 'get_accounts', {})).platforms).toEqual(['instagram']);
    expect((await fails(u, 'manage_platform_connection', { action: 'connect', platform: 'myspace' })).code).toBe(
      'bad_request',
    );
  });
});
