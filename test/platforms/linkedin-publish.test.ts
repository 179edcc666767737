import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { escapeCommentary, LINKEDIN_VERSION, linkedinAdapter } from '../../src/platforms/linkedin/index.ts';
import type { Journal, PublishMedia, PublishRequest, Publisher } from '../../src/platforms/publishing.ts';
import type { OAuth2Auth, TokenSet } from '../../src/platforms/types.ts';
import { connectThrough, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import {
  fixtureMedia,
  jpegImage,
  memoryJournal,
  mp4Video,
  pngImage,
  publisherOf,
  SimulatedCrash,
  PUBLISH_PROCESSING_MS,
} from './helpers/publish-fixtures.ts';
import { calls, startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

let sb: TestSandbox;
let publisher: Publisher;
let tokens: TokenSet;
let member: string;
let orgId: string;

const PART = 4 * 1024 * 1024;

async function connect(): Promise<void> {
  const adapter = linkedinAdapter(sandboxDeps(sb, 'linkedin'));
  tokens = await connectThrough(sb, adapter);
  const account = await adapter.fetchAccount(tokens);
  member = account.id;
  orgId = account.destinations[0]?.id ?? '';
  publisher = publisherOf(adapter);
}

function request(over: Partial<PublishRequest> = {}): PublishRequest {
  return {
    postType: 'text',
    text: 'Hello LinkedIn',
    media: [],
    options: {},
    targetId: 'tgt_1',
    destination: { kind: 'personal', id: 'me' },
    ...over,
  };
}

const org = (): PublishRequest['destination'] => ({ kind: 'organization', id: orgId });

async function image(name: string, altText?: string): Promise<PublishMedia & { opens: unknown[] }> {
  const bytes = name.endsWith('.png') ? await pngImage() : await jpegImage();
  const mime = name.endsWith('.png') ? 'image/png' : 'image/jpeg';
  return fixtureMedia(sb, {
    name,
    bytes,
    kind: 'image',
    mime,
    format: mime.slice(6),
    width: 64,
    height: 48,
    ...(altText ? { altText } : {}),
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

describe('escapeCommentary', () => {
  it('escapes every reserved character and keeps hashtags and mentions live', () => {
    expect(escapeCommentary('a|b{c}d@e[f]g(h)i<j>k\\l*m_n~o')).toBe(
      'a\\|b\\{c\\}d\\@e\\[f\\]g\\(h\\)i\\<j\\>k\\\\l\\*m\\_n\\~o',
    );
    expect(escapeCommentary('#launch day (v2) #ai_tools')).toBe('#launch day \\(v2\\) #ai_tools');
    expect(escapeCommentary('C# and issue#12, # alone')).toBe('C\\# and issue\\#12, \\# alone');
    expect(escapeCommentary('hi @[Acme Corp](urn:li:organization:123) and @someone')).toBe(
      'hi @[Acme Corp](urn:li:organization:123) and \\@someone',
    );
    expect(escapeCommentary('@[broken](https://x.test)')).toBe('\\@\\[broken\\]\\(https://x.test\\)');
    expect(escapeCommentary('plain text, emoji 🎉 and accents éà')).toBe('plain text, emoji 🎉 and accents éà');
  });
});

describe('linkedin publisher: post types', () => {
  it('publishes a text post as the member, with the pinned version headers and escaped commentary', async () => {
    const text = 'Ship it (finally) @team *now* _really_ ~maybe~ <3 [x] {y} a|b back\\slash #launch';
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ text }), journal);
    expect(out).toMatchObject({ state: 'published', postId: expect.stringMatching(/^urn:li:share:\d+$/) });
    if (out.state !== 'published') return;
    expect(out.permalink).toBe(sb.url('linkedin', `/feed/update/${out.postId}/`));
    const s = await sb.state('linkedin');
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({
      id: out.postId,
      author: `urn:li:person:${member}`,
      text,
      commentaryTruncated: false,
      visibility: 'PUBLIC',
      lifecycleState: 'PUBLISHED',
    });
    const [create] = calls(s, 'POST', '/rest/posts');
    expect(create?.headers).toMatchObject({
      'linkedin-version': LINKEDIN_VERSION,
      'x-restli-protocol-version': '2.0.0',
    });
    expect(journal.steps).toMatchObject({ author: `urn:li:person:${member}`, post: out.postId });
  });

  it('publishes as an organization and honours CONNECTIONS only for members', async () => {
    const out = await publisher.publish(
      tokens,
      request({ destination: org(), text: 'From the company' }),
      memoryJournal(),
    );
    expect(out.state).toBe('published');
    await expectPlatformError(
      publisher.publish(tokens, request({ destination: org(), visibility: 'CONNECTIONS' }), memoryJournal()),
      'invalid_content',
    );
    await publisher.publish(tokens, request({ visibility: 'CONNECTIONS', text: 'Network only' }), memoryJournal());
    const s = await sb.state('linkedin');
    expect(s.posts.map((p) => [p.author, p.visibility, p.text])).toEqual([
      [`urn:li:organization:${orgId}`, 'PUBLIC', 'From the company'],
      [`urn:li:person:${member}`, 'CONNECTIONS', 'Network only'],
    ]);
  });

  it('publishes one image as the member: upload, wait for processing through checkStatus, then post', async () => {
    const photo = await image('one.png', 'A red rectangle');
    const journal = memoryJournal();
    const req = request({ postType: 'image', text: 'Look', media: [photo] });
    // Members may not read images back, so the create call reports the image still processing.
    const first = await publisher.publish(tokens, req, journal);
    expect(first).toMatchObject({ state: 'processing' });
    if (first.state !== 'processing') return;
    sb.advance(1);
    const out = await publisher.checkStatus!(tokens, first.handle, req, journal);
    expect(out).toMatchObject({ state: 'published', postId: expect.stringMatching(/^urn:li:share:/) });
    const s = await sb.state('linkedin');
    expect(s.media).toHaveLength(1);
    expect(s.media[0]).toMatchObject({
      kind: 'image',
      owner: `urn:li:person:${member}`,
      status: 'AVAILABLE',
      bytes: photo.size,
      mimeType: 'image/png',
    });
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({
      text: 'Look',
      content: { media: { id: s.media[0]?.id, altText: 'A red rectangle' } },
    });
    expect(journal.steps).toMatchObject({ 'image:0': s.media[0]?.id, 'image:0:uploaded': s.media[0]?.id });
    expect(photo.opens).toHaveLength(1);
  });

  it('publishes a multi-image post for an organization in order, polling the images first', async () => {
    const photos = [await image('a.png'), await image('b.jpg', 'second'), await image('c.png')];
    const req = request({ postType: 'carousel', text: 'Three', media: photos, destination: org() });
    const journal = memoryJournal();
    expect(await publisher.publish(tokens, req, journal)).toMatchObject({ state: 'processing' });
    let s = await sb.state('linkedin');
    // An organization's images are polled, so no create is attempted before they are AVAILABLE.
    expect(calls(s, 'POST', '/rest/posts')).toHaveLength(0);
    sb.advance(1);
    const out = await publisher.checkStatus!(tokens, 'x', req, journal);
    expect(out).toMatchObject({ state: 'published', postId: expect.stringMatching(/^urn:li:ugcPost:/) });
    s = await sb.state('linkedin');
    const urns = [0, 1, 2].map((i) => journal.steps[`image:${i}`]);
    expect(s.media.map((m) => m.id).sort()).toEqual([...urns].sort());
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ author: `urn:li:organization:${orgId}`, contentKind: 'multiImage' });
    expect(s.posts[0]?.content).toEqual({
      multiImage: { images: [{ id: urns[0] }, { id: urns[1], altText: 'second' }, { id: urns[2] }] },
    });
  });

  it('publishes a multi-part video with a thumbnail: ranged parts, ETags, finalize, AVAILABLE, then the post', async () => {
    const bytes = await mp4Video({ mdatBytes: PART + 300_000 });
    const video = fixtureMedia(sb, {
      name: 'clip.mp4',
      bytes,
      kind: 'video',
      mime: 'video/mp4',
      format: 'mp4',
      durationSec: 12.5,
    });
    const thumb = await image('thumb.jpg');
    const req = request({
      postType: 'video',
      text: 'Watch #video',
      title: 'The clip',
      media: [video],
      thumbnail: thumb,
      destination: org(),
    });
    const journal = memoryJournal();
    const first = await publisher.publish(tokens, req, journal);
    expect(first).toMatchObject({ state: 'processing', handle: expect.stringMatching(/^urn:li:video:/) });
    expect(video.opens).toEqual([
      { start: 0, end: PART - 1 },
      { start: PART, end: bytes.length - 1 },
    ]);
    expect(await publisher.checkStatus!(tokens, 'h', req, journal)).toMatchObject({ state: 'processing' });
    sb.advance(1);
    const out = await publisher.checkStatus!(tokens, 'h', req, journal);
    expect(out).toMatchObject({ state: 'published', postId: expect.stringMatching(/^urn:li:ugcPost:/) });
    const s = await sb.state('linkedin');
    expect(s.media).toHaveLength(1);
    expect(s.media[0]).toMatchObject({
      kind: 'video',
      status: 'AVAILABLE',
      fileSizeBytes: bytes.length,
      thumbnail: { mimeType: 'image/jpeg' },
    });
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({
      text: 'Watch #video',
      content: { media: { id: s.media[0]?.id, title: 'The clip' } },
    });
    expect(journal.steps).toMatchObject({ video: s.media[0]?.id, 'video:finalized': s.media[0]?.id });
  });
});

describe('linkedin publisher: journal', () => {
  it('reuses an image uploaded before a crash instead of uploading it again', async () => {
    await sb.configure({ processingMs: 0 });
    const photo = await image('crash.jpg');
    const req = request({ postType: 'image', media: [photo], text: 'after the crash' });
    const journal = memoryJournal();
    journal.crashAfter = 'image:0:uploaded';
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const out = await publisher.publish(tokens, req, journal);
    expect(out.state).toBe('published');
    const s = await sb.state('linkedin');
    expect(s.media).toHaveLength(1);
    expect(calls(s, 'POST', '/rest/images')).toHaveLength(1);
    expect(photo.opens).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ content: { media: { id: journal.steps['image:0'] } } });
  });

  it('resumes a video upload after a crash between parts, sending only the missing part', async () => {
    await sb.configure({ processingMs: 0 });
    const bytes = await mp4Video({ mdatBytes: PART + 1000 });
    const video = fixtureMedia(sb, { name: 'resume.mp4', bytes, kind: 'video', mime: 'video/mp4', format: 'mp4' });
    const req = request({ postType: 'video', media: [video], text: 'resumed' });
    const journal = memoryJournal();
    journal.crashAfter = 'video:part:0';
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const out = await publisher.publish(tokens, req, journal);
    expect(out.state).toBe('published');
    expect(video.opens).toEqual([
      { start: 0, end: PART - 1 },
      { start: PART, end: bytes.length - 1 },
    ]);
    const s = await sb.state('linkedin');
    expect(s.media).toHaveLength(1);
    expect(s.posts).toHaveLength(1);
  });

  it('starts a fresh video session once when the journaled upload URLs have expired', async () => {
    await sb.configure({ processingMs: 0 });
    const bytes = await mp4Video({ mdatBytes: PART + 1000 });
    const video = fixtureMedia(sb, { name: 'stale.mp4', bytes, kind: 'video', mime: 'video/mp4', format: 'mp4' });
    const req = request({ postType: 'video', media: [video], text: 'stale session' });
    const journal = memoryJournal();
    journal.crashAfter = 'video:part:0';
    await expect(publisher.publish(tokens, req, journal)).rejects.toBeInstanceOf(SimulatedCrash);
    const stale = journal.steps.video;
    sb.advance(31 * 86_400);
    const out = await publisher.publish(tokens, req, journal);
    expect(out.state).toBe('published');
    expect(journal.steps.video).not.toBe(stale);
    const s = await sb.state('linkedin');
    expect(s.media.map((m) => [m.id, m.status])).toEqual([
      [stale, 'WAITING_UPLOAD'],
      [journal.steps.video, 'AVAILABLE'],
    ]);
    expect(s.posts).toHaveLength(1);
    expect(s.posts[0]).toMatchObject({ content: { media: { id: journal.steps.video } } });
  });

  it('adopts its own post when a create went through but its answer was lost', async () => {
    const steps: Record<string, string> = {};
    let lose = true;
    // The worker dies after LinkedIn created the post but before the URN became durable.
    const journal: Journal = {
      steps,
      record: async (step, value) => {
        if (step === 'post' && lose) {
          lose = false;
          throw new SimulatedCrash(step);
        }
        steps[step] = value;
      },
    };
    await expect(publisher.publish(tokens, request({ text: 'exactly once' }), journal)).rejects.toBeInstanceOf(
      SimulatedCrash,
    );
    const out = await publisher.publish(tokens, request({ text: 'exactly once' }), journal);
    const s = await sb.state('linkedin');
    expect(s.posts).toHaveLength(1);
    expect(out).toMatchObject({ state: 'published', postId: s.posts[0]?.id });
    // Without an earlier attempt of this target, the same duplicate answer is a refusal, not a success.
    await expectPlatformError(
      publisher.publish(tokens, request({ text: 'exactly once' }), memoryJournal()),
      'invalid_content',
    );
  });

  it('reconciles from the journaled URN only', async () => {
    expect(await publisher.reconcile!(tokens, request(), memoryJournal())).toBeNull();
    const journal = memoryJournal();
    const out = await publisher.publish(tokens, request({ destination: org(), text: 'to reconcile' }), journal);
    if (out.state !== 'published') throw new Error('not published');
    expect(await publisher.reconcile!(tokens, request(), journal)).toEqual({
      postId: out.postId,
      permalink: out.permalink,
    });
    await fetch(`${sb.publicUrl}/sandbox/linkedin/rest/posts/${encodeURIComponent(out.postId)}`, {
      method: 'DELETE',
      headers: {
        authorization: `Bearer ${tokens.accessToken}`,
        'linkedin-version': LINKEDIN_VERSION,
        'x-restli-protocol-version': '2.0.0',
      },
    });
    expect(await publisher.reconcile!(tokens, request(), journal)).toBeNull();
    // A member's post cannot be read back (r_member_social is closed): the journaled URN is trusted.
    const mine = memoryJournal();
    const personal = await publisher.publish(tokens, request({ text: 'mine' }), mine);
    expect(await publisher.reconcile!(tokens, request(), mine)).toMatchObject({
      postId: personal.state === 'published' ? personal.postId : '',
    });
  });
});

describe('linkedin publisher: refusals and faults', () => {
  it('refuses over-long commentary, counting escapes, before any call', async () => {
    const before = (await sb.state('linkedin')).requests.length;
    await expectPlatformError(
      publisher.publish(tokens, request({ text: 'x'.repeat(3001) }), memoryJournal()),
      'invalid_content',
    );
    await expectPlatformError(
      publisher.publish(tokens, request({ text: '('.repeat(1600) }), memoryJournal()),
      'invalid_content',
    );
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'carousel', media: [await image('solo.png')] }), memoryJournal()),
      'invalid_content',
    );
    const s = await sb.state('linkedin');
    expect(s.requests).toHaveLength(before);
    expect((await publisher.publish(tokens, request({ text: 'y'.repeat(3000) }), memoryJournal())).state).toBe(
      'published',
    );
  });

  it('maps throttling, server errors and expired tokens on create and upload', async () => {
    const secrets = [tokens.accessToken];
    await sb.fault({ platform: 'linkedin', operation: 'publish', fault: 'rate_limit' });
    await expectPlatformError(
      publisher.publish(tokens, request({ text: 'a' }), memoryJournal()),
      'rate_limited',
      secrets,
    );
    await sb.fault({ platform: 'linkedin', operation: 'publish', fault: 'server_error' });
    await expectPlatformError(publisher.publish(tokens, request({ text: 'b' }), memoryJournal()), 'transient', secrets);
    await sb.fault({ platform: 'linkedin', operation: 'upload', fault: 'rate_limit' });
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'image', media: [await image('f1.png')] }), memoryJournal()),
      'rate_limited',
    );
    await sb.fault({ platform: 'linkedin', operation: 'upload', fault: 'expire_token' });
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'image', media: [await image('f2.png')] }), memoryJournal()),
      'auth_expired',
      secrets,
    );
    expect((await sb.state('linkedin')).posts).toHaveLength(0);
  });

  it('fails a video LinkedIn cannot process', async () => {
    await sb.configure({ processingMs: 0 });
    const bytes = Buffer.from('definitely not a video container, just text bytes');
    const video = fixtureMedia(sb, { name: 'bad.mp4', bytes, kind: 'video', mime: 'video/mp4', format: 'mp4' });
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'video', media: [video] }), memoryJournal()),
      'invalid_content',
    );
    expect((await sb.state('linkedin')).posts).toHaveLength(0);
  });
});

describe('linkedin: what the real API refuses (strict sandbox)', () => {
  it('refuses an image over 36,152,320 pixels before uploading it, whatever its size in bytes', async () => {
    const big = { ...(await image('huge.jpg')), width: 8000, height: 4600 };
    await expectPlatformError(
      publisher.publish(tokens, request({ postType: 'image', media: [big] }), memoryJournal()),
      'invalid_content',
    );
    expect((await sb.state('linkedin')).media).toHaveLength(0);
    const fits = { ...(await image('fits.jpg')), width: 6000, height: 6000 };
    await sb.configure({ processingMs: 0 });
    expect(
      (
        await publisher.publish(
          tokens,
          request({ postType: 'image', media: [fits], destination: org() }),
          memoryJournal(),
        )
      ).state,
    ).toBe('published');
  });

  it('rate_limits: past 150 posts a member-day, a 429 that waits for 00:00 UTC, then posts again', async () => {
    await sb.configure({ strict: { rate_limits: true } });
    for (let i = 0; i < 150; i++) {
      expect((await publisher.publish(tokens, request({ text: `post ${i}` }), memoryJournal())).state).toBe(
        'published',
      );
    }
    const err = await expectPlatformError(
      publisher.publish(tokens, request({ text: 'one too many' }), memoryJournal()),
      'rate_limited',
    );
    expect(err.retryable).toBe(true);
    // The sandbox's clock is at noon UTC.
    expect(err.retryAfterSeconds).toBe(12 * 3600);
    sb.advance(err.retryAfterSeconds!);
    expect((await publisher.publish(tokens, request({ text: 'one too many' }), memoryJournal())).state).toBe(
      'published',
    );
  });

  it('linkedin_no_refresh: the grant comes without a refresh token, and the adapter says it cannot be refreshed', async () => {
    const adapter = linkedinAdapter(sandboxDeps(sb, 'linkedin'));
    // A grant of an app with programmatic refresh, for comparison.
    await sb.lenient('linkedin_no_refresh');
    const refreshable = await connectThrough(sb, adapter);
    await sb.configure({ strict: { linkedin_no_refresh: true } });
    const bare = await connectThrough(sb, adapter);
    expect(bare.refreshToken).toBeNull();
    const auth = adapter.auth as OAuth2Auth;
    expect(auth.canRefresh?.(bare)).toBe(false);
    expect(auth.canRefresh?.(refreshable)).toBe(true);
    await expectPlatformError(auth.refresh!(bare), 'reauth_required');
  });

  it('asks for the scope list the install configures (HERALD_LINKEDIN_SCOPES), else the full one', () => {
    const deps = sandboxDeps(sb, 'linkedin');
    const scopesOf = (url: string) => new URL(url).searchParams.get('scope')?.split(' ');
    const narrow = linkedinAdapter({
      ...deps,
      config: { ...deps.config, scopes: ['openid', 'profile', 'w_member_social'] },
    }).auth as OAuth2Auth;
    expect(scopesOf(narrow.authorizeUrl({ state: 's', redirectUri: sb.callback('linkedin') }))).toEqual([
      'openid',
      'profile',
      'w_member_social',
    ]);
    const full = linkedinAdapter(deps).auth as OAuth2Auth;
    expect(scopesOf(full.authorizeUrl({ state: 's', redirectUri: sb.callback('linkedin') }))).toContain(
      'w_organization_social',
    );
  });
});
