// The Bluesky read side against a real PDS (@atproto/pds) and PLC directory on 127.0.0.1. A second account replies to
// the post Herald published; Herald answers that comment — and a reply to its own answer — with root/parent strong
// refs read from the commenter's repo, and the records are read back from the PDS. Never skipped: if the PDS cannot
// start, the suite fails.
//
// What the local PDS cannot show: it runs without an AppView (none can run offline without Postgres and an indexer),
// and app.bsky.* reads — getAuthorFeed, getPosts, getPostThread — are the AppView's; the PDS answers them "No service
// configured". So here the posts read model comes from the repo (listRecords/getRecord, without numbers, which only
// the AppView counts), and reading the thread fails with the reason (other accounts' replies live in their own repos;
// only an AppView indexes them). The AppView's shapes are tested against the simulator (engagement/bluesky*.test.ts).
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AtpAgent } from '@atproto/api';
import { blueskyAdapter } from '../../src/platforms/bluesky/index.ts';
import type { Comments, Engagement } from '../../src/platforms/engagement.ts';
import type { Publisher } from '../../src/platforms/publishing.ts';
import type { TokenSet } from '../../src/platforms/types.ts';
import { PlatformError } from '../../src/platforms/types.ts';
import { startLocalPds } from '../helpers/bluesky-pds.ts';
import type { LocalPds, PdsAccount } from '../helpers/bluesky-pds.ts';
import { configuredHttp } from '../helpers/platform-http.ts';

const POST = 'app.bsky.feed.post';
let pds: LocalPds;
let herald: PdsAccount;
let commenter: PdsAccount;
let heraldAgent: AtpAgent;
let commenterAgent: AtpAgent;
let engagement: Engagement;
let comments: Comments;
let publisher: Publisher;
let tokens: TokenSet;

const journal = () => {
  const steps: Record<string, string> = {};
  return { steps, record: async (step: string, value: string) => void (steps[step] = value) };
};

async function publish(text: string): Promise<{ uri: string; cid: string }> {
  const out = await publisher.publish(
    tokens,
    { postType: 'text', text, media: [], options: {}, targetId: `tgt_${Math.random().toString(36).slice(2)}` },
    journal(),
  );
  if (out.state !== 'published') throw new Error('not published');
  const rkey = out.postId.split('/').pop()!;
  const record = await heraldAgent.com.atproto.repo.getRecord({ repo: herald.did, collection: POST, rkey });
  return { uri: out.postId, cid: String(record.data.cid) };
}

/** A record of `account`'s repo as the PDS stores it. */
async function recordOf(
  agent: AtpAgent,
  account: PdsAccount,
  uri: string,
): Promise<{ cid: string; value: Record<string, unknown> }> {
  const res = await agent.com.atproto.repo.getRecord({
    repo: account.did,
    collection: POST,
    rkey: uri.split('/').pop()!,
  });
  return { cid: String(res.data.cid), value: res.data.value as Record<string, unknown> };
}

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

beforeAll(async () => {
  pds = await startLocalPds();
  herald = await pds.createAccount();
  commenter = await pds.createAccount();
  heraldAgent = await pds.agentFor(herald);
  commenterAgent = await pds.agentFor(commenter);
  const logger = pino({ level: 'silent' });
  const urls = { service: pds.url, plc: pds.plcUrl };
  const adapter = blueskyAdapter({
    http: configuredHttp(logger, urls, { timeoutMs: 15_000 }),
    config: { urls },
    clock: () => new Date(),
    logger,
  });
  if (adapter.auth.kind !== 'app_password' || !adapter.publisher || !adapter.engagement?.comments)
    throw new Error('Bluesky adapter without its read side');
  tokens = await adapter.auth.login({ handle: herald.handle, appPassword: await pds.createAppPassword(herald) });
  publisher = adapter.publisher;
  engagement = adapter.engagement;
  comments = adapter.engagement.comments;
});

afterAll(async () => {
  await pds?.stop();
});

describe('bluesky engagement (real local PDS, no AppView)', () => {
  it("answers another account's comment with root and parent strong refs read from the commenter's repo", async () => {
    const post = await publish('Herald post to comment on');
    // The second account comments, as the Bluesky app would: a post in its own repo with reply refs.
    const comment = await commenterAgent.post({
      text: 'A comment from another account',
      reply: { root: post, parent: post },
      createdAt: new Date().toISOString(),
    });
    expect(comment.uri.startsWith(`at://${commenter.did}/${POST}/`)).toBe(true);

    // Herald has only the comment's id (its at:// URI): the adapter reads the CID and root from the commenter's repo.
    const { replyId } = await comments.reply(tokens, {
      postId: post.uri,
      commentId: comment.uri,
      text: 'Thanks for the comment!',
    });
    expect(replyId.startsWith(`at://${herald.did}/${POST}/`)).toBe(true);
    const reply = await recordOf(heraldAgent, herald, replyId);
    expect(reply.value).toMatchObject({
      $type: POST,
      text: 'Thanks for the comment!',
      reply: { root: { uri: post.uri, cid: post.cid }, parent: { uri: comment.uri, cid: comment.cid } },
    });

    // The commenter answers Herald's reply; Herald answers that with the refs the list would have given: the root stays
    // Herald's post, the parent is the commenter's second reply.
    const again = await commenterAgent.post({
      text: 'One more question',
      reply: { root: post, parent: { uri: replyId, cid: reply.cid } },
      createdAt: new Date().toISOString(),
    });
    const second = await comments.reply(tokens, {
      postId: post.uri,
      commentId: again.uri,
      refs: { cid: again.cid, rootUri: post.uri, rootCid: post.cid },
      text: 'Answered!',
    });
    expect((await recordOf(heraldAgent, herald, second.replyId)).value.reply).toEqual({
      root: { uri: post.uri, cid: post.cid },
      parent: { uri: again.uri, cid: again.cid },
    });

    // Without refs, a reply to a reply takes the thread's root from the record, not the parent.
    const third = await comments.reply(tokens, { postId: post.uri, commentId: again.uri, text: 'And again.' });
    expect((await recordOf(heraldAgent, herald, third.replyId)).value.reply).toEqual({
      root: { uri: post.uri, cid: post.cid },
      parent: { uri: again.uri, cid: again.cid },
    });
  });

  it('the PDS refuses a reply over 300 graphemes; a comment that does not exist is not found', async () => {
    const post = await publish('Limits');
    const comment = await commenterAgent.post({
      text: 'Hi',
      reply: { root: post, parent: post },
      createdAt: new Date().toISOString(),
    });
    const tooLong = await failure(
      comments.reply(tokens, { postId: post.uri, commentId: comment.uri, text: 'x'.repeat(301) }),
    );
    expect(tooLong.kind).toBe('invalid_content');
    // 300 emoji are 300 graphemes (1200 bytes): within both limits.
    await comments.reply(tokens, { postId: post.uri, commentId: comment.uri, text: '🙂'.repeat(300) });
    const gone = await failure(
      comments.reply(tokens, {
        postId: post.uri,
        commentId: `at://${commenter.did}/${POST}/3kaaaaaaaaaaa`,
        text: 'Hello?',
      }),
    );
    expect(gone.kind).toBe('not_found');
  });

  it('without an AppView, the thread cannot be read: the adapter says why', async () => {
    const post = await publish('Thread');
    await commenterAgent.post({
      text: 'Hello',
      reply: { root: post, parent: post },
      createdAt: new Date().toISOString(),
    });
    const err = await failure(comments.list(tokens, { postId: post.uri, limit: 10 }));
    expect(err.kind).toBe('unsupported');
    expect(err.message).toMatch(/no AppView/);
    // What the PDS itself answered.
    expect(String((err.cause as Error | undefined)?.message)).toMatch(/^Bluesky: No service configured/);
    expect((await failure(comments.replies(tokens, { postId: post.uri, commentId: post.uri, limit: 10 }))).kind).toBe(
      'unsupported',
    );
  });

  it('lists posts from the repo (newest first, without replies or numbers), reads one, and deletes it', async () => {
    const older = await publish('Older post');
    const newer = await publish('Newer post');
    const comment = await commenterAgent.post({
      text: 'Hi',
      reply: { root: newer, parent: newer },
      createdAt: new Date().toISOString(),
    });
    await comments.reply(tokens, {
      postId: newer.uri,
      commentId: comment.uri,
      text: 'A reply is not a post of the read model',
    });
    const listed = await engagement.listPosts(tokens, { limit: 2 });
    expect(listed.map((p) => [p.postId, p.commentary])).toEqual([
      [newer.uri, 'Newer post'],
      [older.uri, 'Older post'],
    ]);
    expect(listed[0]).toMatchObject({
      type: 'text',
      metrics: { likes: 0, comments: 0, shares: 0, impressions: 0 },
      permalink: `https://bsky.app/profile/${herald.handle}/post/${newer.uri.split('/').pop()}`,
    });
    expect(await engagement.getPost(tokens, { postId: older.uri })).toMatchObject({
      postId: older.uri,
      commentary: 'Older post',
    });
    await engagement.deletePost!(tokens, { postId: older.uri });
    expect(await engagement.getPost(tokens, { postId: older.uri })).toBeNull();
    // Another account's post is not Herald's to delete.
    expect((await failure(engagement.deletePost!(tokens, { postId: comment.uri }))).kind).toBe('permission');
  });
});
