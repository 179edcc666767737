// Facebook's read side: the shared contract, plus its own rules — every read and reply goes with the Page token of
// the Page that owns the post, comment ids are `{post-part}_{digits}`, a reply is written as the Page, and views come
// from post insights, which need read_insights (without it the counts still read and views are 0).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FACEBOOK_GRAPH_VERSION,
  FACEBOOK_SCOPES,
  facebookAdapter,
  pageTokenKey,
} from '../../../src/platforms/facebook/index.ts';
import type { Engagement } from '../../../src/platforms/engagement.ts';
import type { PostType } from '../../../src/platforms/publishing.ts';
import type { AccountIdentity, OAuth2Auth, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import { sandboxBaseUrls } from '../../../src/sandbox/index.ts';
import { startSandbox } from '../../helpers/sandbox.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import { PROFILES } from '../contract/profiles.ts';
import { publishThrough, sampleRequest } from '../contract/sample-post.ts';
import { approve, expectPlatformError, sandboxDeps } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { describeEngagementContract } from './engagement-contract.ts';

describeEngagementContract(PROFILES.facebook, { postType: 'text', metrics: ['likes', 'shares', 'impressions'] });

describe('facebook engagement: Page tokens, ids and insights', () => {
  let sb: TestSandbox;
  let adapter: PlatformAdapter;
  let engagement: Engagement;
  let tokens: TokenSet;
  let account: AccountIdentity;
  let pageId: string;

  async function connect(scopes: readonly string[] = FACEBOOK_SCOPES): Promise<void> {
    const auth = adapter.auth as OAuth2Auth;
    const redirectUri = sb.callback('facebook');
    const url = new URL(auth.authorizeUrl({ state: 'st-fb', redirectUri }));
    url.searchParams.set('scope', scopes.join(','));
    tokens = await auth.exchangeCode({ code: (await approve(url.toString())).code, redirectUri });
    account = await adapter.fetchAccount(tokens);
    pageId = account.destinations.find((d) => d.kind === 'page')!.id;
  }

  async function publish(text: string, postType: PostType = 'text'): Promise<string> {
    const req = await sampleRequest(sb, PROFILES.facebook, account, postType, text, `tgt_fb_${postType}`);
    const out = await publishThrough(sb, publisherOf(adapter), () => tokens, req, memoryJournal());
    if (out.state !== 'published') throw new Error('the sample post did not publish');
    return out.postId;
  }

  const graph = (path: string, token: string): Promise<Response> =>
    fetch(`${sandboxBaseUrls(sb.publicUrl).facebook.graphBase}/${FACEBOOK_GRAPH_VERSION}/${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
  const destination = () => ({ destination: { kind: 'page' as const, id: pageId } });

  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  beforeEach(async () => {
    await sb.reset();
    await sb.configure({ processingMs: 0 });
    adapter = facebookAdapter(sandboxDeps(sb, 'facebook'));
    engagement = adapter.engagement!;
    await connect();
  });

  it('reads with the Page token: Graph refuses the user token, and a Page without a token is a permission error before any call', async () => {
    await publish('Page post');
    const refused = await graph(`${pageId}/published_posts`, tokens.accessToken);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(210);
    expect(await (await graph(`${pageId}/published_posts`, tokens.extra![pageTokenKey(pageId)]!)).json()).toMatchObject(
      { data: [expect.objectContaining({ id: expect.any(String) })] },
    );

    const before = (await sb.state('facebook')).requests.length;
    const without = { ...tokens, extra: {} };
    await expectPlatformError(engagement.listPosts(without, { ...destination(), limit: 5 }), 'permission');
    await expectPlatformError(engagement.comments!.list(without, { postId: `${pageId}_1`, limit: 5 }), 'permission');
    expect((await sb.state('facebook')).requests.length).toBe(before);
  });

  it('finds the Page from the post id when no destination is given, and keeps comment ids in the {post-part}_{digits} form', async () => {
    const postId = await publish('Comment here');
    const res = await sb.control('POST', '_seed', {
      platform: 'facebook',
      post_id: postId,
      comments: [{ text: 'Nice', author_name: 'Ann Lee' }],
    });
    const [commentId] = ((await res.json()) as { comment_ids: string[] }).comment_ids;
    expect(commentId).toMatch(new RegExp(`^${postId.split('_')[1]}_\\d+$`));
    const page = await engagement.comments!.list(tokens, { postId, limit: 10 });
    expect(page.comments[0]).toMatchObject({
      id: commentId,
      authorName: 'Ann Lee',
      authorId: expect.stringMatching(/^\d+$/),
      authorAvatarUrl: expect.stringMatching(/^http/),
    });
    const { replyId } = await engagement.comments!.reply(tokens, { postId, commentId: commentId!, text: 'Thanks!' });
    expect(replyId).toMatch(new RegExp(`^${postId.split('_')[1]}_\\d+$`));
    const [reply] = await engagement.comments!.replies(tokens, { postId, commentId: commentId!, limit: 10 });
    // The Page answers as itself.
    expect(reply).toMatchObject({ id: replyId, authorId: pageId, text: 'Thanks!' });
    expect((await engagement.comments!.list(tokens, { postId, limit: 10 })).comments[0]!.replyCount).toBe(1);
  });

  it('refuses a reply over the comment limit and posts nothing', async () => {
    const postId = await publish('Long replies');
    const res = await sb.control('POST', '_seed', {
      platform: 'facebook',
      post_id: postId,
      comments: [{ text: 'Hi' }],
    });
    const [commentId] = ((await res.json()) as { comment_ids: string[] }).comment_ids;
    const limit = engagement.comments!.textLimit.max;
    await expectPlatformError(
      engagement.comments!.reply(tokens, { postId, commentId: commentId!, text: 'x'.repeat(limit + 1) }),
      'invalid_content',
    );
    expect((await sb.state('facebook')).comments).toHaveLength(1);
    await engagement.comments!.reply(tokens, { postId, commentId: commentId!, text: 'x'.repeat(limit) });
    expect((await sb.state('facebook')).comments).toHaveLength(2);
  });

  it('views and reach come from post insights; the retired post_impressions metric is refused', async () => {
    const postId = await publish('Counted');
    await sb.control('POST', '_seed', {
      platform: 'facebook',
      post_id: postId,
      metrics: { likes: 3, impressions: 40 },
    });
    const post = await engagement.getPost(tokens, { ...destination(), postId });
    expect(post?.metrics).toMatchObject({ likes: 3, impressions: 40, reach: 40 });
    const pageToken = tokens.extra![pageTokenKey(pageId)]!;
    expect((await graph(`${postId}/insights?metric=post_impressions`, pageToken)).status).toBe(400);
    expect((await graph(`${postId}/insights?metric=post_media_view`, pageToken)).status).toBe(200);
  });

  it('tells photo, album and video posts apart by their attachments', async () => {
    const image = await publish('One photo', 'image');
    const carousel = await publish('Two photos', 'carousel');
    const video = await publish('A video', 'video');
    const read = async (postId: string) => (await engagement.getPost(tokens, { ...destination(), postId }))!;
    expect(await read(image)).toMatchObject({
      type: 'image',
      images: [{ url: expect.stringMatching(/^http/) }],
      video: null,
    });
    expect((await read(carousel)).images).toHaveLength(2);
    expect((await read(carousel)).type).toBe('carousel');
    expect(await read(video)).toMatchObject({
      type: 'video',
      images: [],
      video: { videoUrl: expect.stringMatching(/^http/) },
    });
  });

  it('without read_insights the posts still read, with their counts and no views', async () => {
    await connect(FACEBOOK_SCOPES.filter((s) => s !== 'read_insights'));
    const postId = await publish('No insights');
    await sb.control('POST', '_seed', {
      platform: 'facebook',
      post_id: postId,
      metrics: { likes: 5, impressions: 90 },
    });
    const [post] = await engagement.listPosts(tokens, { ...destination(), limit: 5 });
    expect(post?.metrics).toMatchObject({ likes: 5, impressions: 0 });
  });
});
