// Bluesky's own rules on the read side, against its simulator: a comment id is the reply's at:// URI in its author's
// repo, a reply carries strong refs to the thread root and its parent (read from the author's repo when Herald has no
// refs), replies to replies keep the thread's root, the read model lists posts without the account's replies, a post
// of another account cannot be deleted, and reply text over 300 graphemes is refused.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { blueskyAdapter } from '../../../src/platforms/bluesky/index.ts';
import type { Comments, Engagement } from '../../../src/platforms/engagement.ts';
import { PlatformError } from '../../../src/platforms/types.ts';
import { sandboxBaseUrls } from '../../../src/sandbox/index.ts';
import { configuredHttp } from '../../helpers/platform-http.ts';
import type { AccountIdentity, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import { startSandbox } from '../../helpers/sandbox.ts';
import type { SandboxRecord, TestSandbox } from '../../helpers/sandbox.ts';
import { expectPlatformError } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { PROFILES } from '../contract/profiles.ts';
import { publishThrough, sampleRequest } from '../contract/sample-post.ts';

const profile = PROFILES.bluesky;
const AT_POST = /^at:\/\/did:plc:[a-z2-7]{24}\/app\.bsky\.feed\.post\/[234567a-z]{13}$/;

let sb: TestSandbox;
let adapter: PlatformAdapter;
let engagement: Engagement;
let comments: Comments;
let tokens: TokenSet;
let account: AccountIdentity;

async function publish(text: string, n = 1): Promise<string> {
  const req = await sampleRequest(sb, profile, account, 'text', text, `tgt_bsky_${n}`);
  const out = await publishThrough(sb, publisherOf(adapter), () => tokens, req, memoryJournal());
  if (out.state !== 'published') throw new Error('the sample post did not publish');
  return out.postId;
}

async function seed(postId: string, texts: string[]): Promise<string[]> {
  const res = await sb.control('POST', '_seed', {
    platform: 'bluesky',
    post_id: postId,
    comments: texts.map((text) => ({ text })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { comment_ids: string[] }).comment_ids;
}

const stored = async (
  id: string,
): Promise<
  SandboxRecord & {
    record: { reply: { root: { uri: string; cid: string }; parent: { uri: string; cid: string } } };
    cid: string;
  }
> => {
  const found = (await sb.state('bluesky')).comments.find((c) => c.id === id);
  if (!found) throw new Error(`no comment ${id}`);
  return found as never;
};

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: 0 });
  adapter = profile.adapter(sb);
  engagement = adapter.engagement!;
  comments = engagement.comments!;
  tokens = await profile.connect(sb, adapter);
  account = await adapter.fetchAccount(tokens);
});

describe('bluesky engagement: threads and strong refs', () => {
  it("a comment is its author's at:// URI; its CID and the thread root are kept in refs", async () => {
    const postId = await publish('Thread root');
    const [commentId] = await seed(postId, ['Nice post']);
    expect(commentId).toMatch(AT_POST);
    expect(commentId!.split('/')[2]).not.toBe(account.id);
    const [comment] = (await comments.list(tokens, { postId, limit: 10 })).comments;
    const post = (await sb.state('bluesky')).posts.find((p) => p.id === postId)!;
    expect(comment).toMatchObject({
      id: commentId,
      parentId: null,
      authorName: expect.stringMatching(/\S/),
      refs: { cid: (await stored(commentId!)).cid, rootUri: postId, rootCid: post.cid },
    });
  });

  it('replies with root = the post and parent = the comment, and a reply to a reply keeps the root', async () => {
    const postId = await publish('Root post');
    const post = (await sb.state('bluesky')).posts.find((p) => p.id === postId)!;
    const [commentId] = await seed(postId, ['Question?']);
    const [comment] = (await comments.list(tokens, { postId, limit: 10 })).comments;
    const { replyId } = await comments.reply(tokens, {
      postId,
      commentId: commentId!,
      refs: comment!.refs,
      text: 'Answer with a link https://example.com',
    });
    expect(replyId).toMatch(AT_POST);
    expect(replyId.split('/')[2]).toBe(account.id);
    const first = await stored(replyId);
    expect(first.record.reply).toEqual({
      root: { uri: postId, cid: post.cid },
      parent: { uri: commentId, cid: (await stored(commentId!)).cid },
    });
    expect((first.record as unknown as { facets: unknown[] }).facets).toHaveLength(1);

    // The thread as the AppView returns it: the reply is nested under the comment, with its own refs.
    const listed = (await comments.list(tokens, { postId, limit: 10 })).comments[0]!;
    expect(listed.replies?.map((r) => [r.id, r.parentId, r.refs?.rootUri])).toEqual([[replyId, commentId, postId]]);
    const nested = await comments.replies(tokens, { postId, commentId: replyId, limit: 10 });
    expect(nested).toEqual([]);

    // Replying under Herald's own reply: root stays the post, parent is the reply.
    const second = await comments.reply(tokens, {
      postId,
      commentId: replyId,
      refs: listed.replies![0]!.refs,
      text: 'And more.',
    });
    expect((await stored(second.replyId)).record.reply).toEqual({
      root: { uri: postId, cid: post.cid },
      parent: { uri: replyId, cid: first.cid },
    });
    expect((await comments.replies(tokens, { postId, commentId: replyId, limit: 10 })).map((r) => r.id)).toEqual([
      second.replyId,
    ]);
  });

  it("without refs, the comment's CID and root are read from its author's repo (found through the DID document)", async () => {
    const postId = await publish('Root');
    const [commentId] = await seed(postId, ['Hello']);
    const { replyId } = await comments.reply(tokens, { postId, commentId: commentId!, text: 'Hi!' });
    const post = (await sb.state('bluesky')).posts.find((p) => p.id === postId)!;
    expect((await stored(replyId)).record.reply).toEqual({
      root: { uri: postId, cid: post.cid },
      parent: { uri: commentId, cid: (await stored(commentId!)).cid },
    });
    const reads = (await sb.state('bluesky')).requests.filter(
      (r) => r.path.endsWith(`/plc/${commentId!.split('/')[2]}`) || r.path.endsWith('com.atproto.repo.getRecord'),
    );
    expect(reads.length).toBeGreaterThanOrEqual(2);
  });

  it('a reply whose answer was lost is found in the repo instead of being posted twice', async () => {
    const postId = await publish('Root');
    const [commentId] = await seed(postId, ['Hello']);
    const [comment] = (await comments.list(tokens, { postId, limit: 10 })).comments;
    // The PDS writes the reply, but its answer never arrives.
    const logger = pino({ level: 'silent' });
    const urls = sandboxBaseUrls(sb.publicUrl).bluesky;
    const lossy = configuredHttp(logger, urls);
    const send = lossy.request.bind(lossy);
    lossy.request = async (platform, req) => {
      const res = await send(platform, req);
      if (req.url.endsWith('com.atproto.repo.createRecord'))
        throw new PlatformError('bluesky', 'transient', 'connection reset');
      return res;
    };
    const flaky = blueskyAdapter({ http: lossy, config: { urls }, clock: sb.clock, logger }).engagement!.comments!;
    const { replyId } = await flaky.reply(tokens, {
      postId,
      commentId: commentId!,
      refs: comment!.refs,
      text: 'Only once',
    });
    const stored = (await sb.state('bluesky')).comments.filter((c) => c.fromAccount);
    expect(stored.map((c) => c.id)).toEqual([replyId]);
  });

  it('refs that do not match the thread are refused, and nothing is posted', async () => {
    const postId = await publish('Root');
    const [commentId] = await seed(postId, ['Hello']);
    const wrong = {
      cid: 'bafyreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      rootUri: postId,
      rootCid: 'bafyreibbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
    };
    await expectPlatformError(
      comments.reply(tokens, { postId, commentId: commentId!, refs: wrong, text: 'Lost' }),
      'invalid_content',
    );
    expect((await sb.state('bluesky')).comments).toHaveLength(1);
  });

  it('reply text over 300 graphemes is refused by the PDS; the limit counts graphemes and bytes', async () => {
    expect(comments.textLimit).toEqual({ max: 300, unit: 'graphemes', maxBytes: 3000 });
    const postId = await publish('Root');
    const [commentId] = await seed(postId, ['Hello']);
    const [comment] = (await comments.list(tokens, { postId, limit: 10 })).comments;
    await expectPlatformError(
      comments.reply(tokens, { postId, commentId: commentId!, refs: comment!.refs, text: 'x'.repeat(301) }),
      'invalid_content',
    );
    // 300 emoji are 300 graphemes.
    await comments.reply(tokens, { postId, commentId: commentId!, refs: comment!.refs, text: '👍'.repeat(300) });
  });

  it("the read model lists the account's posts, not its replies, with their numbers and bsky.app permalinks", async () => {
    const postId = await publish('Only post');
    const [commentId] = await seed(postId, ['Hi']);
    await comments.reply(tokens, { postId, commentId: commentId!, text: 'Thanks' });
    const listed = await engagement.listPosts(tokens, { limit: 10 });
    expect(listed.map((p) => p.postId)).toEqual([postId]);
    expect(listed[0]).toMatchObject({
      permalink: sb.url('bluesky', `/profile/${account.username}/post/${postId.split('/').pop()}`),
      metrics: { comments: 1, impressions: 0 },
    });
    const feed = (await sb.state('bluesky')).requests.find((r) => r.path.endsWith('app.bsky.feed.getAuthorFeed'));
    expect(feed?.query).toMatchObject({ actor: account.id, filter: 'posts_no_replies' });
  });

  it('comments turned off (a threadgate allowing nobody) read as disabled, and the author can still answer', async () => {
    const postId = await publish('Quiet post');
    const [commentId] = await seed(postId, ['Before the gate']);
    expect(
      (await sb.control('POST', '_seed', { platform: 'bluesky', post_id: postId, comments_disabled: true })).status,
    ).toBe(201);
    expect((await engagement.getPost(tokens, { postId }))?.commentsDisabled).toBe(true);
    const page = await comments.list(tokens, { postId, limit: 10 });
    expect(page).toMatchObject({ disabled: true, comments: [{ id: commentId }] });
    await comments.reply(tokens, { postId, commentId: commentId!, refs: page.comments[0]!.refs, text: 'Still here.' });
  });

  it("another account's post cannot be deleted; a post the AppView no longer has reads as null", async () => {
    const postId = await publish('Mine');
    const [commentId] = await seed(postId, ['Theirs']);
    await expectPlatformError(engagement.deletePost!(tokens, { postId: commentId! }), 'permission');
    await engagement.deletePost!(tokens, { postId });
    expect(await engagement.getPost(tokens, { postId })).toBeNull();
    await expectPlatformError(comments.list(tokens, { postId, limit: 10 }), 'not_found');
  });
});
