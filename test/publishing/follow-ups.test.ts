// A post the network publishes before giving it its final id (TikTok: the public id comes after moderation,
// sometimes hours later) is answered under its stand-in, marked provisional, and replaced by its final id and
// permalink by the follow-up round once the network has them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { endToEnd } from './end-to-end.ts';

let offsetMs = 0;
let h: Harness;
beforeAll(async () => {
  // One clock for Herald and the simulators, moved on by the test: TikTok's moderation and Herald's wait for it.
  h = await createHarness({
    sandbox: true,
    clock: () => new Date(Date.now() + offsetMs),
    env: { HERALD_PUBLISH_POLL_MS: '50', HERALD_PUBLISH_WAIT_SECONDS: '900' },
  });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0, tiktokModerationMs: 3_600_000 }),
  });
});
afterAll(async () => h?.close());

const { media } = endToEnd(() => h);

/** The one TikTok target of a workspace. */
async function targetOf(workspaceId: string): Promise<string> {
  const rows = await h.ctx.publishing.ledger.provisional('herald.follow_up', new Date(0), 100);
  const mine = rows.find((r) => r.workspaceId === workspaceId && r.platform === 'tiktok');
  if (!mine) throw new Error('no provisional TikTok target');
  return mine.id;
}

describe('provisional post ids', () => {
  it('a public TikTok video still in moderation is published under its publish_id, then gets its public id and link', async () => {
    const u = await h.signup();
    await connect(h, u, 'tiktok');
    const video = await media(u, 'mp4');
    // Herald waits a minute of its clock for the public id; the test's clock runs 20 s per 50 ms meanwhile.
    const ticker = setInterval(() => (offsetMs += 20_000), 50);
    let res: Awaited<ReturnType<typeof h.req>>;
    try {
      res = await h.req({
        method: 'POST',
        url: '/unified/post/video',
        headers: asUser(u),
        payload: {
          platforms: ['tiktok'],
          default_text: 'In moderation',
          video_id: video,
          tiktok: { privacy_level: 'PUBLIC_TO_EVERYONE' },
        },
      });
    } finally {
      clearInterval(ticker);
    }
    const body = res.json();
    expect(body.success, res.body).toBe(true);
    const stand = body.post.post_id as string;
    expect(body.post.permalink).toBeNull();
    expect(body.message ?? JSON.stringify(body)).toMatch(/public id/);

    const targetId = await targetOf(u.workspaceId);
    // Still in moderation: nothing changes.
    expect(await h.ctx.followUps.round()).toEqual({ checked: 1, updated: 0 });
    offsetMs += 2 * 3_600_000;
    expect(await h.ctx.followUps.round()).toEqual({ checked: 1, updated: 1 });
    const target = await h.ctx.publishing.ledger.target(targetId);
    expect(target!.platformPostId).not.toBe(stand);
    expect(target!.platformPostId).toMatch(/^\d+$/);
    expect(target!.permalink).toMatch(
      new RegExp(`^http://[^/]+/sandbox/tiktok/@[^/]+/video/${target!.platformPostId}$`),
    );
    // Nothing left to follow up.
    expect(await h.ctx.followUps.round()).toEqual({ checked: 0, updated: 0 });
  });
});
