// LinkedIn's own rules on the read side, against its simulator: a member's own posts and comments need the closed
// r_member_social (refused before any call without it, read when the app was granted it) while their numbers need
// only r_member_postAnalytics (memberCreatorPostAnalytics), comment URNs and two-level
// threads, the 1,250-character comment limit, comments turned off, commenters' names, share statistics only for
// organizations with the admin scope, and commentary read back as members see it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Comments, Engagement } from '../../../src/platforms/engagement.ts';
import { LINKEDIN_SCOPES, linkedinAdapter } from '../../../src/platforms/linkedin/index.ts';
import type { PublishDestination } from '../../../src/platforms/publishing.ts';
import type { AccountIdentity, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import { startSandbox } from '../../helpers/sandbox.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import { connectThrough, expectPlatformError, sandboxDeps } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { PROFILES } from '../contract/profiles.ts';
import { publishThrough, sampleRequest } from '../contract/sample-post.ts';

const profile = PROFILES.linkedin;
let sb: TestSandbox;
let adapter: PlatformAdapter;
let engagement: Engagement;
let comments: Comments;
let tokens: TokenSet;
let account: AccountIdentity;
let org: PublishDestination;
const me: PublishDestination = { kind: 'personal', id: 'me' };

/** An adapter asking for `scopes`, connected through the sandbox's consent. */
async function connectWith(scopes: readonly string[]): Promise<void> {
  const deps = sandboxDeps(sb, 'linkedin');
  adapter = linkedinAdapter({ ...deps, config: { ...deps.config, scopes: [...scopes] } });
  engagement = adapter.engagement!;
  comments = engagement.comments!;
  tokens = await connectThrough(sb, adapter);
  account = await adapter.fetchAccount(tokens);
  const found = account.destinations.find((d) => d.kind === 'organization');
  if (!found) throw new Error('the sandbox member administers no organization');
  org = { kind: 'organization', id: found.id };
}

async function publish(text: string, destination: PublishDestination): Promise<string> {
  const req = { ...(await sampleRequest(sb, profile, account, 'text', text, `tgt_li_${text.length}`)), destination };
  const out = await publishThrough(sb, publisherOf(adapter), () => tokens, req, memoryJournal());
  if (out.state !== 'published') throw new Error('the sample post did not publish');
  return out.postId;
}

async function seed(body: Record<string, unknown>): Promise<string[]> {
  const res = await sb.control('POST', '_seed', { platform: 'linkedin', ...body });
  expect(res.status).toBe(201);
  return ((await res.json()) as { comment_ids: string[] }).comment_ids;
}

const calls = async (path: string) => (await sb.state('linkedin')).requests.filter((r) => r.path.endsWith(path));

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: 0 });
});

describe("linkedin: a member's own posts", () => {
  it('without r_member_social (Herald\u2019s default scopes) reads of the post are refused with the reason, before any call', async () => {
    await connectWith(LINKEDIN_SCOPES);
    const id = await publish('My own post', me);
    const before = (await sb.state('linkedin')).requests.length;
    for (const read of [
      engagement.listPosts(tokens, { destination: me, limit: 5 }),
      engagement.getPost(tokens, { destination: me, postId: id }),
      comments.list(tokens, { destination: me, postId: id, limit: 5 }),
    ]) {
      const err = await expectPlatformError(read, 'permission', [tokens.accessToken]);
      expect(err.code).toBe('r_member_social_required');
      expect(err.message).toMatch(/r_member_social/);
    }
    expect((await sb.state('linkedin')).requests).toHaveLength(before);
    // Deleting needs only the write permission.
    await engagement.deletePost!(tokens, { destination: me, postId: id });
    expect((await sb.state('linkedin')).posts).toHaveLength(0);
  });

  it('LinkedIn itself refuses them too (403 ACCESS_DENIED) when the grant does not say which scopes it holds', async () => {
    await connectWith(LINKEDIN_SCOPES);
    await publish('Still mine', me);
    const unknown: TokenSet = { ...tokens, scopes: undefined };
    await expectPlatformError(engagement.listPosts(unknown, { destination: me, limit: 5 }), 'permission', [
      tokens.accessToken,
    ]);
  });

  it('its numbers alone need only r_member_postAnalytics (Herald asks for it): reactions, comments, reshares, impressions, reach', async () => {
    await connectWith(LINKEDIN_SCOPES);
    const id = await publish('Counted post', me);
    await seed({ post_id: id, metrics: { likes: 4, shares: 3, impressions: 90 }, comments: [{ text: 'Nice' }] });
    expect(await engagement.getMetrics!(tokens, { destination: me, postId: id })).toEqual({
      likes: 4,
      comments: 1,
      shares: 3,
      impressions: 90,
      reach: 72,
    });
    expect(
      await engagement.getMetrics!(tokens, { destination: me, postId: 'urn:li:share:7000000000000000001' }),
    ).toBeNull();
    await connectWith(LINKEDIN_SCOPES.filter((s) => s !== 'r_member_postAnalytics'));
    const err = await expectPlatformError(
      engagement.getMetrics!(tokens, { destination: me, postId: id }),
      'permission',
      [tokens.accessToken],
    );
    expect(err.code).toBe('r_member_postAnalytics_required');
    // LinkedIn refuses it too when the grant does not say which scopes it holds.
    await expectPlatformError(
      engagement.getMetrics!({ ...tokens, scopes: undefined }, { destination: me, postId: id }),
      'permission',
      [tokens.accessToken],
    );
  });

  it('with r_member_social granted: posts with reactions, comments, reshares and impressions, comments, a reply as the member', async () => {
    await connectWith([...LINKEDIN_SCOPES, 'r_member_social']);
    const id = await publish('Readable post', me);
    await seed({
      post_id: id,
      metrics: { likes: 4, shares: 3, impressions: 90 },
      comments: [{ text: 'Nice', author_name: 'Ada Moreau' }],
    });
    const [post] = await engagement.listPosts(tokens, { destination: me, limit: 5 });
    expect(post).toMatchObject({
      postId: id,
      sourcePageId: null,
      metrics: { likes: 4, comments: 1, shares: 3, impressions: 90, reach: 72 },
    });
    expect(await calls('/rest/organizationalEntityShareStatistics')).toHaveLength(0);
    expect(await calls('/rest/memberCreatorPostAnalytics')).toHaveLength(3);
    const [comment] = (await comments.list(tokens, { destination: me, postId: id, limit: 5 })).comments;
    expect(comment).toMatchObject({ text: 'Nice', authorName: 'Ada Moreau' });
    const { replyId } = await comments.reply(tokens, {
      destination: me,
      postId: id,
      commentId: comment!.id,
      refs: comment!.refs,
      text: 'Thanks!',
    });
    const stored = (await sb.state('linkedin')).comments.find((c) => c.id === replyId);
    expect(stored).toMatchObject({ parentId: comment!.id, authorId: `urn:li:person:${account.id}`, fromAccount: true });
  });
});

describe('linkedin: organization comments', () => {
  beforeEach(() => connectWith(LINKEDIN_SCOPES));

  it('comment URNs name the post’s activity; a reply to a reply goes under the first-level comment', async () => {
    const id = await publish('Threads', org);
    const [top] = await seed({ post_id: id, comments: [{ text: 'First level' }] });
    expect(top).toMatch(/^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/);
    const first = await comments.reply(tokens, { destination: org, postId: id, commentId: top!, text: 'Answer' });
    const [reply] = await comments.replies(tokens, { destination: org, postId: id, commentId: top!, limit: 10 });
    expect(reply).toMatchObject({ id: first.replyId, parentId: top, refs: { parentComment: top } });
    // The organization's name, looked up like any commenter's.
    expect(reply!.authorName).toBe(account.destinations.find((d) => d.kind === 'organization')!.name);
    const second = await comments.reply(tokens, {
      destination: org,
      postId: id,
      commentId: reply!.id,
      refs: reply!.refs,
      text: 'And more',
    });
    expect((await sb.state('linkedin')).comments.find((c) => c.id === second.replyId)).toMatchObject({ parentId: top });
    const [listed] = (await comments.list(tokens, { destination: org, postId: id, limit: 10 })).comments;
    expect(listed).toMatchObject({ id: top, replyCount: 2 });
  });

  it('a comment over 1,250 characters is refused (FIELD_LENGTH_TOO_LONG); the limit is the adapter’s textLimit', async () => {
    const id = await publish('Long answers', org);
    const [top] = await seed({ post_id: id, comments: [{ text: 'Go on' }] });
    expect(comments.textLimit.max).toBe(1250);
    const err = await expectPlatformError(
      comments.reply(tokens, { destination: org, postId: id, commentId: top!, text: 'x'.repeat(1251) }),
      'invalid_content',
      [tokens.accessToken],
    );
    expect(err.code).toBe('FIELD_LENGTH_TOO_LONG');
    await comments.reply(tokens, { destination: org, postId: id, commentId: top!, text: 'x'.repeat(1250) });
  });

  it('comments turned off: the post says so (commentsState CLOSED) and a reply is refused', async () => {
    const id = await publish('Closed', org);
    const [top] = await seed({ post_id: id, comments: [{ text: 'Early' }], comments_disabled: true });
    expect(await engagement.getPost(tokens, { destination: org, postId: id })).toMatchObject({
      commentsDisabled: true,
    });
    await expectPlatformError(
      comments.reply(tokens, { destination: org, postId: id, commentId: top!, text: 'Late' }),
      'permission',
      [tokens.accessToken],
    );
  });

  it('pages through more than 100 comments and names every commenter in one lookup per 50', async () => {
    const id = await publish('Popular', org);
    await seed({
      post_id: id,
      comments: Array.from({ length: 130 }, (_, n) => ({ text: `Comment ${n}`, author_name: `Person ${n % 60}` })),
    });
    const page = await comments.list(tokens, { destination: org, postId: id, limit: 120 });
    expect(page.comments).toHaveLength(120);
    expect(page.comments[0]).toMatchObject({ text: 'Comment 129', authorName: 'Person 9' });
    expect((await calls('/comments')).map((r) => (r.query as Record<string, string>).count)).toEqual(['100', '20']);
    expect(await calls('/v2/people')).toHaveLength(2);
  });

  it('without rw_organization_admin: reactions and comments still read, impressions and shares 0 without a refused call', async () => {
    await connectWith(LINKEDIN_SCOPES.filter((s) => s !== 'rw_organization_admin'));
    const id = await publish('No statistics', org);
    await seed({ post_id: id, metrics: { likes: 2, shares: 5, impressions: 40 } });
    const [post] = await engagement.listPosts(tokens, { destination: org, limit: 5 });
    expect(post!.metrics).toMatchObject({ likes: 2, shares: 0, impressions: 0 });
    expect(await calls('/rest/organizationalEntityShareStatistics')).toHaveLength(0);
  });

  it('reads commentary back as members see it, and reach from unique impressions', async () => {
    const text = 'C# (beta) is out_now #launch @home';
    const id = await publish(text, org);
    await seed({ post_id: id, metrics: { impressions: 100 } });
    const post = await engagement.getPost(tokens, { destination: org, postId: id });
    expect(post).toMatchObject({
      commentary: text,
      type: 'text',
      sourcePageId: org.id,
      permalink: sb.url('linkedin', `/feed/update/${id}/`),
    });
    expect(post!.metrics.reach).toBe(80);
    expect(
      await engagement.getPost(tokens, { destination: org, postId: 'urn:li:share:7000000000000000001' }),
    ).toBeNull();
  });
});

describe('linkedin: media posts', () => {
  beforeEach(() => connectWith(LINKEDIN_SCOPES));

  it("an organization's image and carousel posts carry their images' download URLs", async () => {
    for (const postType of ['image', 'carousel'] as const) {
      const req = {
        ...(await sampleRequest(sb, profile, account, postType, `A ${postType} post`, `tgt_li_${postType}`)),
        destination: org,
      };
      const out = await publishThrough(sb, publisherOf(adapter), () => tokens, req, memoryJournal());
      if (out.state !== 'published') throw new Error('the sample post did not publish');
    }
    const posts = await engagement.listPosts(tokens, { destination: org, limit: 5 });
    expect(posts.map((p) => [p.type, p.images.length])).toEqual([
      ['carousel', 2],
      ['image', 1],
    ]);
    for (const image of posts.flatMap((p) => p.images)) expect(image.url).toEqual(expect.stringMatching(/^https:\/\//));
    expect((await calls('/rest/images')).filter((r) => r.method === 'GET')).toHaveLength(1);
  });
});
