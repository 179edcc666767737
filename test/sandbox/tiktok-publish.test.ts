import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { codeFrom, json, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { Json } from './helpers.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { fixture, objects, sendJson } from './publish-helpers.ts';
import { poll } from '../helpers/poll.ts';

let sb: TestSandbox;
let token = '';
const MiB = 1024 * 1024;

async function connect(scope = 'user.info.basic,video.publish,video.upload', user?: string): Promise<string> {
  const app = SANDBOX_APPS.tiktok;
  const code = await codeFrom(
    withQuery(sb.url('tiktok', '/v2/auth/authorize/'), {
      client_key: app.clientId,
      response_type: 'code',
      scope,
      redirect_uri: sb.callback('tiktok'),
      state: 's',
    }),
    user ? { 'x-sandbox-user': user } : {},
  );
  const body = await json(
    await postForm(sb.url('tiktok', '/v2/oauth/token/'), {
      client_key: app.clientId,
      client_secret: app.clientSecret,
      code,
      grant_type: 'authorization_code',
      redirect_uri: sb.callback('tiktok'),
    }),
  );
  return String(body.access_token);
}

const auth = (t = token) => ({ authorization: `Bearer ${t}` });
const api = (path: string, body: unknown, t = token) =>
  sendJson(sb.url('tiktok', path), body, { ...auth(t), 'content-type': 'application/json; charset=UTF-8' });
const direct = (
  sourceInfo: Record<string, unknown>,
  postInfo: Record<string, unknown> = { title: 'Clip #fun', privacy_level: 'PUBLIC_TO_EVERYONE' },
) => api('/v2/post/publish/video/init/', { post_info: postInfo, source_info: sourceInfo });
const status = async (publishId: string) => {
  const res = await api('/v2/post/publish/status/fetch/', { publish_id: publishId });
  const raw = await res.text();
  return { raw, body: JSON.parse(raw) as Json };
};
const put = (url: string, bytes: Buffer, range: string, type = 'video/mp4') =>
  fetch(url, { method: 'PUT', headers: { 'content-type': type, 'content-range': range }, body: bytes });

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { tiktok: 40 } });
  token = await connect();
});

describe('tiktok content posting', () => {
  it('answers creator_info with the privacy options, and needs video.publish', async () => {
    // All four levels: an audited app, and the lenient sandbox's creator (no real account is offered all four).
    await sb.lenient('tiktok_unaudited', 'tiktok_privacy_options');
    const info = await json(await api('/v2/post/publish/creator_info/query/', undefined));
    expect(info).toMatchObject({
      data: { creator_username: 'sandbox.user', max_video_post_duration_sec: 600 },
      error: { code: 'ok' },
    });
    expect((info.data as Json).privacy_level_options).toEqual([
      'PUBLIC_TO_EVERYONE',
      'MUTUAL_FOLLOW_FRIENDS',
      'FOLLOWER_OF_CREATOR',
      'SELF_ONLY',
    ]);
    const basic = await connect('user.info.basic');
    const refused = await api('/v2/post/publish/creator_info/query/', undefined, basic);
    expect(refused.status).toBe(401);
    expect(await json(refused)).toMatchObject({ error: { code: 'scope_not_authorized' } });
    expect((await api('/v2/post/publish/creator_info/query/', undefined, 'act.nope')).status).toBe(401);
  });

  it('uploads a small file in one chunk and reports PUBLISH_COMPLETE with the int64 post id', async () => {
    await sb.lenient('tiktok_unaudited'); // posts PUBLIC_TO_EVERYONE
    const size = MiB;
    const init = await json(
      await direct({ source: 'FILE_UPLOAD', video_size: size, chunk_size: size, total_chunk_count: 1 }),
    );
    const { publish_id: publishId, upload_url: uploadUrl } = init.data as Json;
    expect(String(publishId)).toMatch(/^v_pub_file~v2-1\.\d{19}$/);
    expect((await status(String(publishId))).body).toMatchObject({
      data: { status: 'PROCESSING_UPLOAD', uploaded_bytes: 0 },
    });
    const file = fixture.mp4(size);
    const wrong = await put(String(uploadUrl), file, `bytes 0-${size - 1}/${size + 1}`);
    expect(wrong.status).toBe(416);
    expect((await put(String(uploadUrl), file, `bytes 0-${size - 1}/${size}`)).status).toBe(201);
    const done = await poll(
      () => status(String(publishId)),
      (s) => String((s.body.data as Json).status) === 'PUBLISH_COMPLETE',
    );
    const posts = await objects(sb, 'tiktok', 'posts');
    expect(posts).toHaveLength(1);
    const postId = String(posts[0]?.id);
    expect(postId).toMatch(/^7\d{18}$/);
    expect(done.raw).toContain(`"publicaly_available_post_id":[${postId}]`);
    expect(posts[0]).toMatchObject({
      text: 'Clip #fun',
      permalink: sb.url('tiktok', `/@sandbox.user/video/${postId}`),
      publishId,
    });
  });

  it('enforces the chunk rules at init and the Content-Range of every chunk', async () => {
    await sb.lenient('tiktok_unaudited'); // posts PUBLIC_TO_EVERYONE
    const bad = async (info: Record<string, unknown>) =>
      (await json(await direct({ source: 'FILE_UPLOAD', ...info }))).error as Json;
    expect(await bad({ video_size: 12 * MiB, chunk_size: 5 * MiB, total_chunk_count: 3 })).toMatchObject({
      code: 'invalid_params',
    });
    expect(await bad({ video_size: 12 * MiB, chunk_size: 4 * MiB, total_chunk_count: 3 })).toMatchObject({
      code: 'invalid_params',
    });
    expect(await bad({ video_size: 3 * MiB, chunk_size: MiB, total_chunk_count: 3 })).toMatchObject({
      code: 'invalid_params',
    });
    expect(await bad({ video_size: 70 * MiB, chunk_size: 64 * MiB, total_chunk_count: 1 })).toMatchObject({
      code: 'invalid_params',
    });
    expect(await bad({ video_size: 12 * MiB })).toMatchObject({ code: 'invalid_params' });

    const size = 12 * MiB + 7;
    const chunk = 5 * MiB;
    const init = await json(
      await direct({ source: 'FILE_UPLOAD', video_size: size, chunk_size: chunk, total_chunk_count: 2 }),
    );
    const { upload_url: url, publish_id: publishId } = init.data as Json;
    const file = fixture.mp4(size);
    expect((await put(String(url), file.subarray(chunk), `bytes ${chunk}-${size - 1}/${size}`)).status).toBe(416);
    expect(
      (await put(String(url), file.subarray(0, chunk), `bytes 0-${chunk - 1}/${size}`, 'application/octet-stream'))
        .status,
    ).toBe(400);
    expect((await put(String(url), file.subarray(0, chunk - 1), `bytes 0-${chunk - 1}/${size}`)).status).toBe(400);
    expect((await put(String(url), file.subarray(0, chunk), `bytes 0-${chunk - 1}/${size}`)).status).toBe(206);
    expect((await status(String(publishId))).body).toMatchObject({
      data: { status: 'PROCESSING_UPLOAD', uploaded_bytes: chunk },
    });
    // The last chunk carries the remainder: bytes 5 MiB to the end, not two 5 MiB chunks plus a tail.
    expect(
      (await put(String(url), file.subarray(chunk, 2 * chunk), `bytes ${chunk}-${2 * chunk - 1}/${size}`)).status,
    ).toBe(416);
    expect((await put(String(url), file.subarray(chunk), `bytes ${chunk}-${size - 1}/${size}`)).status).toBe(201);
    await poll(
      () => status(String(publishId)),
      (s) => String((s.body.data as Json).status) === 'PUBLISH_COMPLETE',
    );
  });

  it('offers each creator its own privacy levels, and refuses a direct post with one it was not offered', async () => {
    // The lenient sandbox's per-key sets, from an audited app (strict tiktok_privacy_options has its own test).
    await sb.lenient('tiktok_unaudited', 'tiktok_privacy_options', 'tiktok_unverified_domain');
    const offered = async (t: string) =>
      ((await json(await api('/v2/post/publish/creator_info/query/', undefined, t))).data as Json)
        .privacy_level_options;
    const unaudited = await connect(undefined, 'unaudited-creator');
    const privateOne = await connect(undefined, 'private-creator');
    expect(await offered(unaudited)).toEqual(['SELF_ONLY']);
    expect(await offered(privateOne)).toEqual(['FOLLOWER_OF_CREATOR', 'SELF_ONLY']);
    expect(await offered(await connect(undefined, 'friends-only-creator'))).toEqual([
      'MUTUAL_FOLLOW_FRIENDS',
      'SELF_ONLY',
    ]);
    const source = { source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/media/v.mp4` };
    const init = (t: string, privacy_level: string) =>
      api('/v2/post/publish/video/init/', { post_info: { title: 'Clip', privacy_level }, source_info: source }, t);
    const refused = await init(unaudited, 'PUBLIC_TO_EVERYONE');
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({ error: { code: 'privacy_level_option_mismatch' } });
    expect((await init(privateOne, 'MUTUAL_FOLLOW_FRIENDS')).status).toBe(403);
    expect((await init(privateOne, 'FOLLOWER_OF_CREATOR')).status).toBe(200);
    expect((await init(unaudited, 'SELF_ONLY')).status).toBe(200);
  });

  it('strict tiktok_privacy_options: offers the levels TikTok documents per account kind and refuses any other', async () => {
    await sb.configure({
      strict: { tiktok_privacy_options: true, tiktok_unaudited: false, tiktok_unverified_domain: false },
    });
    const offered = async (t: string) =>
      ((await json(await api('/v2/post/publish/creator_info/query/', undefined, t))).data as Json)
        .privacy_level_options;
    const privateOne = await connect(undefined, 'private-creator');
    // A public account has no FOLLOWER_OF_CREATOR, a private one no PUBLIC_TO_EVERYONE; no creator is offered all four.
    expect(await offered(token)).toEqual(['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']);
    expect(await offered(privateOne)).toEqual(['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']);
    expect(await offered(await connect(undefined, 'friends-only-creator'))).toEqual([
      'MUTUAL_FOLLOW_FRIENDS',
      'SELF_ONLY',
    ]);
    const source = { source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/media/v.mp4` };
    const init = (t: string, privacy_level: string) =>
      api('/v2/post/publish/video/init/', { post_info: { title: 'Clip', privacy_level }, source_info: source }, t);
    const followers = await init(token, 'FOLLOWER_OF_CREATOR');
    expect(followers.status).toBe(403);
    expect(await json(followers)).toMatchObject({ error: { code: 'privacy_level_option_mismatch' } });
    expect((await init(privateOne, 'PUBLIC_TO_EVERYONE')).status).toBe(403);
    expect((await init(privateOne, 'MUTUAL_FOLLOW_FRIENDS')).status).toBe(200);
    expect((await init(token, 'PUBLIC_TO_EVERYONE')).status).toBe(200);
    // Photo posts are held to the same options.
    const photo = await api('/v2/post/publish/content/init/', {
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: { privacy_level: 'FOLLOWER_OF_CREATOR' },
      source_info: { source: 'PULL_FROM_URL', photo_images: [`${sb.publicUrl}/m/1.jpg`] },
    });
    expect(await json(photo)).toMatchObject({ error: { code: 'privacy_level_option_mismatch' } });
  });

  it('strict rate_limits: per access token and minute, 6 inits, 20 creator_info and 30 status/fetch calls, then 429 rate_limit_exceeded', async () => {
    await sb.configure({ strict: { rate_limits: true, tiktok_unverified_domain: false } });
    const source = { source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/media/v.mp4` };
    const init = (t = token) =>
      api(
        '/v2/post/publish/video/init/',
        { post_info: { title: 'Clip', privacy_level: 'SELF_ONLY' }, source_info: source },
        t,
      );
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(String(((await json(await init())).data as Json).publish_id));
    const seventh = await init();
    expect(seventh.status).toBe(429);
    expect(await json(seventh)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    // Another creator's token has its own budget.
    expect((await init(await connect(undefined, 'second-creator'))).status).toBe(200);
    for (let i = 0; i < 30; i++)
      expect((await api('/v2/post/publish/status/fetch/', { publish_id: ids[i % 6] })).status).toBe(200);
    expect((await api('/v2/post/publish/status/fetch/', { publish_id: ids[0] })).status).toBe(429);
    for (let i = 0; i < 20; i++)
      expect((await api('/v2/post/publish/creator_info/query/', undefined)).status).toBe(200);
    expect((await api('/v2/post/publish/creator_info/query/', undefined)).status).toBe(429);
    sb.advance(60);
    expect((await api('/v2/post/publish/status/fetch/', { publish_id: ids[0] })).status).toBe(200);
    expect((await init()).status).toBe(200);
  });

  it('gives a public post its id only after moderation (_config.tiktokModerationMs), a SELF_ONLY one never', async () => {
    await sb.lenient('tiktok_unaudited', 'tiktok_unverified_domain', 'public_media_only'); // pulls from made-up paths, judged by name
    await sb.configure({ processingMs: { tiktok: 0 }, tiktokModerationMs: 30_000 });
    const pulled = await json(await direct({ source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/media/v.mp4` }));
    const id = String((pulled.data as Json).publish_id);
    const before = await status(id);
    expect(before.body).toMatchObject({ data: { status: 'PUBLISH_COMPLETE' } });
    expect(before.raw).toContain('"publicaly_available_post_id":[]');
    sb.advance(30);
    const postId = String((await objects(sb, 'tiktok', 'posts'))[0]?.id);
    expect((await status(id)).raw).toContain(`"publicaly_available_post_id":[${postId}]`);
    const own = await json(
      await direct(
        { source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/media/w.mp4` },
        { privacy_level: 'SELF_ONLY' },
      ),
    );
    sb.advance(60);
    expect((await status(String((own.data as Json).publish_id))).raw).toContain('"publicaly_available_post_id":[]');
  });

  it('pulls from verified URLs only; privacy must be one of the creator options; bad files fail', async () => {
    // An audited app with its media domain verified; videos on made-up paths, judged by their names.
    await sb.lenient('tiktok_unaudited', 'tiktok_unverified_domain', 'public_media_only');
    const unverified = await direct({ source: 'PULL_FROM_URL', video_url: 'https://elsewhere.example/v.mp4' });
    expect(unverified.status).toBe(403);
    expect(await json(unverified)).toMatchObject({ error: { code: 'url_ownership_unverified' } });
    const mismatch = await direct(
      { source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/media/v.mp4` },
      { privacy_level: 'EVERYONE' },
    );
    expect(mismatch.status).toBe(403);
    expect(await json(mismatch)).toMatchObject({ error: { code: 'privacy_level_option_mismatch' } });
    expect(
      await json(
        await direct(
          { source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/v.mp4` },
          { privacy_level: 'SELF_ONLY', title: 'x'.repeat(2201) },
        ),
      ),
    ).toMatchObject({ error: { code: 'invalid_params' } });

    const pulled = await json(
      await direct(
        { source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/media/v.mp4` },
        { privacy_level: 'SELF_ONLY', title: 'private' },
      ),
    );
    const id = String((pulled.data as Json).publish_id);
    expect(id).toMatch(/^v_pub_url~v2-1\./);
    await sb.configure({ processingMs: { tiktok: 400 } });
    const slow = await json(await direct({ source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/media/w.mp4` }));
    expect((await status(String((slow.data as Json).publish_id))).body).toMatchObject({
      data: { status: 'PROCESSING_DOWNLOAD' },
    });
    const done = await poll(
      () => status(id),
      (s) => String((s.body.data as Json).status) === 'PUBLISH_COMPLETE',
    );
    expect(done.raw).toContain('"publicaly_available_post_id":[]');

    await sb.configure({ processingMs: { tiktok: 0 } });
    const corrupt = await json(
      await direct({ source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/media/corrupt.mp4` }),
    );
    expect((await status(String((corrupt.data as Json).publish_id))).body).toMatchObject({
      data: { status: 'FAILED', fail_reason: 'file_format_check_failed' },
    });
    expect(await objects(sb, 'tiktok', 'posts')).toHaveLength(2);
  });

  it('posts photos from verified URLs with title ≤ 90, a cover index and JPEG/WebP only', async () => {
    // An audited app with its media domain verified; photos on made-up paths, judged by their names.
    await sb.lenient('tiktok_unaudited', 'tiktok_unverified_domain', 'public_media_only');
    await sb.configure({ processingMs: { tiktok: 0 } });
    const photo = (postInfo: Record<string, unknown>, images: string[], cover = 0) =>
      api('/v2/post/publish/content/init/', {
        media_type: 'PHOTO',
        post_mode: 'DIRECT_POST',
        post_info: { privacy_level: 'PUBLIC_TO_EVERYONE', ...postInfo },
        source_info: { source: 'PULL_FROM_URL', photo_images: images, photo_cover_index: cover },
      }).then(json);
    const urls = [`${sb.publicUrl}/m/1.jpg`, `${sb.publicUrl}/m/2.webp`];
    const ok = await photo({ title: 't'.repeat(90), description: 'Two photos' }, urls, 1);
    const id = String((ok.data as Json).publish_id);
    expect(id).toMatch(/^p_pub_url~v2\./);
    expect((await status(id)).body).toMatchObject({ data: { status: 'PUBLISH_COMPLETE' } });
    expect(await photo({ title: 't'.repeat(91) }, urls)).toMatchObject({ error: { code: 'invalid_params' } });
    expect(await photo({}, urls, 2)).toMatchObject({ error: { code: 'invalid_params' } });
    expect(await photo({}, ['https://elsewhere.example/1.jpg'])).toMatchObject({
      error: { code: 'url_ownership_unverified' },
    });
    const png = await photo({}, [`${sb.publicUrl}/m/1.png`]);
    expect((await status(String((png.data as Json).publish_id))).body).toMatchObject({
      data: { status: 'FAILED', fail_reason: 'file_format_check_failed' },
    });
    const posts = await objects(sb, 'tiktok', 'posts');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ text: 'Two photos', media: urls });
    expect(String(posts[0]?.permalink)).toContain('/photo/');
  });

  it('sends inbox uploads to the creator without creating a post', async () => {
    await sb.lenient('tiktok_unverified_domain', 'public_media_only'); // pulled from a made-up path on the sandbox's verified URL
    await sb.configure({ processingMs: { tiktok: 0 } });
    const init = await json(
      await api('/v2/post/publish/inbox/video/init/', {
        source_info: { source: 'PULL_FROM_URL', video_url: `${sb.publicUrl}/v.mp4` },
      }),
    );
    const id = String((init.data as Json).publish_id);
    expect(id).toMatch(/^v_inbox_url~v2\./);
    expect((await status(id)).body).toMatchObject({ data: { status: 'SEND_TO_USER_INBOX' } });
    expect(await objects(sb, 'tiktok', 'posts')).toHaveLength(0);
  });

  it('injects faults on publish, upload and status', async () => {
    await sb.lenient('tiktok_unaudited'); // posts PUBLIC_TO_EVERYONE
    await sb.fault({ platform: 'tiktok', operation: 'publish', fault: 'rate_limit' });
    const limited = await direct({ source: 'FILE_UPLOAD', video_size: MiB, chunk_size: MiB, total_chunk_count: 1 });
    expect(limited.status).toBe(429);
    expect(await json(limited)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    const init = await json(
      await direct({ source: 'FILE_UPLOAD', video_size: MiB, chunk_size: MiB, total_chunk_count: 1 }),
    );
    const { upload_url: url, publish_id: publishId } = init.data as Json;
    await sb.fault({ platform: 'tiktok', operation: 'upload', fault: 'server_error' });
    expect((await put(String(url), fixture.mp4(MiB), `bytes 0-${MiB - 1}/${MiB}`)).status).toBe(500);
    expect((await put(String(url), fixture.mp4(MiB), `bytes 0-${MiB - 1}/${MiB}`)).status).toBe(201);
    await sb.fault({ platform: 'tiktok', operation: 'status', fault: 'expire_token' });
    expect((await api('/v2/post/publish/status/fetch/', { publish_id: publishId })).status).toBe(401);
  });
});

describe('tiktok content posting: the daily post cap (publishLimits.tiktok)', () => {
  it('refuses the 16th direct post of a creator within 24 hours with 403 spam_risk_too_many_posts, until the window moves on', async () => {
    await sb.configure({ publishLimits: { tiktok: 15 }, strict: { rate_limits: true, tiktok_unaudited: false } });
    const init = () =>
      direct(
        { source: 'FILE_UPLOAD', video_size: 1000, chunk_size: 1000, total_chunk_count: 1 },
        { title: 'Daily', privacy_level: 'SELF_ONLY' },
      );
    for (let i = 0; i < 15; i += 1) {
      expect((await init()).status, `init ${i + 1}`).toBe(200);
      sb.advance(11); // within the 6 inits a minute
    }
    const capped = await init();
    expect(capped.status).toBe(403);
    expect(await json(capped)).toMatchObject({ data: {}, error: { code: 'spam_risk_too_many_posts' } });
    sb.advance(24 * 3600);
    token = await connect(); // the access token lived 2 hours
    expect((await init()).status).toBe(200);
  });
});
