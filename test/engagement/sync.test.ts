// The background comment sync: a round reads the comments of each eligible workspace's recent posts into the
// database (so the inbox answers without calling the network), skips workspaces whose plan has no inbox, stops a
// network for the round when it throttles, and runs as a pg-boss job when started as `herald serve` starts it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect, fault } from '../connections/helpers.ts';
import { endToEnd } from '../publishing/end-to-end.ts';
import { poll } from '../helpers/poll.ts';
import { RESTRICTED_PLAN, restrictedPlansFile } from '../helpers/security-matrix.ts';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let h: Harness;
beforeAll(async () => {
  const plansFile = join(tmpdir(), `herald-sync-plans-${process.pid}.json`);
  writeFileSync(plansFile, JSON.stringify(restrictedPlansFile));
  h = await createHarness({
    sandbox: true,
    clock: () => new Date(),
    env: {
      HERALD_POSTS_FRESH_SECONDS: '3600',
      HERALD_COMMENTS_FRESH_SECONDS: '3600',
      HERALD_COMMENT_SYNC_INTERVAL_SECONDS: '1',
      HERALD_PLANS_FILE: plansFile,
      HERALD_ENGAGEMENT_CONCURRENCY: '1',
    },
  });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0 }),
  });
}, 60_000);
afterAll(async () => h?.close());

const { media, state } = endToEnd(() => h);
type Requests = Record<string, { requests: { path: string }[]; comments: { postId: string }[] }>;
const commentReads = async () =>
  ((await state()) as unknown as Requests).youtube!.requests.filter((r) => r.path.endsWith('/commentThreads')).length;

async function seed(body: Record<string, unknown>): Promise<string[]> {
  const res = await fetch(`${h.url}/sandbox/_seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`seed refused: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { comment_ids: string[] }).comment_ids;
}

async function workspaceWithComments(comments: number): Promise<{ u: TestUser; videoId: string }> {
  const u = await h.signup();
  await connect(h, u, 'youtube');
  const video = await media(u, 'mp4');
  const res = await h.req({
    method: 'POST',
    url: '/unified/post/video',
    headers: asUser(u),
    payload: {
      platforms: ['youtube'],
      default_text: 'Sync me',
      video_id: video,
      youtube: { youtube_title: 'Synced video' },
    },
  });
  expect(res.json().success, res.body).toBe(true);
  const videoId = res.json().post.post_id as string;
  await seed({
    platform: 'youtube',
    post_id: videoId,
    comments: Array.from({ length: comments }, (_, i) => ({ text: `Comment ${i + 1}` })),
  });
  return { u, videoId };
}

const storedComments = async (u: TestUser, videoId: string) => {
  const res = await h.req({ method: 'GET', url: '/unified/comments/?platforms=youtube', headers: asUser(u) });
  return (
    (res.json().youtube.posts as { post_id: string; comments: unknown[] }[]).find((p) => p.post_id === videoId)
      ?.comments ?? []
  ).length;
};

describe('comment sync rounds', () => {
  it('fills the inbox so that reading it calls no network; a workspace without the inbox plan is skipped', async () => {
    const { u, videoId } = await workspaceWithComments(3);
    const restricted = await workspaceWithComments(2);
    await h.setPlan(restricted.u.workspaceId, RESTRICTED_PLAN);
    const before = await commentReads();
    const round = await h.ctx.commentSync.round();
    expect(round.failures).toBe(0);
    expect(round.workspaces).toBe(1);
    expect(
      await h.ctx.engagement.sync.storedCommentCount(restricted.u.workspaceId, 'youtube', restricted.videoId),
    ).toBe(0);
    // Only the eligible workspace's post was read (one comment-thread call per post).
    expect((await commentReads()) - before).toBe(round.posts);
    const afterRound = await commentReads();
    expect(await storedComments(u, videoId)).toBe(3);
    expect(await commentReads()).toBe(afterRound);
  });

  it('writes comment.received once per new comment, and the upload behind the post was media.processed', async () => {
    const { u, videoId } = await workspaceWithComments(2);
    await h.ctx.commentSync.round();
    await h.ctx.engagement.sync.syncWorkspace(u.workspaceId);
    const events = async (type: string) =>
      (await h.req({ method: 'GET', url: `/events?type=${type}&order=asc`, headers: asUser(u) })).json().events as {
        platform: string | null;
        data: Record<string, unknown>;
      }[];
    // The sandbox channel is shared by this file's workspaces: the other posts' comments are new here too.
    const all = await events('comment.received');
    const comments = all.filter((e) => e.data.platform_post_id === videoId);
    expect(comments.map((e) => e.data.text).sort()).toEqual(['Comment 1', 'Comment 2']);
    expect(new Set(all.map((e) => e.data.comment_id)).size).toBe(all.length);
    for (const e of comments) expect(e.platform).toBe('youtube');
    const media = await events('media.processed');
    expect(media.map((e) => [e.data.kind, e.data.status])).toEqual([['video', 'ready']]);
  });

  it('a network that throttles stops for the round instead of being called for every post', async () => {
    const { u } = await workspaceWithComments(1);
    // A second post for the same workspace, so there is more than one call to make.
    const video = await media(u, 'mp4');
    await h.req({
      method: 'POST',
      url: '/unified/post/video',
      headers: asUser(u),
      payload: { platforms: ['youtube'], default_text: 'Two', video_id: video, youtube: { youtube_title: 'Second' } },
    });
    await h.req({ method: 'GET', url: '/unified/posts/?platforms=youtube&refresh_posts=true', headers: asUser(u) });
    const sync = h.ctx.engagement.sync;
    await fault(h, { platform: 'youtube', operation: 'comments', fault: 'rate_limit', times: 100 });
    const before = await commentReads();
    const r = await sync.syncWorkspace(u.workspaceId);
    await fetch(`${h.url}/sandbox/_faults`, { method: 'DELETE' });
    expect(r.posts).toBeGreaterThanOrEqual(2);
    expect(r.failures).toBe(1);
    // One call per network at a time (HERALD_ENGAGEMENT_CONCURRENCY=1): the first throttled answer ends the round.
    expect((await commentReads()) - before).toBe(1);
  });

  it('runs as a pg-boss job once started, as `herald serve` starts it', { timeout: 60_000 }, async () => {
    const { u, videoId } = await workspaceWithComments(4);
    await h.ctx.scheduleQueue!.start();
    h.ctx.commentSync.start();
    await poll(
      () => storedCommentsQuietly(u, videoId),
      (n) => n === 4,
      { timeoutMs: 45_000 },
    );
  });
});

/** The stored count without triggering a read of the network: only the database is asked (comments are fresh for an hour once synced). */
async function storedCommentsQuietly(u: TestUser, videoId: string): Promise<number> {
  const rows = await h.ctx.engagement.sync.storedCommentCount(u.workspaceId, 'youtube', videoId);
  return rows;
}
