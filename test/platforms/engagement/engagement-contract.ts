// The read side of the adapter contract, run for one network against its simulator over real HTTP on loopback: the
// account's recent posts with the numbers the network counts, one post read fresh, comments from other users (seeded
// through POST /sandbox/_seed), a reply threaded under its parent, deletion or the reason there is none, and the
// mapping of throttling, server errors and expired tokens on these reads to PlatformError kinds.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engagement, PostMetrics, RemotePost } from '../../../src/platforms/engagement.ts';
import type { PostType, Publisher, PublishDestination, PublishRequest } from '../../../src/platforms/publishing.ts';
import type { AccountIdentity, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import type { StrictMode } from '../../../src/sandbox/index.ts';
import { startSandbox } from '../../helpers/sandbox.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import { expectPlatformError } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import type { ContractProfile } from '../contract/profiles.ts';
import { publishThrough, sampleRequest } from '../contract/sample-post.ts';

export interface EngagementOptions {
  /** The post type the suite publishes (the network's cheapest). */
  postType: PostType;
  /** The figures the network reports; the others read 0 whatever was seeded. */
  metrics: readonly (keyof Omit<PostMetrics, 'reach'>)[];
  /**
   * Replaces parts of the profile's request for this suite: where the network can read posts back (a LinkedIn
   * organization: a member's own posts need a permission LinkedIn no longer grants), or so that the post's text is
   * what the network stores as its words (a YouTube description rather than the profile's fixed one).
   */
  request?(account: AccountIdentity, postType: PostType): Partial<PublishRequest>;
  /**
   * Strict modes the suite turns off on top of the profile's (HERALD_SANDBOX_STRICT=all), where reading posts back
   * needs what a strict simulator refuses (TikTok lists public posts only, which an unaudited app cannot make).
   */
  lenient?: readonly StrictMode[];
}

const SEEDED = { likes: 7, comments: 0, shares: 2, impressions: 150 };

export function describeEngagementContract(base: ContractProfile, opts: EngagementOptions): void {
  const profile: ContractProfile = opts.request
    ? { ...base, request: (a, t) => ({ ...base.request(a, t), ...opts.request!(a, t) }) }
    : base;
  const net = profile.slug;
  let sb: TestSandbox;
  let adapter: PlatformAdapter;
  let engagement: Engagement;
  let publisher: Publisher;
  let tokens: TokenSet;
  let account: AccountIdentity;
  let destination: PublishDestination | undefined;

  async function fresh(): Promise<void> {
    await sb.reset();
    await sb.configure({ processingMs: 0 });
    const lenient = [...(profile.lenient ?? []), ...(opts.lenient ?? [])];
    if (lenient.length) await sb.lenient(...lenient);
    adapter = profile.adapter(sb);
    if (!adapter.engagement) throw new Error(`the ${net} adapter has no read side`);
    engagement = adapter.engagement;
    tokens = await profile.connect(sb, adapter);
    account = await adapter.fetchAccount(tokens);
    publisher = publisherOf(adapter);
    destination = profile.request(account, opts.postType).destination;
  }

  /** Publishes a sample post; its id as Herald stores it. */
  async function publish(text: string, n = 1): Promise<string> {
    const req = await sampleRequest(sb, profile, account, opts.postType, text, `tgt_${net}_${n}`);
    const out = await publishThrough(sb, publisher, () => tokens, req, memoryJournal());
    if (out.state !== 'published') throw new Error(`${net}: the sample post did not publish`);
    return out.postId;
  }

  async function seed(body: Record<string, unknown>): Promise<{ status: number; ids: string[] }> {
    const res = await sb.control('POST', '_seed', { platform: net, ...body });
    const json = (await res.json()) as { comment_ids?: string[] };
    return { status: res.status, ids: json.comment_ids ?? [] };
  }

  const target = () => (destination ? { destination } : {});

  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  beforeEach(fresh);

  describe(`${net} engagement contract: posts`, () => {
    it('lists the posts it published, newest first, with the numbers the network counts', async () => {
      const older = await publish('The older post', 1);
      sb.advance(60);
      const newer = await publish('The newer post', 2);
      expect((await seed({ post_id: newer, metrics: SEEDED })).status).toBe(201);
      const listed = await engagement.listPosts(tokens, { ...target(), limit: 10 });
      expect(listed.map((p) => p.postId)).toEqual([newer, older]);
      const post = listed[0]!;
      expect(post).toMatchObject({ commentary: expect.stringContaining('The newer post'), type: opts.postType });
      // The permalink opens the simulated post's page, which the sandbox serves on the simulator's own base.
      expect(post.permalink?.startsWith(sb.url(net, '/')), String(post.permalink)).toBe(true);
      const page = await fetch(post.permalink!);
      expect(page.status, post.permalink!).toBe(200);
      // Its words: the text the network stores (a YouTube video's title, the first line of its commentary).
      expect(await page.text()).toContain(post.commentary!.split('\n')[0]);
      expect(Date.parse(post.publishedAt ?? '')).not.toBeNaN();
      for (const m of ['likes', 'shares', 'impressions'] as const)
        expect(post.metrics[m], m).toBe(opts.metrics.includes(m) ? SEEDED[m] : 0);
      expect((await engagement.listPosts(tokens, { ...target(), limit: 1 })).map((p) => p.postId)).toEqual([newer]);
    });

    it('reads one post fresh, and answers null for a post the network no longer has', async () => {
      const id = await publish('One post');
      await seed({ post_id: id, metrics: SEEDED });
      const post = (await engagement.getPost(tokens, { ...target(), postId: id })) as RemotePost;
      expect(post.postId).toBe(id);
      expect(post.metrics.likes).toBe(opts.metrics.includes('likes') ? SEEDED.likes : 0);
      if (engagement.deletePost) {
        await engagement.deletePost(tokens, { ...target(), postId: id });
        expect((await sb.state(net)).posts).toHaveLength(0);
        expect(await engagement.getPost(tokens, { ...target(), postId: id })).toBeNull();
      } else {
        expect(engagement.deleteUnavailable).toEqual(expect.stringMatching(/\S/));
      }
    });

    it('throttled and failing reads are retryable errors; an expired token asks for a refresh or a reconnect', async () => {
      await publish('A post');
      await sb.fault({ platform: net, operation: 'status', fault: 'rate_limit' });
      expect(
        (
          await expectPlatformError(engagement.listPosts(tokens, { ...target(), limit: 5 }), 'rate_limited', [
            tokens.accessToken,
          ])
        ).retryable,
      ).toBe(true);
      await sb.fault({ platform: net, operation: 'status', fault: 'server_error' });
      await expectPlatformError(engagement.listPosts(tokens, { ...target(), limit: 5 }), 'transient', [
        tokens.accessToken,
      ]);
      await sb.fault({ platform: net, operation: 'status', fault: 'expire_token' });
      const err = await engagement.listPosts(tokens, { ...target(), limit: 5 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(['auth_expired', 'reauth_required']).toContain((err as { kind?: string } | null)?.kind);
    });
  });

  describe(`${net} engagement contract: comments`, () => {
    it('comments are readable and answerable, or the adapter says why not', async () => {
      if (engagement.comments) {
        expect(engagement.comments.textLimit.max).toBeGreaterThan(0);
        return;
      }
      expect(engagement.commentsUnavailable).toEqual(expect.stringMatching(/\S/));
      const id = await publish('No comments here');
      expect((await seed({ post_id: id, comments: [{ text: 'hi' }] })).status).toBe(400);
    });

    it("reads other users' comments, newest first, with their authors", async () => {
      const comments = engagement.comments;
      if (!comments) return;
      const id = await publish('Comment on me');
      const seeded = await seed({
        post_id: id,
        comments: [{ text: 'First!', author_name: 'Zed Quinn' }, { text: 'Second' }, { text: 'Third' }],
      });
      expect(seeded.status).toBe(201);
      const page = await comments.list(tokens, { ...target(), postId: id, limit: 50 });
      expect(page.comments.map((c) => c.text)).toEqual(['Third', 'Second', 'First!']);
      const first = page.comments[2]!;
      expect(first).toMatchObject({ id: seeded.ids[0], parentId: null, authorName: 'Zed Quinn' });
      expect(first.authorId).not.toBe(account.id);
      expect((await comments.list(tokens, { ...target(), postId: id, limit: 2 })).comments).toHaveLength(2);
    });

    it('replies under a comment: the reply is threaded under its parent and listed among its replies', async () => {
      const comments = engagement.comments;
      if (!comments) return;
      const id = await publish('Reply to comments here');
      const [commentId] = (await seed({ post_id: id, comments: [{ text: 'Question?' }] })).ids;
      const parent = (await comments.list(tokens, { ...target(), postId: id, limit: 10 })).comments[0]!;
      const { replyId } = await comments.reply(tokens, {
        ...target(),
        postId: id,
        commentId: commentId!,
        refs: parent.refs,
        text: 'Answer.',
      });
      expect(replyId).toEqual(expect.stringMatching(/\S/));
      const stored = (await sb.state(net)).comments;
      expect(stored.find((c) => c.id === replyId)).toMatchObject({
        parentId: commentId,
        text: expect.stringContaining('Answer.'),
        fromAccount: true,
      });
      const replies = await comments.replies(tokens, {
        ...target(),
        postId: id,
        commentId: commentId!,
        refs: parent.refs,
        limit: 50,
      });
      expect(replies.map((r) => [r.id, r.parentId])).toEqual([[replyId, commentId]]);
    });

    it('a throttled comment read and a failed reply are retryable errors, and the failed reply posts nothing', async () => {
      const comments = engagement.comments;
      if (!comments) return;
      const id = await publish('Faults');
      const [commentId] = (await seed({ post_id: id, comments: [{ text: 'Hello' }] })).ids;
      const parent = (await comments.list(tokens, { ...target(), postId: id, limit: 10 })).comments[0]!;
      await sb.fault({ platform: net, operation: 'comments', fault: 'rate_limit' });
      await expectPlatformError(comments.list(tokens, { ...target(), postId: id, limit: 10 }), 'rate_limited', [
        tokens.accessToken,
      ]);
      await sb.fault({ platform: net, operation: 'reply', fault: 'server_error' });
      await expectPlatformError(
        comments.reply(tokens, { ...target(), postId: id, commentId: commentId!, refs: parent.refs, text: 'Lost' }),
        'transient',
        [tokens.accessToken],
      );
      expect((await sb.state(net)).comments).toHaveLength(1);
    });
  });
}
