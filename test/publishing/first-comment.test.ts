// A post's first comment end to end: Herald's routes → real adapters → the simulators over HTTP. The comment must
// arrive under the post on each network that takes one (a reply in the thread on Threads and Bluesky), be refused for
// networks that take none, fit each network's comment limit, and fail alone without failing the post.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect, fault } from '../connections/helpers.ts';
import { endToEnd } from './end-to-end.ts';

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

const { media } = endToEnd(() => h);

type Slice = {
  posts: { id: string; text?: string; reply_to_id?: string | null }[];
  comments: { id: string; postId: string; text: string; parentId: string | null }[];
  requests: { method: string; path: string; body: unknown }[];
};
async function slice(platform: string): Promise<Slice> {
  const all = (await (await fetch(`${h.url}/sandbox/_state`)).json()) as Record<string, Slice>;
  return all[platform]!;
}

type FirstComment = { status: string; id?: string; error?: string };

/** Herald's id of the post just made (the timeline's). */
async function lastPostId(): Promise<string> {
  const rows = await h.ctx.database.db.query.posts.findMany({
    orderBy: (p, { desc }) => [desc(p.createdAt)],
    limit: 1,
  });
  return rows[0]!.id;
}
type Result = {
  platform: string;
  success: boolean;
  message: string;
  post?: { post_id: string; first_comment?: FirstComment };
};

async function facebookPage(u: TestUser): Promise<string> {
  const res = await h.req({ method: 'GET', url: '/unified/user-profiles/?platforms=facebook', headers: asUser(u) });
  return (res.json().facebook.pages as { page_id: string }[])[0]!.page_id;
}

/** The comments a simulator holds under `postId` with this text (Threads keeps a reply as a post replying to it). */
async function commentsUnder(platform: string, postId: string, text: string) {
  const s = await slice(platform);
  if (platform === 'threads')
    return s.posts
      .filter((p) => p.reply_to_id === postId && p.text === text)
      .map((p) => ({ id: p.id, parentId: null }));
  return (s.comments ?? []).filter((c) => c.postId === postId && c.text === text);
}

describe('first_comment', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    for (const p of ['linkedin', 'facebook', 'instagram', 'threads', 'tiktok', 'youtube', 'pinterest', 'bluesky'])
      await connect(h, u, p);
  });

  it('posts the first comment under a text post on LinkedIn, Facebook, Threads and Bluesky', async () => {
    const page = await facebookPage(u);
    const comment = `First comment ${randomUUID().slice(0, 8)}`;
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: {
        platforms: ['linkedin', 'facebook', 'threads', 'bluesky'],
        default_text: `A post ${randomUUID().slice(0, 8)}`,
        first_comment: comment,
        facebook: { facebook_page_ids: [page] },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().results as Result[];
    for (const r of results) {
      expect(r.success, `${r.platform}: ${r.message}`).toBe(true);
      expect(r.post!.first_comment, r.platform).toMatchObject({ status: 'posted' });
      expect(r.post!.first_comment!.id, r.platform).toBeTruthy();
    }
    const by = (p: string) => results.find((r) => r.platform === p)!.post!;
    for (const p of ['linkedin', 'facebook', 'threads', 'bluesky']) {
      const found = await commentsUnder(p, by(p).post_id, comment);
      expect(
        found.map((c) => c.id),
        p,
      ).toEqual([by(p).first_comment!.id]);
      expect(found[0]!.parentId, p).toBeNull();
    }
  });

  it('posts it under an Instagram image and a YouTube video, with a per-network override', async () => {
    const image = await media(u, 'jpeg');
    const comment = `Link in the first comment ${randomUUID().slice(0, 8)}`;
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/image',
      headers: asUser(u),
      payload: {
        platforms: ['instagram'],
        default_text: 'An image',
        default_image_id: image,
        first_comment: 'not this one',
        instagram: { first_comment: comment },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ig = res.json() as Result & { post: { post_id: string; first_comment: FirstComment } };
    expect(ig.success, ig.message).toBe(true);
    expect(ig.post.first_comment.status).toBe('posted');
    expect((await commentsUnder('instagram', ig.post.post_id, comment)).map((c) => c.id)).toEqual([
      ig.post.first_comment.id,
    ]);

    const video = await media(u, 'mp4');
    const vres = await h.req({
      method: 'POST',
      url: '/unified/post/video',
      headers: asUser(u),
      payload: {
        platforms: ['youtube'],
        default_text: 'A video',
        video_id: video,
        first_comment: comment,
        youtube: { youtube_title: 'Herald video' },
      },
    });
    const yt = vres.json() as Result & { post: { post_id: string; first_comment: FirstComment } };
    expect(yt.success, yt.message).toBe(true);
    expect(yt.post.first_comment.status).toBe('posted');
    expect((await commentsUnder('youtube', yt.post.post_id, comment)).map((c) => c.id)).toEqual([
      yt.post.first_comment.id,
    ]);
  });

  it('a comment the network refuses is reported on the target; the post stays published', async () => {
    await fault(h, { platform: 'linkedin', operation: 'reply', fault: 'server_error', times: 1 });
    const comment = `Refused ${randomUUID().slice(0, 8)}`;
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['linkedin', 'bluesky'], default_text: 'Still published', first_comment: comment },
    });
    const results = res.json().results as Result[];
    const li = results.find((r) => r.platform === 'linkedin')!;
    const by = (p: string) => results.find((r) => r.platform === p)!.post!;
    expect(li.success, li.message).toBe(true);
    expect(li.post!.post_id).toBeTruthy();
    expect(li.post!.first_comment).toMatchObject({ status: 'failed' });
    expect(li.post!.first_comment!.error).toMatch(/^LinkedIn: /);
    expect(await commentsUnder('linkedin', li.post!.post_id, comment)).toEqual([]);
    expect(results.find((r) => r.platform === 'bluesky')!.post!.first_comment!.status).toBe('posted');

    // The post's timeline shows each network's first comment: posted with its id (and Bluesky's permalink, its reply
    // in the thread), failed with the network's reason; the post itself published on both.
    const story = await h.req({
      method: 'GET',
      url: `/unified/posts/${await lastPostId()}/timeline`,
      headers: asUser(u),
    });
    expect(story.statusCode, story.body).toBe(200);
    type Target = { platform: string; state: string; first_comment: (FirstComment & { permalink?: string }) | null };
    const targets = story.json().targets as Target[];
    const bsky = targets.find((t) => t.platform === 'bluesky')!;
    const liTarget = targets.find((t) => t.platform === 'linkedin')!;
    expect(bsky.state).toBe('published');
    expect(bsky.first_comment).toEqual({
      status: 'posted',
      id: results.find((r) => r.platform === 'bluesky')!.post!.first_comment!.id,
      permalink: expect.stringMatching(/\/profile\/[^/]+\/post\/[^/]+$/),
    });
    expect((await commentsUnder('bluesky', by('bluesky').post_id, comment)).map((c) => c.id)).toEqual([
      bsky.first_comment!.id,
    ]);
    expect(bsky.first_comment!.permalink!.endsWith(bsky.first_comment!.id!.split('/').pop()!)).toBe(true);
    expect(liTarget.state).toBe('published');
    expect(liTarget.first_comment).toEqual({ status: 'failed', error: li.post!.first_comment!.error });
  });

  it('a post without a first comment has none in its timeline', async () => {
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['bluesky'], default_text: `No comment ${randomUUID().slice(0, 8)}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const story = await h.req({
      method: 'GET',
      url: `/unified/posts/${await lastPostId()}/timeline`,
      headers: asUser(u),
    });
    expect(story.json().targets).toMatchObject([{ platform: 'bluesky', state: 'published', first_comment: null }]);
  });

  it('is refused for a network that takes none, naming it, unless its override leaves it out', async () => {
    const board = (
      await h.req({ method: 'GET', url: '/unified/user-profiles/?platforms=pinterest', headers: asUser(u) })
    ).json().pinterest.boards[0].board_id as string;
    const image = await media(u, 'jpeg');
    const body = {
      platforms: ['linkedin', 'pinterest'],
      default_text: 'Two networks',
      default_image_id: image,
      first_comment: 'Hello',
      pinterest: { board_id: board, pinterest_text: 'Pin' },
    };
    const before = (await slice('linkedin')).posts.length;
    const res = await h.req({ method: 'POST', url: '/unified/post/image', headers: asUser(u), payload: body });
    expect(res.statusCode).toBe(422);
    const [err] = res.json().detail as { loc: string[]; msg: string; type: string }[];
    expect(err!.loc).toEqual(['body', 'first_comment']);
    expect(err!.type).toBe('first_comment_unsupported');
    expect(err!.msg).toContain('Pinterest does not take a first comment');
    expect((await slice('linkedin')).posts.length).toBe(before);

    const own = await h.req({
      method: 'POST',
      url: '/unified/post/image',
      headers: asUser(u),
      payload: { ...body, first_comment: undefined, pinterest: { ...body.pinterest, first_comment: 'Hi' } },
    });
    expect(own.statusCode).toBe(422);
    expect(own.json().detail[0].loc).toEqual(['body', 'pinterest', 'first_comment']);

    const left = await h.req({
      method: 'POST',
      url: '/unified/post/image',
      headers: asUser(u),
      payload: { ...body, pinterest: { ...body.pinterest, first_comment: '' } },
    });
    const results = left.json().results as Result[];
    expect(results.map((r) => [r.platform, r.success, r.post?.first_comment?.status ?? null])).toEqual([
      ['linkedin', true, 'posted'],
      ['pinterest', true, null],
    ]);
  });

  it("is refused when longer than the network's comment limit", async () => {
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['linkedin', 'threads'], default_text: 'x', first_comment: 'é'.repeat(501) },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({
      loc: ['body', 'first_comment'],
      type: 'string_too_long',
      msg: 'The first comment on Threads may have at most 500 characters. Received 501.',
    });
    const li = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['linkedin'], default_text: 'x', linkedin: { first_comment: 'a'.repeat(1251) } },
    });
    expect(li.json().detail[0]).toMatchObject({
      loc: ['body', 'linkedin', 'first_comment'],
      msg: 'The first comment on LinkedIn may have at most 1250 characters. Received 1251.',
    });
  });
});
