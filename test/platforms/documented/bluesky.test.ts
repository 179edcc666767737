// Every error Bluesky documents for what Herald calls, injected into the Bluesky simulator over real HTTP and read by
// the adapter (login, refresh, publishing with the video service, comments): kind, wait and the user's words as
// src/platforms/bluesky/documented-errors.ts says. Then what the video-service rows promise beyond the error itself.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLUESKY_DOCUMENTED_ERRORS } from '../../../src/platforms/bluesky/documented-errors.ts';
import { blueskyError } from '../../../src/platforms/bluesky/errors.ts';
import { blueskyAdapter } from '../../../src/platforms/bluesky/index.ts';
import type { DocumentedError } from '../../../src/platforms/documented-errors.ts';
import type { PublishRequest } from '../../../src/platforms/publishing.ts';
import type { AppPasswordAuth, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import { sandboxBaseUrls } from '../../../src/sandbox/index.ts';
import { configuredHttp } from '../../helpers/platform-http.ts';
import { startSandbox, type TestSandbox } from '../../helpers/sandbox.ts';
import { armDocumented } from '../helpers/documented.ts';
import { documentedErrorTests } from '../helpers/documented.ts';
import { expectPlatformError } from '../helpers/oauth-flow.ts';
import { fixtureMedia, jpegImage, memoryJournal, mp4Video } from '../helpers/publish-fixtures.ts';

const LOGIN = { handle: 'alice.sandbox', appPassword: 'abcd-ef12-gh34-ij56' };
const VIDEO = new Set(['upload', 'status']);

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox({ processingMs: 0 });
});
afterAll(() => sb.close());

function adapter(): PlatformAdapter & { auth: AppPasswordAuth } {
  const logger = pino({ level: 'silent' });
  const urls = sandboxBaseUrls(sb.publicUrl).bluesky;
  const a = blueskyAdapter({ http: configuredHttp(logger, urls), config: { urls }, clock: sb.clock, logger });
  if (a.auth.kind !== 'app_password' || !a.publisher || !a.engagement)
    throw new Error('no app-password auth, publisher or engagement');
  return a as PlatformAdapter & { auth: AppPasswordAuth };
}

async function requestFor(d: DocumentedError | 'video'): Promise<PublishRequest> {
  const base = { text: 'Documented', options: {}, targetId: 'tgt_bsky_doc' };
  const op = d === 'video' ? 'video' : 'operation' in d.simulated ? d.simulated.operation : '';
  if (d === 'video' || (VIDEO.has(op) && d.code !== 'PayloadTooLarge')) {
    const clip = fixtureMedia(sb, {
      name: 'doc.mp4',
      bytes: await mp4Video({ mdatBytes: 20_000 }),
      kind: 'video',
      mime: 'video/mp4',
      format: 'mp4',
      width: 640,
      height: 360,
    });
    return { ...base, postType: 'video', media: [clip] };
  }
  if (op === 'upload' || d.code === 'BlobNotFound') {
    const photo = fixtureMedia(sb, {
      name: 'doc.jpg',
      bytes: await jpegImage(400, 300),
      kind: 'image',
      mime: 'image/jpeg',
      format: 'jpeg',
      width: 400,
      height: 300,
    });
    return { ...base, postType: 'image', media: [photo] };
  }
  return { ...base, postType: 'text', media: [] };
}

describe('bluesky: documented errors', () => {
  documentedErrorTests({
    platform: 'bluesky',
    table: BLUESKY_DOCUMENTED_ERRORS,
    sandbox: () => sb,
    map: (res) => blueskyError(res, 'access', sb.clock()),
    async setup(_sb, d) {
      await sb.reset();
      await sb.configure({ processingMs: { bluesky: 0 } });
      const a = adapter();
      const tokens = await a.auth.login(LOGIN);
      const req = await requestFor(d);
      const journal = memoryJournal();
      // A blob gone again after the re-upload: the second answer is the one Herald reports.
      if (d.code === 'BlobNotFound') await armDocumented(sb, 'bluesky', d);
      const post =
        d.via === 'comments'
          ? await a.publisher!.publish(tokens, { ...req, targetId: 'tgt_bsky_root' }, memoryJournal())
          : null;
      return {
        async run(via) {
          if (via === 'login') return a.auth.login(LOGIN);
          if (via === 'refresh') return a.auth.refresh!(tokens);
          if (via === 'comments')
            return a.engagement!.comments!.list(tokens, {
              postId: post?.state === 'published' ? post.postId : '',
              limit: 10,
            });
          const out = await a.publisher!.publish(tokens, req, journal);
          if (via === 'status' && out.state === 'processing')
            return a.publisher!.checkStatus!(tokens, out.handle, req, journal);
          return out;
        },
      };
    },
  });
});

describe('bluesky: the video service', () => {
  async function connected(): Promise<{ a: ReturnType<typeof adapter>; tokens: TokenSet }> {
    await sb.reset();
    await sb.configure({ processingMs: { bluesky: 0 } });
    const a = adapter();
    return { a, tokens: await a.auth.login(LOGIN) };
  }
  const calls = async (nsid: string) =>
    (await sb.state('bluesky')).requests.filter((r) => r.path.endsWith(`/xrpc/${nsid}`));

  it('already_exists: the earlier job is reused, its blob embedded, and no second job is made', async () => {
    const { a, tokens } = await connected();
    const req = await requestFor('video');
    // The same video published before (the service keeps what it processed), then again for another target.
    const first = memoryJournal();
    const earlier = await a.publisher!.publish(tokens, req, first);
    const done =
      earlier.state === 'processing' ? await a.publisher!.checkStatus!(tokens, earlier.handle, req, first) : earlier;
    expect(done.state).toBe('published');
    const journal = memoryJournal();
    const again = await a.publisher!.publish(tokens, { ...req, targetId: 'tgt_bsky_again' }, journal);
    expect(again).toEqual({ state: 'processing', handle: first.steps['video.job'] });
    const out = await a.publisher!.checkStatus!(
      tokens,
      journal.steps['video.job'] ?? '',
      { ...req, targetId: 'tgt_bsky_again' },
      journal,
    );
    expect(out.state).toBe('published');
    expect(journal.steps['video.blob']).toBe(first.steps['video.blob']);
    const s = await sb.state('bluesky');
    expect(s.containers.filter((c) => c.kind === 'video-job')).toHaveLength(1);
    expect((await calls('app.bsky.video.uploadVideo')).map((r) => r.status)).toEqual([200, 409]);
  });

  it('checks getUploadLimits with a token for the video service before uploading, and refuses a spent day without uploading', async () => {
    const { a, tokens } = await connected();
    const req = await requestFor('video');
    await sb.control('POST', '_faults', {
      platform: 'bluesky',
      operation: 'status',
      fault: 'error',
      error: 'daily_videos',
    });
    const err = await expectPlatformError(a.publisher!.publish(tokens, req, memoryJournal()), 'rate_limited');
    expect(err.retryAfterSeconds).toBe(24 * 3600);
    expect(await calls('app.bsky.video.uploadVideo')).toHaveLength(0);
    const auth = await calls('com.atproto.server.getServiceAuth');
    expect(auth[0]?.query).toMatchObject({ aud: 'did:web:video.bsky.app', lxm: 'app.bsky.video.getUploadLimits' });
    // The next day's check passes and the video goes up.
    expect((await a.publisher!.publish(tokens, req, memoryJournal())).state).not.toBe('failed');
    expect(await calls('app.bsky.video.uploadVideo')).toHaveLength(1);
  });

  it('ServiceOverloaded is retried later, not bypassed by uploading the video to the PDS', async () => {
    const { a, tokens } = await connected();
    await sb.control('POST', '_faults', {
      platform: 'bluesky',
      operation: 'upload',
      fault: 'error',
      error: 'service_overloaded',
    });
    await expectPlatformError(a.publisher!.publish(tokens, await requestFor('video'), memoryJournal()), 'transient');
    expect(await calls('com.atproto.repo.uploadBlob')).toHaveLength(0);
    expect((await sb.state('bluesky')).posts).toHaveLength(0);
  });
});
