// The read routes where a post lives on a destination or the grant limits reads: a LinkedIn member's own posts
// (listing needs r_member_social, which Herald does not hold) are the ones Herald published, with the numbers
// LinkedIn still gives; a Facebook Page's comments are answered as the Page, whose id the reply must name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { endToEnd } from '../publishing/end-to-end.ts';

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

const { media } = endToEnd(() => h);

async function seed(body: Record<string, unknown>): Promise<string[]> {
  const res = await fetch(`${h.url}/sandbox/_seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`seed refused: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { comment_ids: string[] }).comment_ids;
}
const get = (u: TestUser, url: string) => h.req({ method: 'GET', url, headers: asUser(u) });
async function publishText(u: TestUser, payload: Record<string, unknown>): Promise<string> {
  const res = await h.req({ method: 'POST', url: '/unified/post/text', headers: asUser(u), payload });
  expect(res.json().success, res.body).toBe(true);
  return res.json().post.post_id as string;
}

describe("a LinkedIn member's own posts", () => {
  it('lists the posts Herald published, with the numbers LinkedIn gives, and says why comments cannot be read', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    const id = await publishText(u, { platforms: ['linkedin'], default_text: 'A member post' });
    await seed({ platform: 'linkedin', post_id: id, metrics: { likes: 4, impressions: 90 } });
    const slice = (await get(u, '/unified/posts/?platforms=linkedin')).json().linkedin;
    const post = slice.posts.find((p: { post_id: string }) => p.post_id === id);
    expect(post, JSON.stringify(slice)).toMatchObject({
      commentary: 'A member post',
      like_count: 4,
      impression_count: 90,
      herald_post_id: expect.any(String),
    });
    const one = await get(u, `/unified/posts/${encodeURIComponent(id)}?platform=linkedin`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().post).toMatchObject({ post_id: id, like_count: 4 });
    const comments = (await get(u, '/unified/comments/?platforms=linkedin')).json().linkedin;
    expect(comments.message).toMatch(/r_member_social/);
  });

  it("reads a just-published post's numbers by the id the publish answer gave, in either form of the path", async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    const id = await publishText(u, { platforms: ['linkedin'], default_text: 'Fresh off the press' });
    expect(id).toMatch(/^urn:li:(share|ugcPost):\d+$/);
    for (const form of [encodeURIComponent(id), id]) {
      const res = await get(u, `/unified/posts/${form}/metrics?platform=linkedin`);
      expect(res.statusCode, `${form}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject({ success: true, platform: 'linkedin', post_id: id });
      expect(res.json().series.length).toBeGreaterThanOrEqual(1);
    }
    const one = await get(u, `/unified/posts/${encodeURIComponent(id)}?platform=linkedin`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().post).toMatchObject({
      post_id: id,
      commentary: 'Fresh off the press',
      herald_post_id: expect.any(String),
    });
    // Only this workspace's posts: a guessed id, or this one from another workspace, is not found.
    expect(
      (
        await get(
          u,
          `/unified/posts/${encodeURIComponent(id.replace(/\d$/, (d) => String((Number(d) + 1) % 10)))}/metrics?platform=linkedin`,
        )
      ).statusCode,
    ).toBe(404);
    const stranger = await h.signup();
    await connect(h, stranger, 'linkedin');
    expect((await get(stranger, `/unified/posts/${encodeURIComponent(id)}/metrics?platform=linkedin`)).statusCode).toBe(
      404,
    );
  });

  it("answers one post's comments as the inbox does: a 200 whose status says why they cannot be read, the whole reason", async () => {
    const { MEMBER_READ_REFUSAL } = await import('../../src/platforms/linkedin/engagement.ts');
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    const id = await publishText(u, { platforms: ['linkedin'], default_text: 'Comments, anyone?' });
    const res = await get(u, `/unified/comments/by-post?platform=linkedin&post_id=${encodeURIComponent(id)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      platform: 'linkedin',
      post_id: id,
      comment_status: 'error',
      comment_status_message: MEMBER_READ_REFUSAL,
      comments: [],
      error: 'PLATFORM_ERROR',
      message: MEMBER_READ_REFUSAL,
    });
    const inbox = (await get(u, '/unified/comments/?platforms=linkedin')).json().linkedin;
    expect(inbox.message).toBe(`LinkedIn: ${MEMBER_READ_REFUSAL}`);
    expect(inbox.posts.find((p: { post_id: string }) => p.post_id === id)).toMatchObject({
      comment_status: 'error',
      comment_status_message: MEMBER_READ_REFUSAL,
    });
  });
});

describe("a LinkedIn member's image posts", () => {
  it('list the images Herald published, with their size, not an empty list', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    const image = await media(u, 'jpeg', { width: 1200, height: 800 });
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/image',
      headers: asUser(u),
      payload: { platforms: ['linkedin'], default_text: 'A member image post', default_image_id: image },
    });
    expect(res.json().success, res.body).toBe(true);
    const id = res.json().post.post_id as string;
    const slice = (await get(u, '/unified/posts/?platforms=linkedin')).json().linkedin;
    const post = slice.posts.find((p: { post_id: string }) => p.post_id === id);
    expect(post, JSON.stringify(slice)).toMatchObject({
      type: 'image',
      images: [{ url: expect.stringMatching(/^http/), width: 1200, height: 800 }],
    });
    const library = (await get(u, `/media/${image}`)).json();
    expect(post.images[0].url).toBe(library.public_url);
  });
});

describe("a Facebook Page's comments", () => {
  let u: TestUser;
  let page: string;
  let postId: string;
  let commentId: string;
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'facebook');
    page = (await get(u, '/unified/user-profiles/?platforms=facebook')).json().facebook.pages[0].page_id;
    postId = await publishText(u, {
      platforms: ['facebook'],
      default_text: 'A Page post',
      facebook: { facebook_page_ids: [page] },
    });
    commentId = (
      await seed({ platform: 'facebook', post_id: postId, comments: [{ text: 'Do you ship abroad?' }] })
    )[0]!;
  });

  it('lists them under the Page, and answers as the Page only when the reply names it', async () => {
    const slice = (await get(u, `/unified/comments/?platforms=facebook&facebook_page_ids=${page}`)).json().facebook;
    const entry = slice.posts.find((p: { post_id: string }) => p.post_id === postId);
    expect(entry, JSON.stringify(slice)).toMatchObject({
      page_id: page,
      facebook_page_id: page,
      comments: [{ id: commentId, text: 'Do you ship abroad?' }],
    });
    const url = `/unified/comments/reply?platform=facebook&comment_id=${encodeURIComponent(commentId!)}`;
    const without = await h.req({ method: 'POST', url, headers: asUser(u), payload: { text: 'Yes!' } });
    expect(without.statusCode).toBe(400);
    expect(without.json().detail).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: expect.stringContaining('facebook_page_id'),
    });
    const wrong = await h.req({
      method: 'POST',
      url: `${url}&facebook_page_id=999`,
      headers: asUser(u),
      payload: { text: 'Yes!' },
    });
    expect(wrong.statusCode).toBe(404);
    const ok = await h.req({
      method: 'POST',
      url: `${url}&facebook_page_id=${page}`,
      headers: asUser(u),
      payload: { text: 'Yes!' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const stored = (
      (await (await fetch(`${h.url}/sandbox/_state?platform=facebook`)).json()) as {
        facebook: { comments: { id: string; parentId: string | null; authorId: string }[] };
      }
    ).facebook.comments;
    expect(stored.find((c) => c.id === ok.json().reply_id)).toMatchObject({ parentId: commentId });
  });

  it("answers 502 for one post's comments when the network fails and nothing was read before", async () => {
    const fresh = await publishText(u, {
      platforms: ['facebook'],
      default_text: 'Another Page post',
      facebook: { facebook_page_ids: [page] },
    });
    const fault = await fetch(`${h.url}/sandbox/_faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'facebook', operation: 'comments', fault: 'server_error', times: 5 }),
    });
    expect(fault.ok).toBe(true);
    try {
      const res = await get(
        u,
        `/unified/comments/by-post?platform=facebook&post_id=${encodeURIComponent(fresh)}&facebook_page_ids=${page}`,
      );
      expect(res.statusCode, res.body).toBe(502);
      expect(res.json().detail).toMatchObject({ error: 'PLATFORM_ERROR' });
    } finally {
      await fetch(`${h.url}/sandbox/_faults`, { method: 'DELETE' });
    }
  });

  it('deletes the Page post on Facebook, and the read model forgets it', async () => {
    const res = await h.req({
      method: 'DELETE',
      url: `/unified/posts/${encodeURIComponent(postId)}?platform=facebook&page_id=${page}`,
      headers: asUser(u),
    });
    expect(res.statusCode, res.body).toBe(200);
    const posts = (await get(u, '/unified/posts/?platforms=facebook')).json().facebook.posts as { post_id: string }[];
    expect(posts.map((p) => p.post_id)).not.toContain(postId);
  });
});

describe('a network that cannot delete', () => {
  it('answers 409 with the reason (Instagram)', async () => {
    const u = await h.signup();
    await connect(h, u, 'instagram');
    // A post it knows: listed once from the network.
    const { media } = await import('../publishing/end-to-end.ts').then((m) => m.endToEnd(() => h));
    const image = await media(u, 'jpeg');
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/image',
      headers: asUser(u),
      payload: { platforms: ['instagram'], default_text: 'Gram', default_image_id: image },
    });
    const id = res.json().post.post_id as string;
    const del = await h.req({
      method: 'DELETE',
      url: `/unified/posts/${encodeURIComponent(id)}?platform=instagram`,
      headers: asUser(u),
    });
    expect(del.statusCode).toBe(409);
    expect(del.json().detail).toMatchObject({ error: 'DELETE_NOT_SUPPORTED', message: expect.stringMatching(/\S/) });
  });
});
