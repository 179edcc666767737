// POST /sandbox/_seed: comments from simulated users and metrics on a post a simulator holds, refused clearly for an
// unknown post, a bad body, and comments on a network whose API has no comments.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { PROFILES } from '../platforms/contract/profiles.ts';
import { publishThrough, sampleRequest } from '../platforms/contract/sample-post.ts';
import { memoryJournal, publisherOf } from '../platforms/helpers/publish-fixtures.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: 0 });
});

async function publish(net: 'linkedin' | 'pinterest', postType: 'text' | 'image'): Promise<string> {
  const profile = PROFILES[net];
  const adapter = profile.adapter(sb);
  const tokens = await profile.connect(sb, adapter);
  const account = await adapter.fetchAccount(tokens);
  const out = await publishThrough(
    sb,
    publisherOf(adapter),
    () => tokens,
    await sampleRequest(sb, profile, account, postType),
    memoryJournal(),
  );
  if (out.state !== 'published') throw new Error('not published');
  return out.postId;
}

const seed = async (body: unknown) => {
  const res = await sb.control('POST', '_seed', body);
  return {
    status: res.status,
    body: (await res.json()) as { comment_ids?: string[]; error?: string; message?: string },
  };
};

describe('POST /sandbox/_seed', () => {
  it("adds comments from other users, oldest first in time, and the post's numbers", async () => {
    const id = await publish('linkedin', 'text');
    const res = await seed({
      platform: 'linkedin',
      post_id: id,
      comments: [{ text: 'One', author_name: 'Zed' }, { text: 'Two' }],
      metrics: { likes: 3, impressions: 40 },
    });
    expect(res.status).toBe(201);
    expect(res.body.comment_ids).toHaveLength(2);
    for (const cid of res.body.comment_ids!) expect(cid).toMatch(/^urn:li:comment:\(/);
    const state = await sb.state('linkedin');
    const [one, two] = res.body.comment_ids!.map((cid) => state.comments.find((c) => c.id === cid)!);
    expect(one).toMatchObject({ text: 'One', authorName: 'Zed', parentId: null, fromAccount: false });
    expect(Date.parse(String(one!.createdAt))).toBeLessThan(Date.parse(String(two!.createdAt)));
    expect(state.posts.find((p) => p.id === id)).toMatchObject({ metrics: { likes: 3, impressions: 40 } });
  });

  it('refuses an unknown post (404), a bad body (400) and comments where the network has none (400)', async () => {
    expect((await seed({ platform: 'linkedin', post_id: 'urn:li:share:0' })).status).toBe(404);
    expect((await seed({ platform: 'linkedin', post_id: 'x', comments: [{ text: '' }] })).status).toBe(400);
    expect((await seed({ platform: 'myspace', post_id: 'x' })).status).toBe(400);
    const pin = await publish('pinterest', 'image');
    const refused = await seed({ platform: 'pinterest', post_id: pin, comments: [{ text: 'Nice' }] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/no comment access/);
    expect((await seed({ platform: 'pinterest', post_id: pin, metrics: { likes: 1 } })).status).toBe(201);
  });
});
