// Instagram's read side: the shared contract, plus its own rules — replies are one level deep (a reply to a reply
// joins the top-level comment), replies come inline with their comment, views/reach/shares come from media insights
// (instagram_business_manage_insights; without it the counts still read), the retired `impressions` metric is
// refused, comments are 2,200 characters at most, and media cannot be deleted through Instagram Login.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INSTAGRAM_GRAPH_VERSION, INSTAGRAM_SCOPES } from '../../../src/platforms/instagram/config.ts';
import { instagramAdapter } from '../../../src/platforms/instagram/index.ts';
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

describeEngagementContract(PROFILES.instagram, { postType: 'image', metrics: ['likes', 'shares', 'impressions'] });

describe('instagram engagement: reply depth, insights and limits', () => {
  let sb: TestSandbox;
  let adapter: PlatformAdapter;
  let engagement: Engagement;
  let tokens: TokenSet;
  let account: AccountIdentity;

  async function connect(scopes: readonly string[] = INSTAGRAM_SCOPES): Promise<void> {
    const auth = adapter.auth as OAuth2Auth;
    const redirectUri = sb.callback('instagram');
    const url = new URL(auth.authorizeUrl({ state: 'st-ig', redirectUri }));
    url.searchParams.set('scope', scopes.join(','));
    tokens = await auth.exchangeCode({ code: (await approve(url.toString())).code, redirectUri });
    account = await adapter.fetchAccount(tokens);
  }

  async function publish(text: string, postType: 'image' | 'carousel' = 'image'): Promise<string> {
    const req = await sampleRequest(sb, PROFILES.instagram, account, postType, text, `tgt_ig_${postType}`);
    const out = await publishThrough(sb, publisherOf(adapter), () => tokens, req, memoryJournal());
    if (out.state !== 'published') throw new Error('the sample post did not publish');
    return out.postId;
  }

  async function seed(postId: string, body: Record<string, unknown>): Promise<string[]> {
    const res = await sb.control('POST', '_seed', { platform: 'instagram', post_id: postId, ...body });
    return ((await res.json()) as { comment_ids?: string[] }).comment_ids ?? [];
  }

  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  beforeEach(async () => {
    await sb.reset();
    await sb.configure({ processingMs: 0 });
    adapter = instagramAdapter(sandboxDeps(sb, 'instagram'));
    engagement = adapter.engagement!;
    await connect();
  });

  it('cannot delete media, and says why', () => {
    expect(engagement.deletePost).toBeUndefined();
    expect(engagement.deleteUnavailable).toMatch(/Instagram Login/);
  });

  it('a reply to a reply joins the top-level comment, and replies come inline with their comment', async () => {
    const postId = await publish('Threaded');
    const [top] = await seed(postId, { comments: [{ text: 'Where is this?', author_name: 'ann.lee' }] });
    const first = await engagement.comments!.reply(tokens, { postId, commentId: top!, text: 'Lisbon.' });
    const second = await engagement.comments!.reply(tokens, { postId, commentId: first.replyId, text: 'In spring.' });
    const replies = await engagement.comments!.replies(tokens, { postId, commentId: top!, limit: 10 });
    expect(replies.map((r) => [r.id, r.parentId])).toEqual([
      [first.replyId, top],
      [second.replyId, top],
    ]);
    const [comment] = (await engagement.comments!.list(tokens, { postId, limit: 10 })).comments;
    expect(comment).toMatchObject({ id: top, authorName: 'ann.lee', replyCount: 2 });
    expect(comment!.replies?.map((r) => r.text)).toEqual(['Lisbon.', 'In spring.']);
    expect(comment!.replies?.[0]).toMatchObject({ authorName: account.username, authorId: account.id });
  });

  it('refuses a reply over 2,200 characters and posts nothing', async () => {
    const postId = await publish('Long replies');
    const [top] = await seed(postId, { comments: [{ text: 'Hi' }] });
    expect(engagement.comments!.textLimit).toEqual({ max: 2200, unit: 'utf16' });
    await expectPlatformError(
      engagement.comments!.reply(tokens, { postId, commentId: top!, text: 'x'.repeat(2201) }),
      'invalid_content',
    );
    expect((await sb.state('instagram')).comments).toHaveLength(1);
  });

  it('counts likes and comments on the media, views, reach and shares from insights; a carousel reads its images', async () => {
    const postId = await publish('Counted', 'carousel');
    await seed(postId, { comments: [{ text: 'One' }], metrics: { likes: 4, shares: 1, impressions: 60 } });
    const post = await engagement.getPost(tokens, { postId });
    expect(post).toMatchObject({
      type: 'carousel',
      metrics: { likes: 4, comments: 1, shares: 1, impressions: 60, reach: 60 },
    });
    expect(post!.images).toHaveLength(2);
    const res = await fetch(
      `${sandboxBaseUrls(sb.publicUrl).instagram.graphBase}/${INSTAGRAM_GRAPH_VERSION}/${postId}/insights?metric=impressions`,
      {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      },
    );
    expect(res.status).toBe(400);
  });

  it('without the insights permission the media still read, with their counts and no views', async () => {
    await connect(INSTAGRAM_SCOPES.filter((s) => s !== 'instagram_business_manage_insights'));
    const postId = await publish('No insights');
    await seed(postId, { metrics: { likes: 2, impressions: 30 } });
    const [post] = await engagement.listPosts(tokens, { limit: 5 });
    expect(post).toMatchObject({ postId, metrics: { likes: 2, impressions: 0 } });
  });
});
