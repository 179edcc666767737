// YouTube's own rules on the read side, against its simulator: replies only under a top-level comment (the thread id
// Herald keeps), comments turned off, pages of at most 100 threads, replies beyond the few a thread carries inline,
// the comment text limit, and the quota units each call spends under the strict youtube_quota mode.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Comments, Engagement } from '../../../src/platforms/engagement.ts';
import type { AccountIdentity, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import { startSandbox } from '../../helpers/sandbox.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import { expectPlatformError } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { PROFILES } from '../contract/profiles.ts';
import { publishThrough, sampleRequest } from '../contract/sample-post.ts';

const profile = PROFILES.youtube;
let sb: TestSandbox;
let adapter: PlatformAdapter;
let engagement: Engagement;
let comments: Comments;
let tokens: TokenSet;
let account: AccountIdentity;

async function publish(text: string): Promise<string> {
  const req = await sampleRequest(sb, profile, account, 'video', text, `tgt_yt_${text.length}`);
  const out = await publishThrough(sb, publisherOf(adapter), () => tokens, req, memoryJournal());
  if (out.state !== 'published') throw new Error('the sample video did not publish');
  return out.postId;
}

async function seed(body: Record<string, unknown>): Promise<string[]> {
  const res = await sb.control('POST', '_seed', { platform: 'youtube', ...body });
  expect(res.status).toBe(201);
  return ((await res.json()) as { comment_ids: string[] }).comment_ids;
}

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

describe('youtube comments', () => {
  it('a reply to a reply goes under the top-level comment, which is the only parent YouTube takes', async () => {
    const id = await publish('Thread rules');
    const [top] = await seed({ post_id: id, comments: [{ text: 'Top' }] });
    const first = await comments.reply(tokens, { postId: id, commentId: top!, text: 'First answer' });
    // A reply's id names its thread: "<thread id>.<key>".
    expect(first.replyId.startsWith(`${top}.`)).toBe(true);
    // Answering the reply itself, without refs (as a client that only kept the id would): still under the thread.
    const second = await comments.reply(tokens, { postId: id, commentId: first.replyId, text: 'Second answer' });
    const stored = (await sb.state('youtube')).comments;
    expect(stored.find((c) => c.id === second.replyId)).toMatchObject({ parentId: top, fromAccount: true });
    const listed = (await comments.list(tokens, { postId: id, limit: 10 })).comments;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: top, replyCount: 2, refs: { threadId: top } });
    expect(listed[0]!.replies!.map((r) => [r.text, r.parentId, r.authorId])).toEqual([
      ['First answer', top, account.id],
      ['Second answer', top, account.id],
    ]);
  });

  it('comments turned off: the list says so instead of failing, and a reply is refused', async () => {
    const id = await publish('Quiet video');
    const [top] = await seed({ post_id: id, comments: [{ text: 'Before they were turned off' }] });
    await seed({ post_id: id, comments_disabled: true });
    expect(await comments.list(tokens, { postId: id, limit: 10 })).toEqual({ comments: [], disabled: true });
    const err = await expectPlatformError(
      comments.reply(tokens, { postId: id, commentId: top!, text: 'Hello?' }),
      'unsupported',
      [tokens.accessToken],
    );
    expect(err.code).toBe('commentsDisabled');
    // videos.list leaves commentCount out for such a video.
    expect((await engagement.getPost(tokens, { postId: id }))?.metrics.comments).toBe(0);
  });

  it('reads past a page of 100 threads, and replies past the five a thread carries inline', async () => {
    const id = await publish('Busy video');
    const ids = await seed({
      post_id: id,
      comments: Array.from({ length: 130 }, (_, n) => ({ text: `Comment ${n}` })),
    });
    const page = await comments.list(tokens, { postId: id, limit: 120 });
    expect(page.comments).toHaveLength(120);
    expect(page.comments[0]!.text).toBe('Comment 129');
    expect(new Set(page.comments.map((c) => c.id)).size).toBe(120);
    const calls = (await sb.state('youtube')).requests.filter((r) => r.path.endsWith('/youtube/v3/commentThreads'));
    expect(calls.map((r) => (r.query as Record<string, string>).maxResults)).toEqual(['100', '20']);
    for (let n = 0; n < 7; n++) await comments.reply(tokens, { postId: id, commentId: ids[0]!, text: `Answer ${n}` });
    const thread = (await comments.list(tokens, { postId: id, limit: 130 })).comments.find((c) => c.id === ids[0])!;
    expect(thread.replyCount).toBe(7);
    expect(thread.replies).toHaveLength(5);
    const all = await comments.replies(tokens, { postId: id, commentId: ids[0]!, refs: thread.refs, limit: 50 });
    expect(all.map((r) => r.text)).toEqual(Array.from({ length: 7 }, (_, n) => `Answer ${n}`));
  });

  it('a reply over 10,000 characters is refused by YouTube (commentTextTooLong); the limit is the adapter’s textLimit', async () => {
    const id = await publish('Long answers');
    const [top] = await seed({ post_id: id, comments: [{ text: 'Go on' }] });
    expect(comments.textLimit.max).toBe(10_000);
    const err = await expectPlatformError(
      comments.reply(tokens, { postId: id, commentId: top!, text: 'x'.repeat(10_001) }),
      'invalid_content',
      [tokens.accessToken],
    );
    expect(err.code).toBe('commentTextTooLong');
    await comments.reply(tokens, { postId: id, commentId: top!, text: 'x'.repeat(10_000) });
  });

  it('an unknown video is videoNotFound, an unknown comment parentCommentNotFound', async () => {
    const err = await expectPlatformError(comments.list(tokens, { postId: 'AAAAAAAAAAA', limit: 5 }), 'not_found', [
      tokens.accessToken,
    ]);
    expect(err.code).toBe('videoNotFound');
    const id = await publish('Real video');
    await expectPlatformError(
      comments.reply(tokens, { postId: id, commentId: 'UgzNotAComment', text: 'Hi' }),
      'not_found',
      [tokens.accessToken],
    );
    expect(await engagement.getPost(tokens, { postId: 'AAAAAAAAAAA' })).toBeNull();
  });
});

describe('youtube channels', () => {
  it('reads a channel named by id (youtube_channel_id) like the connected one; an unknown channel is not found', async () => {
    const id = await publish('On the channel');
    const channel = { kind: 'channel' as const, id: account.id };
    expect((await engagement.listPosts(tokens, { destination: channel, limit: 5 })).map((p) => p.postId)).toEqual([id]);
    const err = await expectPlatformError(
      engagement.listPosts(tokens, { destination: { kind: 'channel', id: 'UCunknownchannel000000000' }, limit: 5 }),
      'not_found',
      [tokens.accessToken],
    );
    expect(err.code).toBe('channelNotFound');
  });
});

describe('youtube quota (strict youtube_quota)', () => {
  it('recent videos cost 3 units (channels, playlistItems, videos), a comments page 1, a reply 50, a delete 50', async () => {
    const id = await publish('Counted');
    const [top] = await seed({ post_id: id, comments: [{ text: 'Count me' }] });
    // The next (Pacific) day's quota of 55 units, whatever connecting and publishing spent today; the day-old access
    // token is refreshed first (the token endpoint costs no quota).
    sb.advance(24 * 3600);
    if (adapter.auth.kind !== 'oauth2' || !adapter.auth.refresh) throw new Error('youtube refreshes its tokens');
    tokens = await adapter.auth.refresh(tokens);
    await sb.configure({ strict: { youtube_quota: true }, youtubeDailyQuota: 55 });
    expect(await engagement.listPosts(tokens, { limit: 10 })).toHaveLength(1); // 3
    expect((await comments.list(tokens, { postId: id, limit: 10 })).comments).toHaveLength(1); // 4
    await comments.reply(tokens, { postId: id, commentId: top!, text: 'Within quota' }); // 54
    const err = await expectPlatformError(engagement.deletePost!(tokens, { postId: id }), 'rate_limited', [
      tokens.accessToken,
    ]);
    expect(err.code).toBe('quotaExceeded');
    expect(err.retryAfterSeconds).toBeGreaterThan(0);
    expect((await sb.state('youtube')).posts).toHaveLength(1);
    expect(await engagement.getPost(tokens, { postId: id })).not.toBeNull(); // 55
  });
});
