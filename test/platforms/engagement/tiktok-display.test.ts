// TikTok's own rules on the read side, against its simulator: the Display API shows public video posts only (a
// SELF_ONLY post has no public id and cannot be read), pages 20 at a time on a create_time cursor, needs the
// video.list scope, and TikTok offers neither comments nor deletion.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engagement } from '../../../src/platforms/engagement.ts';
import { TIKTOK_SCOPES } from '../../../src/platforms/tiktok/auth.ts';
import type { AccountIdentity, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import { SANDBOX_APPS } from '../../../src/sandbox/index.ts';
import { startSandbox } from '../../helpers/sandbox.ts';
import { codeFrom, json, postForm, withQuery } from '../../sandbox/helpers.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import { expectPlatformError } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { PROFILES } from '../contract/profiles.ts';
import { publishThrough, sampleRequest } from '../contract/sample-post.ts';

const profile = PROFILES.tiktok;
let sb: TestSandbox;
let adapter: PlatformAdapter;
let engagement: Engagement;
let tokens: TokenSet;
let account: AccountIdentity;

async function publish(text: string, n: number, privacy = 'PUBLIC_TO_EVERYONE'): Promise<string> {
  const req = {
    ...(await sampleRequest(sb, profile, account, 'video', text, `tgt_tt_${n}`)),
    options: { privacy_level: privacy },
  };
  const out = await publishThrough(sb, publisherOf(adapter), () => tokens, req, memoryJournal());
  if (out.state !== 'published') throw new Error('the video did not publish');
  return out.postId;
}

const api = (path: string, body: unknown, token = tokens.accessToken) =>
  fetch(sb.url('tiktok', path), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.lenient('tiktok_unaudited', 'tiktok_unverified_domain');
  await sb.configure({ processingMs: 0 });
  adapter = profile.adapter(sb);
  engagement = adapter.engagement!;
  tokens = await profile.connect(sb, adapter);
  account = await adapter.fetchAccount(tokens);
});

describe('tiktok engagement: the Display API', () => {
  it('Herald asks for video.list; without it the reads are refused as a permission TikTok did not grant', async () => {
    expect(TIKTOK_SCOPES).toContain('video.list');
    expect(tokens.scopes).toContain('video.list');
    // An account connected before Herald asked for video.list.
    const app = SANDBOX_APPS.tiktok;
    const code = await codeFrom(
      withQuery(sb.url('tiktok', '/v2/auth/authorize/'), {
        client_key: app.clientId,
        response_type: 'code',
        scope: 'user.info.basic,video.publish,video.upload',
        redirect_uri: sb.callback('tiktok'),
        state: 's',
      }),
    );
    const old = await json(
      await postForm(sb.url('tiktok', '/v2/oauth/token/'), {
        client_key: app.clientId,
        client_secret: app.clientSecret,
        code,
        grant_type: 'authorization_code',
        redirect_uri: sb.callback('tiktok'),
      }),
    );
    const err = await expectPlatformError(
      engagement.listPosts({ accessToken: String(old.access_token) }, { limit: 5 }),
      'permission',
      [String(old.access_token)],
    );
    expect(err.code).toBe('scope_not_authorized');
    // When the connection recorded what was granted, the adapter says so before calling TikTok.
    const before = (await sb.state('tiktok')).requests.length;
    const told = await expectPlatformError(
      engagement.getPost(
        { accessToken: String(old.access_token), scopes: String(old.scope).split(',') },
        { postId: '7123456789012345678' },
      ),
      'permission',
    );
    expect(told.message).toMatch(/reconnect TikTok/);
    expect((await sb.state('tiktok')).requests).toHaveLength(before);
  });

  it('lists public videos only, newest first, with views as impressions; a private post has no public id', async () => {
    const older = await publish('Public older', 1);
    sb.advance(60);
    const hidden = await publish('Private one', 2, 'SELF_ONLY');
    sb.advance(60);
    const newer = await publish('Public newer', 3);
    expect(older).toMatch(/^\d{19}$/);
    expect(hidden).not.toMatch(/^\d+$/);
    await sb.control('POST', '_seed', {
      platform: 'tiktok',
      post_id: newer,
      metrics: { likes: 4, comments: 3, shares: 2, impressions: 90 },
    });
    const listed = await engagement.listPosts(tokens, { limit: 10 });
    expect(listed.map((p) => p.postId)).toEqual([newer, older]);
    expect(listed[0]).toMatchObject({
      commentary: 'Public newer',
      type: 'video',
      permalink: sb.url('tiktok', `/@${account.username}/video/${newer}`),
      metrics: { likes: 4, comments: 3, shares: 2, impressions: 90 },
    });
    expect(listed[0]!.video?.thumbnailUrl).toMatch(/^https:\/\//);
    // Seeding finds a private post by its publish_id, but TikTok's read APIs cannot see it.
    expect(
      (await sb.control('POST', '_seed', { platform: 'tiktok', post_id: hidden, metrics: { likes: 1 } })).status,
    ).toBe(201);
    await expectPlatformError(engagement.getPost(tokens, { postId: hidden }), 'unsupported');
    const list = (await sb.state('tiktok')).requests.find((r) => r.path.endsWith('/v2/video/list/'));
    expect(String(list?.query.fields)).toContain('view_count');
  });

  it('pages on the create_time cursor, 20 at most per page', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      ids.push(await publish(`Video ${n}`, n));
      sb.advance(60);
    }
    const fields = '?fields=id,create_time';
    const first = (await (await api(`/v2/video/list/${fields}`, { max_count: 2 })).json()) as {
      data: { videos: { id: string; create_time: number }[]; cursor: number; has_more: boolean };
    };
    expect(first.data.videos.map((v) => v.id)).toEqual([ids[2], ids[1]]);
    expect(first.data).toMatchObject({ has_more: true, cursor: first.data.videos[1]!.create_time * 1000 });
    const second = (await (
      await api(`/v2/video/list/${fields}`, { max_count: 2, cursor: first.data.cursor })
    ).json()) as { data: { videos: { id: string }[]; has_more: boolean } };
    expect([second.data.videos.map((v) => v.id), second.data.has_more]).toEqual([[ids[0]], false]);
    expect((await api(`/v2/video/list/${fields}`, { max_count: 21 })).status).toBe(400);
    expect((await api('/v2/video/list/', { max_count: 2 })).status).toBe(400);
    expect(
      (
        await api(`/v2/video/query/${fields}`, {
          filters: { video_ids: Array.from({ length: 21 }, (_, i) => String(i)) },
        })
      ).status,
    ).toBe(400);
    expect((await engagement.listPosts(tokens, { limit: 2 })).map((p) => p.postId)).toEqual([ids[2], ids[1]]);
  });

  it('a video that is gone reads as null; there are no comments and no deletion, and both say why', async () => {
    expect(await engagement.getPost(tokens, { postId: '7123456789012345678' })).toBeNull();
    expect(engagement.comments).toBeUndefined();
    expect(engagement.commentsUnavailable).toMatch(/Research API/);
    expect(engagement.deletePost).toBeUndefined();
    expect(engagement.deleteUnavailable).toMatch(/TikTok app/);
  });
});
