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
});
