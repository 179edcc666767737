// The engagement routes end to end: Herald's routes → the real adapters → the simulators over HTTP. The posts read
// model (freshness, refresh, metric snapshots, the link to the ledger, deletion), the comments inbox and replies
// (errors, limits checked before any call), analytics, and workspace isolation with guessed ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { endToEnd } from '../publishing/end-to-end.ts';

let h: Harness;
beforeAll(async () => {
  // A freshness window the test controls: reads within an hour are served from the database.
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

async function seed(body: Record<string, unknown>): Promise<string[]> {
  const res = await fetch(`${h.url}/sandbox/_seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`seed refused: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { comment_ids: string[] }).comment_ids;
}

/** Publishes a YouTube video through Herald; the network's post id. */
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
  const body = res.json() as { success: boolean; message: string; post?: { post_id: string } };
  expect(body.success, res.body).toBe(true);
  return body.post!.post_id;
}

const get = (u: TestUser, url: string) => h.req({ method: 'GET', url, headers: asUser(u) });
const youtubeRequests = async () =>
  ((await state()) as unknown as Record<string, { requests: { path: string; method: string }[] }>).youtube!.requests;

describe('posts read model', () => {
  let u: TestUser;
  let videoId: string;
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'youtube');
    videoId = await publishVideo(u, 'Read model video');
  });

  it('a network that is not connected answers an empty NOT_CONNECTED slice; an unknown network is 400', async () => {
    const res = await get(u, '/unified/posts/?platforms=threads');
    expect(res.statusCode).toBe(200);
    expect(res.json().threads).toEqual({
      posts: [],
      source: null,
      last_updated: null,
      message: 'Threads not connected for this workspace.',
      error: 'NOT_CONNECTED',
    });
    expect((await get(u, '/unified/posts?platforms=myspace')).statusCode).toBe(400);
  });

  it('the first read asks the network and links the post Herald published to its ledger entry; the next is served from the database', async () => {
    const other = await h.signup();
    await connect(h, other, 'youtube');
    const first = await get(other, '/unified/posts?platforms=youtube&limit=5');
    expect(first.json().youtube.source).toBe('api');
    // The same channel, connected in another workspace: its posts are listed, but not as that workspace's publications.
    expect(first.json().youtube.posts.find((p: { post_id: string }) => p.post_id === videoId)).toMatchObject({
      herald_post_id: null,
    });

    const mine = await get(u, '/unified/posts/?platforms=youtube');
    const slice = mine.json().youtube;
    expect(slice.source).toBe('api');
    const post = slice.posts.find((p: { post_id: string }) => p.post_id === videoId);
    expect(post).toMatchObject({
      type: 'video',
      herald_post_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      permalink: expect.stringContaining(videoId),
      like_count: 0,
    });
    const calls = (await youtubeRequests()).length;
    const again = await get(u, '/unified/posts/?platforms=youtube');
    expect(again.json().youtube.source).toBe('database');
    expect((await youtubeRequests()).length).toBe(calls);
  });

  it('refresh_stats reads the new numbers; every refresh adds a point to the metrics series', async () => {
    await seed({ platform: 'youtube', post_id: videoId, metrics: { likes: 12, impressions: 400 } });
    const res = await get(u, '/unified/posts/?platforms=youtube&refresh_stats=true');
    expect(res.json().youtube.posts.find((p: { post_id: string }) => p.post_id === videoId)).toMatchObject({
      like_count: 12,
      impression_count: 400,
    });
    const one = await get(u, `/unified/posts/${encodeURIComponent(videoId)}?platform=youtube`);
    expect(one.json()).toMatchObject({
      success: true,
      platform: 'youtube',
      source: 'api',
      post: { post_id: videoId, like_count: 12 },
    });
    const series = (await get(u, `/unified/posts/${encodeURIComponent(videoId)}/metrics?platform=youtube`)).json()
      .series as { like_count: number }[];
    expect(series.length).toBeGreaterThanOrEqual(3);
    expect(series.at(0)!.like_count).toBe(0);
    expect(series.at(-1)!.like_count).toBe(12);
  });

  it('bad query values are 422 naming the field', async () => {
    for (const [url, field] of [
      ['/unified/posts/?limit=0', 'limit'],
      ['/unified/comments/?comments_per_post=101', 'comments_per_post'],
      ['/unified/posts/?refresh_posts=maybe', 'refresh_posts'],
    ] as const) {
      const res = await get(u, url);
      expect(res.statusCode, url).toBe(422);
      expect(
        (res.json().detail as { loc: string[] }[]).map((d) => d.loc.at(-1)),
        url,
      ).toContain(field);
    }
  });

  it('stats=false leaves the numbers out', async () => {
    const post = (await get(u, '/unified/posts/?platforms=youtube&stats=false')).json().youtube.posts[0];
    expect(post).not.toHaveProperty('like_count');
    expect(post).toHaveProperty('post_id');
  });

  it("another workspace cannot read, chart or delete this workspace's post by its id", async () => {
    const stranger = await h.signup();
    await connect(h, stranger, 'youtube');
    const id = encodeURIComponent(videoId);
    for (const [method, url] of [
      ['GET', `/unified/posts/${id}?platform=youtube`],
      ['GET', `/unified/posts/${id}/metrics?platform=youtube`],
      ['DELETE', `/unified/posts/${id}?platform=youtube`],
    ] as const) {
      const res = await h.req({ method, url, headers: asUser(stranger) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().detail.error).toBe('POST_NOT_FOUND');
    }
    expect((await state()).youtube!.posts.some((p) => p.id === videoId)).toBe(true);
  });

  it('analytics: figures and the engagement rate from the stored posts; a disconnected network has zeros and a message', async () => {
    const res = await get(u, '/unified/analytics/?platforms=youtube&platforms=threads');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, source: 'database', message: 'Unified analytics from database.' });
    const yt = body.platforms.youtube;
    expect(yt.post_count).toBeGreaterThanOrEqual(1);
    expect(yt.total_likes).toBe(12);
    expect(yt.average_engagement_rate).toBeCloseTo(
      Math.min(1, (yt.total_likes + yt.total_comments) / yt.total_reach),
      10,
    );
    expect(body.platforms.threads).toMatchObject({
      post_count: 0,
      error: 'NOT_CONNECTED',
      message: 'Threads not connected for this workspace.',
    });
    expect(body.totals).toMatchObject({ post_count: yt.post_count, total_likes: 12, total_reach: yt.total_reach });
  });
});

describe('analytics right after publishing', () => {
  it('reads a network whose posts were never listed, or were listed before the last publication, so a post just published counts at once', async () => {
    // Bluesky: an account of its own for this workspace (the handle is the user's), so the figures are this post's.
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['bluesky'], default_text: 'Counted at once' },
    });
    expect(res.json().success, res.body).toBe(true);
    await seed({ platform: 'bluesky', post_id: res.json().post.post_id, metrics: { likes: 7, impressions: 90 } });
    const body = (await get(u, '/unified/analytics?platforms=bluesky')).json();
    expect(body.platforms.bluesky).toMatchObject({ post_count: 1, total_likes: 7, error: null });
    expect(body.last_updated).not.toBeNull();
    // Within the freshness window the next read is served from the database alone.
    const requests = async () =>
      ((await state()) as unknown as Record<string, { requests: unknown[] }>).bluesky!.requests.length;
    const calls = await requests();
    expect((await get(u, '/unified/analytics?platforms=bluesky')).json().platforms.bluesky.total_likes).toBe(7);
    expect(await requests()).toBe(calls);
    // A post published after that read is read at once, still within the window.
    const second = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['bluesky'], default_text: 'Counted too' },
    });
    expect(second.json().success, second.body).toBe(true);
    expect((await get(u, '/unified/analytics?platforms=bluesky')).json().platforms.bluesky).toMatchObject({
      post_count: 2,
      total_likes: 7,
    });
  });
});

describe("the account's own comments in the inbox", () => {
  it('marks its first comment and the replies sent from Herald own (never unread), and others not', async () => {
    const u = await h.signup();
    for (const platform of ['threads', 'bluesky'] as const) {
      await connect(h, u, platform);
      const res = await h.req({
        method: 'POST',
        url: '/unified/post/text',
        headers: asUser(u),
        payload: { platforms: [platform], default_text: `Own comments ${platform}`, first_comment: 'Read more below' },
      });
      const body = res.json() as { success: boolean; post: { post_id: string; first_comment: { id: string } } };
      expect(body.success, res.body).toBe(true);
      const postId = body.post.post_id;
      const first = body.post.first_comment.id;
      const [theirs] = await seed({ platform, post_id: postId, comments: [{ text: 'Nice!', author_name: 'Zed' }] });
      type Listed = { id: string; text: string; own: boolean; replies: Listed[] };
      const list = async () => {
        const got = await get(u, `/unified/comments?platforms=${platform}&force_refresh=true`);
        expect(got.statusCode, got.body).toBe(200);
        const posts = got.json()[platform].posts as { post_id: string; comments: Listed[] }[];
        const flat: Listed[] = [];
        const walk = (l: Listed[]) => {
          for (const c of l) {
            flat.push(c);
            walk(c.replies);
          }
        };
        walk(posts.find((x) => x.post_id === postId)!.comments);
        return Object.fromEntries(flat.map((c) => [c.id, c.own]));
      };
      // Bluesky lists the first comment among the post's replies; Threads' list of replies leaves the account's out.
      const mine = platform === 'bluesky' ? { [first]: true } : {};
      expect(await list(), platform).toEqual({ ...mine, [theirs!]: false });
      // A reply sent from Herald is the account's too, also once the network's copy is read again.
      const reply = await h.req({
        method: 'POST',
        url: `/unified/comments/reply?platform=${platform}&comment_id=${encodeURIComponent(theirs!)}`,
        headers: asUser(u),
        payload: { text: 'Thanks!' },
      });
      expect(reply.statusCode, reply.body).toBe(200);
      expect(await list(), platform).toEqual({ ...mine, [theirs!]: false, [reply.json().reply_id]: true });
      // Only the other person's comment is news: the account's own raise no comment.received.
      const events = await get(u, `/events?type=comment.received&platform=${platform}&limit=100`);
      expect(events.statusCode, events.body).toBe(200);
      const ids = (events.json().events as { data: { comment_id: string } }[]).map((e) => e.data.comment_id);
      expect(ids, platform).toContain(theirs);
      expect(ids, platform).not.toContain(first);
      expect(ids, platform).not.toContain(reply.json().reply_id);
      if (platform === 'bluesky') {
        // Without an author id (Threads names repliers by username only) the first comment is still known as the
        // account's: the ledger's journal holds its id.
        await h.ctx.database.db.execute(
          `update network_comments set author_id = null where platform_comment_id = '${first}'` as never,
        );
        expect((await list())[first]).toBe(true);
      }
    }
  });
});

describe('comments inbox and replies', () => {
  let u: TestUser;
  let videoId: string;
  let commentIds: string[];
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'youtube');
    videoId = await publishVideo(u, 'Comment video');
    commentIds = await seed({
      platform: 'youtube',
      post_id: videoId,
      comments: [{ text: 'Great video', author_name: 'Zed Quinn' }, { text: 'When is part two?' }],
    });
  });

  it('lists the comments of recent posts, newest first, with flat author fields', async () => {
    const res = await get(u, '/unified/comments/?platforms=youtube&comments_per_post=10');
    expect(res.statusCode).toBe(200);
    const post = (
      res.json().youtube.posts as {
        post_id: string;
        comments: { id: string; text: string; author_name: string; type: string }[];
      }[]
    ).find((p) => p.post_id === videoId)!;
    expect(post.comments.map((c) => c.text)).toEqual(['When is part two?', 'Great video']);
    expect(post.comments[1]).toMatchObject({
      id: commentIds[0],
      type: 'comment',
      author_name: 'Zed Quinn',
      commentor_name: 'Zed Quinn',
      parent_id: null,
      replies: [],
    });
  });

  it('replies with ids in the query and the text in the body; the reply is threaded under its comment', async () => {
    const res = await h.req({
      method: 'POST',
      url: `/unified/comments/reply?platform=youtube&comment_id=${encodeURIComponent(commentIds[0]!)}`,
      headers: asUser(u),
      payload: { text: 'Thank you!' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
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
    expect(stored.find((c) => c.id === body.reply_id)).toMatchObject({ parentId: commentIds[0], text: 'Thank you!' });
    const replies = await get(
      u,
      `/unified/comments/replies?platform=youtube&comment_id=${encodeURIComponent(commentIds[0]!)}&force_refresh=true`,
    );
    expect(replies.json().replies.map((r: { id: string; type: string }) => [r.id, r.type])).toEqual([
      [body.reply_id, 'reply'],
    ]);
  });

  it('takes the ids from the body too (the other documented form)', async () => {
    const res = await h.req({
      method: 'POST',
      url: '/unified/comments/reply?platform=youtube',
      headers: asUser(u),
      payload: { text: 'Soon!', comment_id: commentIds[1], post_id: videoId },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses bad replies before calling the network: empty text, text over the limit, an unsupported network, an unknown comment', async () => {
    const before = (await youtubeRequests()).length;
    const reply = (query: string, payload: Record<string, unknown>) =>
      h.req({ method: 'POST', url: `/unified/comments/reply?${query}`, headers: asUser(u), payload });
    const cid = encodeURIComponent(commentIds[0]!);
    const cases: [string, Record<string, unknown>, number, string][] = [
      [`platform=youtube&comment_id=${cid}`, { text: '   ' }, 400, 'VALIDATION_ERROR'],
      [`platform=youtube&comment_id=${cid}`, { text: 'x'.repeat(10_001) }, 400, 'VALIDATION_ERROR'],
      [`platform=youtube`, { text: 'No id' }, 400, 'VALIDATION_ERROR'],
      [`platform=myspace&comment_id=1`, { text: 'Hi' }, 400, 'PLATFORM_NOT_SUPPORTED'],
      [`platform=youtube&comment_id=Ugz-never-synced`, { text: 'Hi' }, 404, 'COMMENT_NOT_FOUND'],
    ];
    for (const [query, payload, status, error] of cases) {
      const res = await reply(query, payload);
      expect(res.statusCode, `${query} ${res.body}`).toBe(status);
      expect(res.json().detail.error, query).toBe(error);
    }
    expect((await youtubeRequests()).length).toBe(before);
  });

  it("another workspace cannot reply to or read this workspace's comments by id", async () => {
    const stranger = await h.signup();
    await connect(h, stranger, 'youtube');
    const cid = encodeURIComponent(commentIds[0]!);
    const res = await h.req({
      method: 'POST',
      url: `/unified/comments/reply?platform=youtube&comment_id=${cid}`,
      headers: asUser(stranger),
      payload: { text: 'Not mine' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail.error).toBe('COMMENT_NOT_FOUND');
    expect((await get(stranger, `/unified/comments/replies?platform=youtube&comment_id=${cid}`)).statusCode).toBe(404);
  });

  it('a network failing on comment reads is reported in its slice, not as a failed request', async () => {
    await fetch(`${h.url}/sandbox/_faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'youtube', operation: 'comments', fault: 'server_error', times: 5 }),
    });
    const res = await get(u, '/unified/comments/?platforms=youtube&force_refresh=true');
    expect(res.statusCode).toBe(200);
    const slice = res.json().youtube;
    expect(slice.error).toBe('PLATFORM_ERROR');
    // What was synced before is still served.
    expect(slice.posts.find((p: { post_id: string }) => p.post_id === videoId).comments.length).toBeGreaterThanOrEqual(
      2,
    );
    await fetch(`${h.url}/sandbox/_faults`, { method: 'DELETE' });
  });
});

describe('key scopes and plan gates on engagement reads', () => {
  it('a linkedin_posts key may read posts and nothing else here', async () => {
    const u = await h.signup();
    const key = await h.createKey(u, 'linkedin_posts');
    const headers = { authorization: `Bearer ${key}` };
    const posts = await h.req({ method: 'GET', url: '/unified/posts/?platforms=linkedin', headers });
    expect(posts.statusCode).toBe(200);
    expect(posts.json().linkedin.error).toBe('NOT_CONNECTED');
    // Without `platforms`, only the networks in the key's scope are answered.
    expect(
      Object.keys((await h.req({ method: 'GET', url: '/unified/posts/', headers })).json()).filter(
        (k) => !['success', 'message', 'source', 'last_updated'].includes(k),
      ),
    ).toEqual(['linkedin']);
    for (const url of ['/unified/comments/?platforms=linkedin', '/unified/analytics/?platforms=linkedin']) {
      expect((await h.req({ method: 'GET', url, headers })).statusCode, url).toBe(403);
    }
  });

  it('a network-scoped key asking for another network by `platform` is refused as the comments route refuses it', async () => {
    const u = await h.signup();
    const headers = { authorization: `Bearer ${await h.createKey(u, 'linkedin')}` };
    const comments = await h.req({ method: 'GET', url: '/unified/comments/?platform=threads&post_id=1', headers });
    expect(comments.statusCode).toBe(403);
    for (const url of [
      '/unified/posts/?platform=threads',
      '/unified/posts?platform=threads&platforms=linkedin',
      '/unified/analytics/?platform=threads',
    ]) {
      const res = await h.req({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual(comments.json());
    }
    // In scope, `platform` is the filter it names.
    const own = (await h.req({ method: 'GET', url: '/unified/posts/?platform=linkedin', headers })).json();
    expect(own.linkedin.error).toBe('NOT_CONNECTED');
    const full = await h.req({ method: 'GET', url: '/unified/posts/?platform=threads', headers: asUser(u) });
    expect(
      Object.keys(full.json()).filter((k) => !['success', 'message', 'source', 'last_updated'].includes(k)),
    ).toEqual(['threads']);
    expect(
      (await h.req({ method: 'GET', url: '/unified/posts/?platform=myspace', headers: asUser(u) })).statusCode,
    ).toBe(400);
  });
});
