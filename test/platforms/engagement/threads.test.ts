// Threads' read side: the shared contract, plus its own rules — a comment is itself a thread (its id a media id), a
// reply to a reply nests under it and shows in the post's conversation, the numbers all come from media insights
// (threads_manage_insights; without it the thread still reads, at 0), replies count against the reply quota, and a
// reply is 500 characters at most.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { THREADS_API_VERSION, THREADS_SCOPES } from '../../../src/platforms/threads/config.ts';
import { threadsAdapter } from '../../../src/platforms/threads/index.ts';
import type { Engagement } from '../../../src/platforms/engagement.ts';
import type { AccountIdentity, OAuth2Auth, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import { sandboxBaseUrls } from '../../../src/sandbox/index.ts';
import { startSandbox } from '../../helpers/sandbox.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import { PROFILES } from '../contract/profiles.ts';
import { publishThrough, sampleRequest } from '../contract/sample-post.ts';
import { approve, expectPlatformError, sandboxDeps } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { describeEngagementContract } from './engagement-contract.ts';

describeEngagementContract(PROFILES.threads, { postType: 'text', metrics: ['likes', 'shares', 'impressions'] });

describe('threads engagement: replies as threads, insights and limits', () => {
  let sb: TestSandbox;
  let adapter: PlatformAdapter;
  let engagement: Engagement;
  let tokens: TokenSet;
  let account: AccountIdentity;

  async function connect(scopes: readonly string[] = THREADS_SCOPES): Promise<void> {
    const auth = adapter.auth as OAuth2Auth;
    const redirectUri = sb.callback('threads');
    const url = new URL(auth.authorizeUrl({ state: 'st-th', redirectUri }));
    url.searchParams.set('scope', scopes.join(','));
    tokens = await auth.exchangeCode({ code: (await approve(url.toString())).code, redirectUri });
    account = await adapter.fetchAccount(tokens);
  }

  async function publish(text: string): Promise<string> {
    const req = await sampleRequest(sb, PROFILES.threads, account, 'text', text, 'tgt_th_rules');
    const out = await publishThrough(sb, publisherOf(adapter), () => tokens, req, memoryJournal());
    if (out.state !== 'published') throw new Error('the sample post did not publish');
    return out.postId;
  }

  async function seed(postId: string, body: Record<string, unknown>): Promise<string[]> {
    const res = await sb.control('POST', '_seed', { platform: 'threads', post_id: postId, ...body });
    return ((await res.json()) as { comment_ids?: string[] }).comment_ids ?? [];
  }

  const graph = (path: string): Promise<Response> =>
    fetch(`${sandboxBaseUrls(sb.publicUrl).threads.graphBase}/${THREADS_API_VERSION}/${path}`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });

  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  beforeEach(async () => {
    await sb.reset();
    await sb.configure({ processingMs: 0 });
    adapter = threadsAdapter(sandboxDeps(sb, 'threads'));
    engagement = adapter.engagement!;
    await connect();
  });

  it('a reply is a thread: a media id, nested under the reply it answers, and part of the conversation', async () => {
    const postId = await publish('Ask me');
    const [top] = await seed(postId, { comments: [{ text: 'Why?', author_name: 'zed.q' }] });
    expect(top).toMatch(/^\d{17,18}$/);
    const first = await engagement.comments!.reply(tokens, { postId, commentId: top!, text: 'Because.' });
    expect(first.replyId).toMatch(/^\d{17,18}$/);
    const [comment] = (await engagement.comments!.list(tokens, { postId, limit: 10 })).comments;
    expect(comment).toMatchObject({ id: top, parentId: null, authorName: 'zed.q', replyCount: 1 });
    const [answer] = await engagement.comments!.replies(tokens, { postId, commentId: top!, limit: 10 });
    expect(answer).toMatchObject({ id: first.replyId, parentId: top, authorName: account.username, text: 'Because.' });
    // Answering the answer nests one level deeper.
    const second = await engagement.comments!.reply(tokens, { postId, commentId: first.replyId, text: 'And more.' });
    expect(
      (await engagement.comments!.replies(tokens, { postId, commentId: first.replyId, limit: 10 })).map((r) => r.id),
    ).toEqual([second.replyId]);
    const conversation = (await (await graph(`${postId}/conversation?fields=id&reverse=false`)).json()) as {
      data: { id: string }[];
    };
    expect(conversation.data.map((r) => r.id)).toEqual([top, first.replyId, second.replyId]);
    // Replies published through the API count against the 1,000-a-day reply quota.
    const quota = (await (await graph('me/threads_publishing_limit?fields=reply_quota_usage')).json()) as {
      data: { reply_quota_usage: number }[];
    };
    expect(quota.data[0]!.reply_quota_usage).toBe(2);
    // The profile's answers, also one to its own post, are not among its posts.
    const form = (path: string, body: Record<string, string>) =>
      fetch(`${sandboxBaseUrls(sb.publicUrl).threads.graphBase}/${THREADS_API_VERSION}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      }).then((r) => r.json() as Promise<{ id: string }>);
    const container = await form('me/threads', { media_type: 'TEXT', text: 'Self-reply', reply_to_id: postId });
    expect((await form('me/threads_publish', { creation_id: container.id })).id).toMatch(/^\d+$/);
    expect((await engagement.listPosts(tokens, { limit: 10 })).map((p) => p.postId)).toEqual([postId]);
  });

  it('refuses a reply over 500 characters before publishing anything', async () => {
    const postId = await publish('Short answers only');
    const [top] = await seed(postId, { comments: [{ text: 'Hi' }] });
    expect(engagement.comments!.textLimit).toEqual({ max: 500, unit: 'graphemes' });
    await expectPlatformError(
      engagement.comments!.reply(tokens, { postId, commentId: top!, text: 'x'.repeat(501) }),
      'invalid_content',
    );
    const state = await sb.state('threads');
    expect(state.comments).toHaveLength(1);
    expect(state.containers).toHaveLength(1);
  });

  it('every number comes from insights: without threads_manage_insights a thread reads with zeros', async () => {
    const postId = await publish('Counted');
    await seed(postId, { comments: [{ text: 'One' }], metrics: { likes: 6, shares: 3, impressions: 80 } });
    expect((await engagement.getPost(tokens, { postId }))?.metrics).toMatchObject({
      likes: 6,
      comments: 1,
      shares: 3,
      impressions: 80,
    });
    await connect(THREADS_SCOPES.filter((s) => s !== 'threads_manage_insights'));
    expect((await engagement.getPost(tokens, { postId }))?.metrics).toMatchObject({
      likes: 0,
      comments: 0,
      shares: 0,
      impressions: 0,
    });
  });
});
