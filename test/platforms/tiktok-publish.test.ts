import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublishRequest, Publisher } from '../../src/platforms/publishing.ts';
import { TIKTOK_STEPS, tiktokAdapter } from '../../src/platforms/tiktok/index.ts';
import { publicPostIds } from '../../src/platforms/tiktok/status.ts';
import { chunkPlan, CHUNK_SIZE } from '../../src/platforms/tiktok/upload.ts';
import type { TokenSet } from '../../src/platforms/types.ts';
import { approve, connectThrough, expectPlatformError, pkcePair, sandboxDeps } from './helpers/oauth-flow.ts';
import type { OAuth2Auth } from '../../src/platforms/types.ts';
import {
  crashingAt,
  droppingAt,
  fixtureMedia,
  jpegImage,
  memoryJournal,
  mp4Video,
  pngImage,
  publisherOf,
  SimulatedCrash,
  PUBLISH_PROCESSING_MS,
} from './helpers/publish-fixtures.ts';
import type { FixtureMedia } from './helpers/publish-fixtures.ts';
import { calls, startSandbox } from '../helpers/sandbox.ts';
import type { SandboxSlice, TestSandbox } from '../helpers/sandbox.ts';

const MIB = 1024 * 1024;
let sb: TestSandbox;
let publisher: Publisher;
let tokens: TokenSet;

async function connect(): Promise<void> {
  const adapter = tiktokAdapter(sandboxDeps(sb, 'tiktok'));
  tokens = await connectThrough(sb, adapter);
  publisher = publisherOf(adapter);
}

function request(over: Partial<PublishRequest> = {}): PublishRequest {
  return {
    postType: 'video',
    text: 'Caption #tiktok',
    media: [],
    options: { privacy_level: 'PUBLIC_TO_EVERYONE' },
    targetId: 'tgt_tt',
    ...over,
  };
}

const inits = (s: SandboxSlice) => calls(s, 'POST', '/v2/post/publish/video/init/');

async function video(name: string, mdatBytes = 1000): Promise<FixtureMedia> {
  const bytes = await mp4Video({ mdatBytes });
  return fixtureMedia(sb, {
    name,
    bytes,
    kind: 'video',
    mime: 'video/mp4',
    format: 'mp4',
    durationSec: 12.5,
    width: 640,
    height: 360,
  });
}

async function photo(name: string): Promise<FixtureMedia> {
  return fixtureMedia(sb, {
    name,
    bytes: await jpegImage(),
    kind: 'image',
    mime: 'image/jpeg',
    format: 'jpeg',
    width: 64,
    height: 48,
  });
}

beforeAll(async () => {
  sb = await startSandbox({ processingMs: PUBLISH_PROCESSING_MS });
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await connect();
});

describe('tiktok publisher: chunk plan', () => {
  it('follows the media transfer guide: whole under two chunks, floor(size / chunk) chunks otherwise', () => {
    expect(chunkPlan(3 * MIB)).toEqual({ videoSize: 3 * MIB, chunkSize: 3 * MIB, totalChunkCount: 1 });
    expect(chunkPlan(7 * MIB)).toEqual({ videoSize: 7 * MIB, chunkSize: 7 * MIB, totalChunkCount: 1 });
    expect(chunkPlan(CHUNK_SIZE)).toEqual({ videoSize: CHUNK_SIZE, chunkSize: CHUNK_SIZE, totalChunkCount: 1 });
    expect(chunkPlan(25 * MIB)).toEqual({ videoSize: 25 * MIB, chunkSize: CHUNK_SIZE, totalChunkCount: 2 });
    const big = chunkPlan(4 * 1024 * MIB);
    expect(big.totalChunkCount).toBe(409);
    // The last chunk carries the remainder and stays under 128 MB.
    expect(big.videoSize - (big.totalChunkCount - 1) * big.chunkSize).toBeLessThan(128 * 1000 * 1000);
  });

  it('reads int64 post ids from the raw status answer without rounding them', () => {
    expect(publicPostIds('{"data":{"publicaly_available_post_id":[7391234567890123456]}}')).toEqual([
      '7391234567890123456',
    ]);
    expect(publicPostIds('{"data":{"publicaly_available_post_id":[]}}')).toEqual([]);
    expect(publicPostIds('{"data":{}}')).toEqual([]);
  });
});

describe('tiktok publisher: post types', () => {
  it('direct-posts a small video in one chunk, then status/fetch reports it published with its public id', async () => {
    await sb.lenient('tiktok_unaudited'); // the sandbox app is declared audited, and this post is not SELF_ONLY
    const clip = await video('small.mp4');
    const req = request({ media: [clip], options: { privacy_level: 'MUTUAL_FOLLOW_FRIENDS' } });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    expect(first).toMatchObject({ state: 'processing', handle: expect.stringMatching(/^v_pub_file~/) });
    if (first.state !== 'processing') return;
    expect(journal.steps).toMatchObject({
      [TIKTOK_STEPS.publishId]: first.handle,
      [TIKTOK_STEPS.username]: 'sandbox.user',
      [TIKTOK_STEPS.chunkSize]: String(clip.size),
    });
    // The URL a crash would need to finish the upload is durable before the publish_id.
    expect(journal.log.map(([k]) => k)).toEqual([
      TIKTOK_STEPS.username,
      TIKTOK_STEPS.privacyLevel,
      TIKTOK_STEPS.uploadUrl,
      TIKTOK_STEPS.chunkSize,
      TIKTOK_STEPS.publishId,
    ]);
    expect(journal.steps[TIKTOK_STEPS.privacyLevel]).toBe('MUTUAL_FOLLOW_FRIENDS');
    let s = await sb.state('tiktok');
    expect(calls(s, 'POST', '/creator_info/query/')).toHaveLength(1);
    expect(inits(s)[0]?.body).toEqual({
      post_info: {
        title: 'Caption #tiktok',
        privacy_level: 'MUTUAL_FOLLOW_FRIENDS',
        disable_comment: true,
        disable_duet: true,
        disable_stitch: true,
        brand_content_toggle: false,
        brand_organic_toggle: false,
      },
      source_info: { source: 'FILE_UPLOAD', video_size: clip.size, chunk_size: clip.size, total_chunk_count: 1 },
    });
    const puts = calls(s, 'PUT', '/video/');
    expect(puts.map((p) => [p.status, p.headers['content-range'], p.headers['content-type']])).toEqual([
      [201, `bytes 0-${clip.size - 1}/${clip.size}`, 'video/mp4'],
    ]);

    expect(await publisher.checkStatus!(tokens, first.handle, req, journal)).toEqual(first);
    sb.advance(1);
    const done = await publisher.checkStatus!(tokens, first.handle, req, journal);
    s = await sb.state('tiktok');
    expect(s.posts).toHaveLength(1);
    const post = s.posts[0]!;
    expect(done).toEqual({
      state: 'published',
      postId: post.id,
      permalink: sb.url('tiktok', `/@sandbox.user/video/${post.id}`),
    });
    expect(post).toMatchObject({ text: 'Caption #tiktok', privacy_level: 'MUTUAL_FOLLOW_FRIENDS' });
  });

  it('uploads a larger video in chunks of the declared plan, the remainder riding with the last one', async () => {
    await sb.lenient('tiktok_unaudited'); // the sandbox app is declared audited, and this post is not SELF_ONLY
    await sb.configure({ processingMs: 0 });
    const clip = await video('big.mp4', 23 * MIB);
    const req = request({
      media: [clip],
      options: { privacy_level: 'PUBLIC_TO_EVERYONE', disable_comment: false, brand_organic_toggle: true },
    });
    const first = await publisher.publish(tokens, req, memoryJournal());
    expect(first.state).toBe('processing');
    const s = await sb.state('tiktok');
    expect(inits(s)[0]?.body).toMatchObject({
      post_info: { disable_comment: false, brand_organic_toggle: true },
      source_info: { source: 'FILE_UPLOAD', video_size: clip.size, chunk_size: CHUNK_SIZE, total_chunk_count: 2 },
    });
    const puts = calls(s, 'PUT', '/video/');
    expect(puts.map((p) => [p.status, p.headers['content-range'], p.headers['content-length']])).toEqual([
      [206, `bytes 0-${CHUNK_SIZE - 1}/${clip.size}`, String(CHUNK_SIZE)],
      [201, `bytes ${CHUNK_SIZE}-${clip.size - 1}/${clip.size}`, String(clip.size - CHUNK_SIZE)],
    ]);
    expect(clip.opens).toEqual([
      { start: 0, end: CHUNK_SIZE - 1 },
      { start: CHUNK_SIZE, end: clip.size - 1 },
    ]);
    expect(s.containers[0]).toMatchObject({ uploaded_bytes: clip.size, status: 'PUBLISH_COMPLETE' });
    expect(s.posts).toHaveLength(1);
  });

  it('lets TikTok pull the video from a verified URL when asked to', async () => {
    await sb.lenient('tiktok_unaudited', 'tiktok_unverified_domain'); // as the sandbox app declares: audited, media domain verified
    await sb.configure({ processingMs: 0 });
    const clip = await video('pulled.mp4');
    const req = request({
      media: [clip],
      options: { privacy_level: 'MUTUAL_FOLLOW_FRIENDS', video_source: 'PULL_FROM_URL' },
    });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    expect(first).toMatchObject({ state: 'processing', handle: expect.stringMatching(/^v_pub_url~/) });
    expect(journal.steps[TIKTOK_STEPS.uploadUrl]).toBeUndefined();
    const s = await sb.state('tiktok');
    expect(inits(s)[0]?.body).toMatchObject({ source_info: { source: 'PULL_FROM_URL', video_url: clip.url } });
    expect(calls(s, 'PUT', '/video/')).toHaveLength(0);
    expect(clip.opens).toHaveLength(0);
    if (first.state !== 'processing') return;
    expect(await publisher.checkStatus!(tokens, first.handle, req, journal)).toMatchObject({
      state: 'published',
      postId: s.posts[0]?.id,
    });
  });

  it('posts photos by URL with the cover, title and description, and no permalink form to rely on', async () => {
    await sb.lenient('tiktok_unaudited', 'tiktok_unverified_domain'); // as the sandbox app declares: audited, media domain verified
    await sb.configure({ processingMs: 0 });
    const images = [await photo('p1.jpg'), await photo('p2.jpg'), await photo('p3.jpg')];
    const req = request({
      postType: 'carousel',
      text: 'The description',
      title: 'Photo title',
      media: images,
      options: { privacy_level: 'PUBLIC_TO_EVERYONE', cover_index: 1, auto_add_music: true },
    });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    expect(first).toMatchObject({ state: 'processing', handle: expect.stringMatching(/^p_pub_url~/) });
    const s = await sb.state('tiktok');
    expect(calls(s, 'POST', '/v2/post/publish/content/init/')[0]?.body).toEqual({
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: {
        title: 'Photo title',
        description: 'The description',
        privacy_level: 'PUBLIC_TO_EVERYONE',
        disable_comment: true,
        brand_content_toggle: false,
        brand_organic_toggle: false,
        auto_add_music: true,
      },
      source_info: { source: 'PULL_FROM_URL', photo_images: images.map((i) => i.url), photo_cover_index: 1 },
    });
    if (first.state !== 'processing') return;
    const done = await publisher.checkStatus!(tokens, first.handle, req, journal);
    expect(done).toEqual({ state: 'published', postId: s.posts[0]?.id, permalink: null });
    expect(s.posts).toHaveLength(1);

    const single = await publisher.publish(
      tokens,
      request({ postType: 'image', media: [images[0]!] }),
      memoryJournal(),
    );
    expect(single.state).toBe('processing');
    expect((await sb.state('tiktok')).posts).toHaveLength(2);
  });

  it('uses the publish_id as post id for a SELF_ONLY post, which never gets a public id', async () => {
    await sb.configure({ processingMs: 0 });
    const req = request({ media: [await video('private.mp4')], options: { privacy_level: 'SELF_ONLY' } });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    if (first.state !== 'processing') throw new Error('expected processing');
    expect(await publisher.checkStatus!(tokens, first.handle, req, journal)).toEqual({
      state: 'published',
      postId: first.handle,
      permalink: null,
    });
  });
});

describe('tiktok publisher: an app TikTok has not audited (strict tiktok_unaudited)', () => {
  it('posts SELF_ONLY whatever the body asks, and says so; an app wrongly declared audited is refused before the init', async () => {
    await sb.configure({ processingMs: 0, strict: { tiktok_unaudited: true } });
    try {
      const deps = sandboxDeps(sb, 'tiktok');
      const unaudited = tiktokAdapter({ ...deps, config: { ...deps.config, settings: {} } });
      const own = await connectThrough(sb, unaudited);
      const req = request({ media: [await video('unaudited.mp4')], options: { privacy_level: 'PUBLIC_TO_EVERYONE' } });
      const journal = memoryJournal();
      const pub = publisherOf(unaudited);
      const first = await pub.publish(own, req, journal);
      if (first.state !== 'processing') throw new Error('expected processing');
      const done = await pub.checkStatus!(own, first.handle, req, journal);
      expect(done).toMatchObject({ state: 'published', notice: expect.stringContaining('SELF_ONLY') });
      expect(journal.steps[TIKTOK_STEPS.privacyLevel]).toBe('SELF_ONLY');
      expect(inits(await sb.state('tiktok'))).toHaveLength(1);

      // The sandbox's own app is declared audited: TikTok offers SELF_ONLY only, so public is refused before any init.
      await expectPlatformError(
        publisher.publish(
          tokens,
          request({ media: [await video('public.mp4')], options: { privacy_level: 'PUBLIC_TO_EVERYONE' } }),
          memoryJournal(),
        ),
        'invalid_content',
      );
      expect(inits(await sb.state('tiktok'))).toHaveLength(1);
    } finally {
      await sb.configure({ strict: 'none' });
    }
  });
});

describe('tiktok publisher: the media domain', () => {
  it('refuses photo posts and pulled videos before any init unless the media domain is declared verified; a strict TikTok refuses an undeclared one', async () => {
    await sb.lenient('tiktok_unaudited', 'tiktok_unverified_domain'); // the domain mode is turned on below, once the undeclared adapter is done
    await sb.configure({ processingMs: 0 });
    const deps = sandboxDeps(sb, 'tiktok');
    const undeclared = tiktokAdapter({ ...deps, config: { ...deps.config, settings: { audited: 'true' } } });
    const own = await connectThrough(sb, undeclared);
    const pub = publisherOf(undeclared);
    const before = (await sb.state('tiktok')).requests.length;
    const err = await expectPlatformError(
      pub.publish(
        own,
        request({ postType: 'carousel', media: [await photo('a.jpg'), await photo('b.jpg')] }),
        memoryJournal(),
      ),
      'invalid_content',
    );
    expect(err.message).toContain('does not declare it verified');
    await expectPlatformError(
      pub.publish(
        own,
        request({ media: [await video('pull.mp4')], options: { video_source: 'PULL_FROM_URL' } }),
        memoryJournal(),
      ),
      'invalid_content',
    );
    expect((await sb.state('tiktok')).requests.slice(before).filter((r) => r.path.endsWith('/init/'))).toEqual([]);
    // Uploading the file needs no verified domain.
    expect((await pub.publish(own, request({ media: [await video('upload.mp4')] }), memoryJournal())).state).toBe(
      'processing',
    );

    await sb.configure({ strict: { tiktok_unverified_domain: true } });
    try {
      const refused = await expectPlatformError(
        publisher.publish(
          tokens,
          request({ postType: 'carousel', media: [await photo('c.jpg'), await photo('d.jpg')] }),
          memoryJournal(),
        ),
        'permission',
      );
      expect(refused.code).toBe('url_ownership_unverified');
    } finally {
      await sb.configure({ strict: 'none' });
    }
  });
});

describe('tiktok publisher: media TikTok must pull (strict public_media_only)', () => {
  it("a pulled video or photo on a private address fails as TikTok's pull fails, and a retry starts over once the host is public", async () => {
    await sb.lenient('tiktok_unaudited', 'tiktok_unverified_domain');
    await sb.configure({ processingMs: 0, strict: { public_media_only: true }, publicHosts: [] });
    const req = request({
      media: [await video('private-pull.mp4')],
      options: { privacy_level: 'SELF_ONLY', video_source: 'PULL_FROM_URL' },
    });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    if (first.state !== 'processing') throw new Error('expected processing');
    const err = await expectPlatformError(
      publisher.checkStatus!(tokens, first.handle, req, journal),
      'invalid_content',
    );
    expect(err.code).toBe('video_pull_failed');
    const photos = request({
      postType: 'image',
      title: 'Local',
      media: [await photo('private.jpg')],
      options: { privacy_level: 'SELF_ONLY' },
    });
    const photoJournal = memoryJournal();
    const started = await publisher.publish(tokens, photos, photoJournal);
    if (started.state !== 'processing') throw new Error('expected processing');
    expect(
      (
        await expectPlatformError(
          publisher.checkStatus!(tokens, started.handle, photos, photoJournal),
          'invalid_content',
        )
      ).code,
    ).toBe('photo_pull_failed');
    expect((await sb.state('tiktok')).posts).toHaveLength(0);
    await sb.configure({ publicHosts: [new URL(sb.publicUrl).host] });
    const again = await publisher.publish(tokens, req, journal);
    if (again.state !== 'processing') throw new Error('expected processing');
    expect((await publisher.checkStatus!(tokens, again.handle, req, journal)).state).toBe('published');
  });
});

describe('tiktok publisher: privacy level omitted', () => {
  /** Connects the sandbox creator of this user key (its creator_info privacy options follow the key). */
  async function connectAs(userKey: string): Promise<TokenSet> {
    const adapter = tiktokAdapter(sandboxDeps(sb, 'tiktok'));
    const auth = adapter.auth as OAuth2Auth;
    const redirectUri = sb.callback('tiktok');
    const pkce = pkcePair();
    const { code } = await approve(
      auth.authorizeUrl({ state: 'st-privacy', redirectUri, codeChallenge: pkce.challenge }),
      { 'x-sandbox-user': userKey },
    );
    return auth.exchangeCode({ code, redirectUri, codeVerifier: pkce.verifier });
  }

  it('posts with PUBLIC_TO_EVERYONE when creator_info offers it, else the most public level offered, and journals the level used', async () => {
    // The lenient sandbox's per-key sets from an audited app (the documented sets of strict tiktok_privacy_options have their own test).
    await sb.lenient('tiktok_unaudited', 'tiktok_privacy_options');
    await sb.configure({ processingMs: 0 });
    const clip = await video('default-privacy.mp4');
    const cases = [
      [
        'everyone',
        'PUBLIC_TO_EVERYONE',
        ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      ],
      ['private-maker', 'FOLLOWER_OF_CREATOR', ['FOLLOWER_OF_CREATOR', 'SELF_ONLY']],
      ['friends-only-maker', 'MUTUAL_FOLLOW_FRIENDS', ['MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']],
      ['unaudited-app-user', 'SELF_ONLY', ['SELF_ONLY']],
    ] as const;
    for (const [i, [userKey, expected, offered]] of cases.entries()) {
      const creator = await connectAs(userKey);
      const journal = memoryJournal();
      const req = request({ media: [clip], options: {}, targetId: `tgt_priv_${i}` });
      const first = await publisher.publish(creator, req, journal);
      expect(first.state, userKey).toBe('processing');
      expect(journal.steps[TIKTOK_STEPS.privacyLevel], userKey).toBe(expected);
      const s = await sb.state('tiktok');
      // What creator_info offers this creator, asked as the adapter asked it.
      const info = await fetch(sb.url('tiktok', '/v2/post/publish/creator_info/query/'), {
        method: 'POST',
        headers: { authorization: `Bearer ${creator.accessToken}` },
      });
      expect(
        ((await info.json()) as { data: { privacy_level_options: string[] } }).data.privacy_level_options,
        userKey,
      ).toEqual(offered);
      expect((inits(s).at(-1)?.body as { post_info: { privacy_level: string } }).post_info.privacy_level, userKey).toBe(
        expected,
      );
      if (first.state === 'processing')
        expect((await publisher.checkStatus!(creator, first.handle, req, journal)).state, userKey).toBe('published');
    }
    // A level the creator is not offered is still refused when the body names it.
    const unaudited = await connectAs('unaudited-app-user');
    const named = await expectPlatformError(
      publisher.publish(
        unaudited,
        request({ media: [clip], options: { privacy_level: 'PUBLIC_TO_EVERYONE' }, targetId: 'tgt_named' }),
        memoryJournal(),
      ),
      'invalid_content',
    );
    expect(named.code).toBe('privacy_level_option_mismatch');
    expect(named.message).toContain('choose one of: SELF_ONLY');
  });

  it('strict tiktok_privacy_options: picks and checks against the levels TikTok documents per account kind', async () => {
    await sb.configure({
      processingMs: 0,
      strict: { tiktok_privacy_options: true, tiktok_unaudited: false, tiktok_unverified_domain: false },
    });
    const clip = await video('documented-privacy.mp4');
    const levelOf = async (creator: TokenSet, targetId: string): Promise<string | undefined> => {
      const journal = memoryJournal();
      expect((await publisher.publish(creator, request({ media: [clip], options: {}, targetId }), journal)).state).toBe(
        'processing',
      );
      return journal.steps[TIKTOK_STEPS.privacyLevel];
    };
    // A public account: PUBLIC_TO_EVERYONE. A private one is offered FOLLOWER_OF_CREATOR, MUTUAL_FOLLOW_FRIENDS and
    // SELF_ONLY: followers are more people than mutual friends, so FOLLOWER_OF_CREATOR is its most public level.
    expect(await levelOf(tokens, 'tgt_public')).toBe('PUBLIC_TO_EVERYONE');
    const privateOne = await connectAs('private-account');
    expect(await levelOf(privateOne, 'tgt_private')).toBe('FOLLOWER_OF_CREATOR');
    const before = inits(await sb.state('tiktok')).length;
    // A level the account is not offered is refused by Herald, before TikTok refuses the init.
    const followers = await expectPlatformError(
      publisher.publish(
        tokens,
        request({ media: [clip], options: { privacy_level: 'FOLLOWER_OF_CREATOR' }, targetId: 'tgt_f' }),
        memoryJournal(),
      ),
      'invalid_content',
    );
    expect(followers.code).toBe('privacy_level_option_mismatch');
    expect(followers.message).toContain('PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY');
    await expectPlatformError(
      publisher.publish(
        privateOne,
        request({ media: [clip], options: { privacy_level: 'PUBLIC_TO_EVERYONE' }, targetId: 'tgt_p' }),
        memoryJournal(),
      ),
      'invalid_content',
    );
    expect(inits(await sb.state('tiktok'))).toHaveLength(before);
  });

  it('the photo flow picks the level the same way', async () => {
    await sb.lenient('tiktok_unaudited', 'tiktok_unverified_domain');
    const creator = await connectAs('private-photographer');
    const journal = memoryJournal();
    const out = await publisher.publish(
      creator,
      request({ postType: 'image', title: 'Photo', media: [await photo('priv.jpg')], options: {} }),
      journal,
    );
    expect(out.state).toBe('processing');
    expect(journal.steps[TIKTOK_STEPS.privacyLevel]).toBe('FOLLOWER_OF_CREATOR');
    expect(
      (
        calls(await sb.state('tiktok'), 'POST', '/v2/post/publish/content/init/')[0]?.body as {
          post_info: { privacy_level: string };
        }
      ).post_info.privacy_level,
    ).toBe('FOLLOWER_OF_CREATOR');
  });
});

describe('tiktok publisher: refusals', () => {
  it('refuses an unavailable privacy level before initialising anything', async () => {
    const clip = await video('privacy.mp4');
    const wrong = await expectPlatformError(
      publisher.publish(tokens, request({ media: [clip], options: { privacy_level: 'FRIENDS' } }), memoryJournal()),
      'invalid_content',
    );
    expect(wrong.code).toBe('privacy_level_option_mismatch');
    await expectPlatformError(
      publisher.publish(tokens, request({ media: [{ ...clip, durationSec: 900 }] }), memoryJournal()),
      'invalid_content',
    );
    await expectPlatformError(
      publisher.publish(
        tokens,
        request({
          postType: 'image',
          media: [
            fixtureMedia(sb, {
              name: 'x.png',
              bytes: await pngImage(),
              kind: 'image',
              mime: 'image/png',
              format: 'png',
            }),
          ],
        }),
        memoryJournal(),
      ),
      'invalid_content',
    );
    await expectPlatformError(publisher.publish(tokens, request({ postType: 'text' }), memoryJournal()), 'unsupported');
    const s = await sb.state('tiktok');
    expect(inits(s)).toHaveLength(0);
    expect(calls(s, 'POST', '/content/init/')).toHaveLength(0);
  });

  it('reports a FAILED job as invalid_content with its fail_reason, and a retry starts over', async () => {
    await sb.lenient('tiktok_unaudited'); // the sandbox app is declared audited, and this post is not SELF_ONLY
    await sb.configure({ processingMs: 0 });
    const notVideo = fixtureMedia(sb, {
      name: 'fake.mp4',
      bytes: await jpegImage(),
      kind: 'video',
      mime: 'video/mp4',
      format: 'mp4',
    });
    const req = request({ media: [notVideo] });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    if (first.state !== 'processing') throw new Error('expected processing');
    const err = await expectPlatformError(
      publisher.checkStatus!(tokens, first.handle, req, journal),
      'invalid_content',
    );
    expect(err.code).toBe('file_format_check_failed');
    expect(journal.steps[TIKTOK_STEPS.failed]).toBe(first.handle);
    // The failed job posted nothing, so a new attempt initialises again rather than polling a dead publish_id.
    const again = await publisher.publish(tokens, req, journal);
    expect(again.state === 'processing' && again.handle !== first.handle).toBe(true);
    expect(inits(await sb.state('tiktok'))).toHaveLength(2);
  });

  it('on FAILED / internal reads the same publish_id again before any new init, and initialises anew only once it still says so 10 minutes on', async () => {
    await sb.lenient('tiktok_unaudited'); // the sandbox app is declared audited, and this post is not SELF_ONLY
    await sb.configure({ processingMs: 0 });
    await sb.control('POST', '_faults', { platform: 'tiktok', operation: 'upload', fault: 'error', error: 'internal' });
    const req = request({ media: [await video('internal.mp4')] });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    if (first.state !== 'processing') throw new Error('expected processing');
    const err = await expectPlatformError(publisher.checkStatus!(tokens, first.handle, req, journal), 'transient');
    expect(err).toMatchObject({ code: 'internal', retryAfterSeconds: 600 });
    expect(err.message).toMatch(/^TikTok reported an internal error for this post; Herald checks the post again/);
    // A retry soon after asks TikTok about the same publish_id; it does not initialise again.
    sb.advance(120);
    expect(await expectPlatformError(publisher.publish(tokens, req, journal), 'transient')).toMatchObject({
      retryAfterSeconds: 480,
    });
    expect(inits(await sb.state('tiktok'))).toHaveLength(1);
    // Still FAILED / internal ten minutes after it was first seen: the job is dead and a new init goes out.
    sb.advance(480);
    await expectPlatformError(publisher.publish(tokens, req, journal), 'transient');
    expect(journal.steps[TIKTOK_STEPS.failed]).toBe(first.handle);
    const again = await publisher.publish(tokens, req, journal);
    expect(again.state === 'processing' && again.handle !== first.handle).toBe(true);
    expect(inits(await sb.state('tiktok'))).toHaveLength(2);
  });

  it('maps an unverified pull URL, expired tokens and throttling to their kinds', async () => {
    await sb.lenient('tiktok_unaudited'); // the sandbox app is declared audited, and this post is not SELF_ONLY
    const clip = await video('unverified.mp4');
    const pulled = { ...clip, url: 'https://cdn.example.com/v.mp4' };
    const perm = await expectPlatformError(
      publisher.publish(
        tokens,
        request({ media: [pulled], options: { privacy_level: 'SELF_ONLY', video_source: 'PULL_FROM_URL' } }),
        memoryJournal(),
      ),
      'permission',
    );
    expect(perm.code).toBe('url_ownership_unverified');
    await sb.fault({ platform: 'tiktok', operation: 'profile', fault: 'rate_limit' });
    await expectPlatformError(publisher.publish(tokens, request({ media: [clip] }), memoryJournal()), 'rate_limited');
    await sb.fault({ platform: 'tiktok', operation: 'publish', fault: 'expire_token' });
    await expectPlatformError(publisher.publish(tokens, request({ media: [clip] }), memoryJournal()), 'auth_expired', [
      tokens.accessToken,
    ]);
  });
});

describe('tiktok publisher: the public id and the status pace', () => {
  it('waits for the public id TikTok gives after moderation and fills in the permalink; past the wait it publishes under the publish_id, and a later reconcile or publish finds the id', async () => {
    await sb.lenient('tiktok_unaudited'); // a public post, from the sandbox app declared audited
    await sb.configure({ processingMs: 0, tiktokModerationMs: 30_000 });
    const req = request({ media: [await video('moderated.mp4')] });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    if (first.state !== 'processing') throw new Error('expected processing');
    // PUBLISH_COMPLETE, but no public id until moderation is done: not yet published under a stand-in id.
    expect(await publisher.checkStatus!(tokens, first.handle, req, journal)).toEqual({
      state: 'processing',
      handle: first.handle,
    });
    expect(journal.steps[TIKTOK_STEPS.completeAt]).toBe(new Date(sb.nowMs()).toISOString());
    sb.advance(31);
    const post = (await sb.state('tiktok')).posts[0]!;
    expect(await publisher.checkStatus!(tokens, first.handle, req, journal)).toEqual({
      state: 'published',
      postId: post.id,
      permalink: sb.url('tiktok', `/@sandbox.user/video/${post.id}`),
    });

    // Moderation that outlasts Herald's wait (a minute after PUBLISH_COMPLETE).
    await sb.configure({ tiktokModerationMs: 3_600_000 });
    const slowReq = request({ media: [await video('slow.mp4')], targetId: 'tgt_slow' });
    const slowJournal = memoryJournal();
    const slow = await publisher.publish(tokens, slowReq, slowJournal);
    if (slow.state !== 'processing') throw new Error('expected processing');
    expect((await publisher.checkStatus!(tokens, slow.handle, slowReq, slowJournal)).state).toBe('processing');
    sb.advance(59);
    expect((await publisher.checkStatus!(tokens, slow.handle, slowReq, slowJournal)).state).toBe('processing');
    sb.advance(2);
    const provisional = await publisher.checkStatus!(tokens, slow.handle, slowReq, slowJournal);
    expect(provisional).toMatchObject({
      state: 'published',
      postId: slow.handle,
      permalink: null,
      notice: expect.stringContaining('public id'),
    });
    sb.advance(3600);
    const slowPost = (await sb.state('tiktok')).posts[1]!;
    const found = { postId: slowPost.id, permalink: sb.url('tiktok', `/@sandbox.user/video/${slowPost.id}`) };
    expect(await publisher.reconcile!(tokens, slowReq, slowJournal)).toEqual(found);
    expect(await publisher.publish(tokens, slowReq, slowJournal)).toEqual({ state: 'published', ...found });
    expect(inits(await sb.state('tiktok'))).toHaveLength(2);
  });

  it("rate_limits: polls the status of many posts of one creator within TikTok's 30 calls a minute per token", async () => {
    await sb.configure({ processingMs: 600_000, strict: { rate_limits: true } });
    const posts: { req: PublishRequest; journal: ReturnType<typeof memoryJournal>; handle: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const req = request({
        media: [await video(`many-${i}.mp4`)],
        options: { privacy_level: 'SELF_ONLY' },
        targetId: `tgt_many_${i}`,
      });
      const journal = memoryJournal();
      const out = await publisher.publish(tokens, req, journal);
      if (out.state !== 'processing') throw new Error('expected processing');
      posts.push({ req, journal, handle: out.handle });
    }
    const statusCalls = async () => calls(await sb.state('tiktok'), 'POST', '/status/fetch/');
    // Eight rounds over five posts in the same minute: 40 polls, more than TikTok's 30 for the token.
    for (let round = 0; round < 8; round++) {
      for (const p of posts)
        expect(await publisher.checkStatus!(tokens, p.handle, p.req, p.journal)).toEqual({
          state: 'processing',
          handle: p.handle,
        });
    }
    let made = await statusCalls();
    expect(made.length).toBeLessThanOrEqual(30);
    expect(made.length).toBeGreaterThanOrEqual(20);
    expect(made.filter((c) => c.status === 429)).toEqual([]);
    // The next minute the polls go through again.
    sb.advance(60);
    const before = made.length;
    for (const p of posts) await publisher.checkStatus!(tokens, p.handle, p.req, p.journal);
    made = await statusCalls();
    expect(made.length).toBe(before + posts.length);
    expect(made.filter((c) => c.status === 429)).toEqual([]);
  });
});

describe('tiktok publisher: journal and faults', () => {
  it('polls the journaled publish_id after a crash instead of initialising a second post', async () => {
    await sb.lenient('tiktok_unaudited'); // the sandbox app is declared audited, and this post is not SELF_ONLY
    await sb.configure({ processingMs: 0 });
    const clip = await video('crash.mp4', 23 * MIB);
    const req = request({ media: [clip] });
    const journal = memoryJournal();
    journal.crashAfter = TIKTOK_STEPS.publishId;
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const out = await publisher.publish(tokens, req, journal);
    expect(out).toEqual({ state: 'processing', handle: journal.steps[TIKTOK_STEPS.publishId] });
    const s = await sb.state('tiktok');
    expect(inits(s)).toHaveLength(1);
    expect(calls(s, 'PUT', '/video/').map((p) => p.status)).toEqual([206, 201]);
    expect(s.posts).toHaveLength(1);
    // Once complete, a further retry only reads the status.
    expect(await publisher.publish(tokens, req, journal)).toMatchObject({ state: 'published', postId: s.posts[0]?.id });
    expect(inits(await sb.state('tiktok'))).toHaveLength(1);
  });

  it('continues with the missing chunk after a crash mid-upload', async () => {
    await sb.lenient('tiktok_unaudited'); // the sandbox app is declared audited, and this post is not SELF_ONLY
    await sb.configure({ processingMs: 0 });
    const clip = await video('mid.mp4', 23 * MIB);
    const crashing = crashingAt(clip, CHUNK_SIZE);
    const req = request({ media: [crashing] });
    const journal = memoryJournal();
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    expect((await sb.state('tiktok')).containers[0]).toMatchObject({
      uploaded_bytes: CHUNK_SIZE,
      status: 'PROCESSING_UPLOAD',
    });
    expect((await publisher.publish(tokens, req, journal)).state).toBe('processing');
    expect(clip.opens).toEqual([
      { start: 0, end: CHUNK_SIZE - 1 },
      { start: CHUNK_SIZE, end: clip.size - 1 },
    ]);
    const s = await sb.state('tiktok');
    expect(inits(s)).toHaveLength(1);
    expect(s.containers[0]).toMatchObject({ uploaded_bytes: clip.size, status: 'PUBLISH_COMPLETE' });
    expect(s.posts).toHaveLength(1);
  });

  it('starts a new upload when the journaled upload URL expired during the crash, and posts once', async () => {
    await sb.lenient('tiktok_unaudited'); // the sandbox app is declared audited, and this post is not SELF_ONLY
    await sb.configure({ processingMs: 0 });
    const clip = await video('late.mp4', 23 * MIB);
    const req = request({ media: [crashingAt(clip, CHUNK_SIZE)] });
    const journal = memoryJournal();
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const first = journal.steps[TIKTOK_STEPS.publishId];
    sb.advance(3700); // upload URLs live an hour
    const later = await connectThrough(sb, tiktokAdapter(sandboxDeps(sb, 'tiktok')));
    expect((await publisher.publish(later, req, journal)).state).toBe('processing');
    expect(journal.steps[TIKTOK_STEPS.failed]).toBe(first);
    expect(journal.steps[TIKTOK_STEPS.publishId]).not.toBe(first);
    const s = await sb.state('tiktok');
    expect(inits(s)).toHaveLength(2);
    expect(s.posts).toHaveLength(1);
  });

  it('recovers from a dropped connection and from an upload 5xx within the call', async () => {
    await sb.lenient('tiktok_unaudited'); // the sandbox app is declared audited, and this post is not SELF_ONLY
    await sb.configure({ processingMs: 0 });
    const clip = await video('drop.mp4', 23 * MIB);
    const out = await publisher.publish(tokens, request({ media: [droppingAt(clip, CHUNK_SIZE)] }), memoryJournal());
    expect(out.state).toBe('processing');
    let s = await sb.state('tiktok');
    expect(
      calls(s, 'PUT', '/video/')
        .filter((p) => p.status < 300)
        .map((p) => p.status),
    ).toEqual([206, 201]);
    expect(calls(s, 'POST', '/status/fetch/')).toHaveLength(1);
    expect(s.containers[0]).toMatchObject({ uploaded_bytes: clip.size });

    await sb.fault({ platform: 'tiktok', operation: 'upload', fault: 'server_error' });
    expect(
      (await publisher.publish(tokens, request({ media: [await video('five.mp4')] }), memoryJournal())).state,
    ).toBe('processing');
    s = await sb.state('tiktok');
    expect(s.posts).toHaveLength(2);
    expect(inits(s)).toHaveLength(2);
  });

  it('reports init and status faults without losing the journal, and reconciles by publish_id', async () => {
    await sb.lenient('tiktok_unaudited'); // the sandbox app is declared audited, and this post is not SELF_ONLY
    await sb.configure({ processingMs: 0 });
    const clip = await video('faults.mp4');
    const req = request({ media: [clip] });
    const journal = memoryJournal();
    expect(await publisher.reconcile!(tokens, req, journal)).toBeNull();
    await sb.fault({ platform: 'tiktok', operation: 'publish', fault: 'server_error' });
    await expectPlatformError(publisher.publish(tokens, req, journal), 'transient');
    expect(journal.steps[TIKTOK_STEPS.publishId]).toBeUndefined();
    const first = await publisher.publish(tokens, req, journal);
    if (first.state !== 'processing') throw new Error('expected processing');
    await sb.fault({ platform: 'tiktok', operation: 'status', fault: 'rate_limit' });
    await expectPlatformError(publisher.checkStatus!(tokens, first.handle, req, journal), 'rate_limited');
    const s = await sb.state('tiktok');
    const postId = s.posts[0]?.id;
    expect(await publisher.reconcile!(tokens, req, journal)).toEqual({
      postId,
      permalink: sb.url('tiktok', `/@sandbox.user/video/${postId}`),
    });
    expect(s.posts).toHaveLength(1);
  });
});
