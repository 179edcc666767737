// Meta's usage throttles carry their wait in X-Business-Use-Case-Usage (`estimated_time_to_regain_access`, minutes):
// the documented throttles of the three Meta simulators come with that header, and each adapter waits that long.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { facebookAdapter } from '../../../src/platforms/facebook/index.ts';
import { instagramAdapter } from '../../../src/platforms/instagram/index.ts';
import { threadsAdapter } from '../../../src/platforms/threads/index.ts';
import type { PublishRequest } from '../../../src/platforms/publishing.ts';
import type { PlatformAdapter } from '../../../src/platforms/types.ts';
import { connectThrough, expectPlatformError, sandboxDeps } from '../helpers/oauth-flow.ts';
import { fixtureMedia, jpegImage, memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { startSandbox, type TestSandbox } from '../../helpers/sandbox.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox({ processingMs: 0 });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

async function throttled(
  adapter: PlatformAdapter,
  error: string,
  req: (destination: string) => PublishRequest,
): Promise<number | undefined> {
  const tokens = await connectThrough(sb, adapter);
  const destination = (await adapter.fetchAccount(tokens)).destinations[0]?.id ?? 'me';
  expect(
    (await sb.control('POST', '_faults', { platform: adapter.platform, operation: 'publish', fault: 'error', error }))
      .status,
  ).toBe(201);
  const err = await expectPlatformError(
    publisherOf(adapter).publish(tokens, req(destination), memoryJournal()),
    'rate_limited',
  );
  return err.retryAfterSeconds;
}

describe('Meta usage throttles', () => {
  it('waits estimated_time_to_regain_access: Facebook 32 and 80001, Threads 32, Instagram 80002', async () => {
    const text =
      (platform: string) =>
      (page: string): PublishRequest => ({
        postType: 'text',
        text: 'Throttled',
        media: [],
        options: {},
        targetId: `tgt_${platform}`,
        ...(platform === 'facebook' ? { destination: { kind: 'page', id: page } } : {}),
      });
    expect(await throttled(facebookAdapter(sandboxDeps(sb, 'facebook')), 'page_request_limit', text('facebook'))).toBe(
      12 * 60,
    );
    await sb.reset();
    expect(await throttled(facebookAdapter(sandboxDeps(sb, 'facebook')), 'buc_limit', text('facebook'))).toBe(30 * 60);
    await sb.reset();
    expect(await throttled(threadsAdapter(sandboxDeps(sb, 'threads')), 'page_request_limit', text('threads'))).toBe(
      12 * 60,
    );
    await sb.reset();
    const photo = fixtureMedia(sb, {
      name: 'usage.jpg',
      bytes: await jpegImage(1080, 1080),
      kind: 'image',
      mime: 'image/jpeg',
      format: 'jpeg',
      width: 1080,
      height: 1080,
    });
    const image = (): PublishRequest => ({
      postType: 'image',
      text: 'Throttled',
      media: [photo],
      options: {},
      targetId: 'tgt_ig',
    });
    expect(await throttled(instagramAdapter(sandboxDeps(sb, 'instagram')), 'buc_limit', image)).toBe(30 * 60);
  });
});
