import { describe, expect, it } from 'vitest';
import {
  addRead,
  buildThreads,
  chunks,
  type InboxComment,
  readKeys,
  refOfKey,
  replyQuery,
  unreadTotal,
} from '../../web/src/pages/inbox/threads.ts';

const comment = (id: string, at: string, replies: InboxComment[] = []): InboxComment => ({
  id,
  type: 'comment',
  text: `text ${id}`,
  author_name: 'Zed',
  author_profile_image_url: null,
  created_at: at,
  like_count: 0,
  reply_count: replies.length,
  parent_id: null,
  replies,
  platform_meta: { is_hidden: false },
});

const post = (post_id: string, comments: InboxComment[], extra: object = {}) => ({
  post_id,
  page_id: null,
  comments_disabled: false,
  comment_status: 'ok' as const,
  comment_status_message: null,
  comments,
  ...extra,
});

const answer = {
  success: true,
  bluesky: {
    posts: [
      post('at://a', [comment('c1', '2026-11-01T10:00:00Z', [comment('r1', '2026-11-01T12:00:00Z')])]),
      post('at://empty', []),
    ],
    last_updated: null,
  },
  facebook: {
    posts: [post('p_1', [comment('c2', '2026-11-02T10:00:00Z')], { page_id: 'p' })],
    last_updated: null,
  },
  linkedin: {
    posts: [post('urn:1', [], { comment_status: 'error', comment_status_message: 'No access' })],
    last_updated: null,
  },
  tiktok: { posts: [], last_updated: null, error: 'NOT_SUPPORTED', message: 'TikTok has no comments API' },
  instagram: { posts: [], last_updated: null, error: 'NOT_CONNECTED', message: 'not connected' },
};

const posts = {
  success: true,
  message: 'ok',
  bluesky: { posts: [{ post_id: 'at://a', commentary: 'Hello', permalink: 'https://x/a', published_at: null }] },
};

describe('inbox threads', () => {
  it('groups comments by post, joins the post, keeps posts whose comments failed, lists slice problems', () => {
    const { threads, problems } = buildThreads(answer, posts, new Set());
    expect(threads.map((t) => t.key)).toEqual(['facebook:p_1', 'bluesky:at://a', 'linkedin:urn:1']);
    const bsky = threads.find((t) => t.platform === 'bluesky')!;
    expect(bsky.post?.commentary).toBe('Hello');
    expect(bsky.allIds).toEqual(['c1', 'r1']);
    expect(bsky.latestAt).toBe(Date.parse('2026-11-01T12:00:00Z'));
    expect(threads.find((t) => t.platform === 'linkedin')).toMatchObject({
      status: 'error',
      statusMessage: 'No access',
    });
    expect(problems).toEqual([{ platform: 'tiktok', error: 'NOT_SUPPORTED', message: 'TikTok has no comments API' }]);
    expect(unreadTotal(threads)).toBe(3);
  });

  it('puts threads with unread comments first, then the newest', () => {
    const read = new Set(readKeys({ platform: 'facebook' }, ['c2']));
    const { threads } = buildThreads(answer, posts, read);
    expect(threads.map((t) => t.key)).toEqual(['bluesky:at://a', 'facebook:p_1', 'linkedin:urn:1']);
    expect(threads[0]?.unreadIds).toEqual(['c1', 'r1']);
    expect(threads[1]?.unreadIds).toEqual([]);
  });

  it("never counts the account's own comments unread: its first comment, a reply sent from Herald", () => {
    const mine = { ...comment('first', '2026-11-03T10:00:00Z'), own: true };
    const theirs = comment('c3', '2026-11-03T11:00:00Z', [{ ...comment('r3', '2026-11-03T12:00:00Z'), own: true }]);
    const own = { success: true, bluesky: { posts: [post('at://mine', [theirs, mine])], last_updated: null } };
    const { threads } = buildThreads(own, {}, new Set());
    expect(threads[0]!.allIds).toEqual(['c3', 'r3', 'first']);
    expect(threads[0]!.unreadIds).toEqual(['c3']);
    expect(unreadTotal(threads)).toBe(1);
    // Only the first comment under the post, nothing else: the thread has nothing unread and sorts as read.
    const alone = buildThreads(
      { success: true, bluesky: { posts: [post('at://alone', [mine])], last_updated: null } },
      {},
      new Set(),
    );
    expect(alone.threads[0]!.unreadIds).toEqual([]);
  });

  it('keys read ids by network, so the same id on two networks stays apart', () => {
    const read = new Set(readKeys({ platform: 'bluesky' }, ['c2']));
    expect(buildThreads(answer, posts, read).threads[0]?.unreadIds).toEqual(['c2']);
  });

  it('names the page or organization in the reply query', () => {
    expect(replyQuery({ platform: 'facebook', postId: 'p_1', pageId: 'p' }, 'c2')).toEqual({
      platform: 'facebook',
      comment_id: 'c2',
      post_id: 'p_1',
      facebook_page_id: 'p',
    });
    expect(replyQuery({ platform: 'linkedin', postId: 'u', pageId: 'urn:li:organization:5' }, 'c')).toMatchObject({
      linkedin_organization_id: 'urn:li:organization:5',
    });
    expect(replyQuery({ platform: 'bluesky', postId: 'at://a', pageId: null }, 'c1')).toEqual({
      platform: 'bluesky',
      comment_id: 'c1',
      post_id: 'at://a',
    });
  });

  it('keeps the newest read ids within the limit', () => {
    expect(addRead(['a', 'b'], ['c', 'a'], 3)).toEqual(['b', 'c', 'a']);
    expect(addRead(['a', 'b', 'c'], ['d'], 3)).toEqual(['b', 'c', 'd']);
  });
});

describe('read keys for the server', () => {
  it('splits a read key at the first colon: ids keep theirs (URNs, at:// URIs)', () => {
    expect(refOfKey('threads:c1')).toEqual({ platform: 'threads', comment_id: 'c1' });
    expect(refOfKey('linkedin:urn:li:comment:(urn:li:activity:1,2)')).toEqual({
      platform: 'linkedin',
      comment_id: 'urn:li:comment:(urn:li:activity:1,2)',
    });
    expect(refOfKey('bluesky:at://did:plc:x/app.bsky.feed.post/1')?.comment_id).toBe(
      'at://did:plc:x/app.bsky.feed.post/1',
    );
    expect(refOfKey('nocolon')).toBeNull();
    expect(refOfKey('threads:')).toBeNull();
  });

  it('sends at most 500 a request', () => {
    const all = Array.from({ length: 1201 }, (_, i) => i);
    expect(chunks(all, 500).map((c) => c.length)).toEqual([500, 500, 201]);
    expect(chunks([], 500)).toEqual([]);
  });
});
