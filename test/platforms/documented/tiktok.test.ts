// Every error TikTok documents for what Herald calls, injected into the TikTok simulator over real HTTP and read by
// the adapter's publisher (init refusals at the init, fail_reasons at status/fetch): kind, wait and the user's words
// as src/platforms/tiktok/documented-errors.ts says.
import { afterAll, beforeAll, describe } from 'vitest';
import { TIKTOK_DOCUMENTED_ERRORS } from '../../../src/platforms/tiktok/documented-errors.ts';
import { readApi } from '../../../src/platforms/tiktok/errors.ts';
import { tiktokAdapter } from '../../../src/platforms/tiktok/index.ts';
import type { PlatformError } from '../../../src/platforms/types.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';
import { fixtureMedia, memoryJournal, mp4Video, publisherOf } from '../helpers/publish-fixtures.ts';
import { documentedErrorTests } from '../helpers/documented.ts';
import { startSandbox, type TestSandbox } from '../../helpers/sandbox.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox({ processingMs: 0 });
});
afterAll(() => sb.close());

describe('tiktok: documented errors', () => {
  documentedErrorTests({
    platform: 'tiktok',
    table: TIKTOK_DOCUMENTED_ERRORS,
    sandbox: () => sb,
    map: (res) => {
      try {
        readApi(res, 'publish');
      } catch (err) {
        return err as PlatformError;
      }
      throw new Error('no error');
    },
    async setup() {
      await sb.reset();
      await sb.configure({ processingMs: { tiktok: 0 } });
      const adapter = tiktokAdapter(sandboxDeps(sb, 'tiktok'));
      const tokens = await connectThrough(sb, adapter);
      const publisher = publisherOf(adapter);
      const clip = fixtureMedia(sb, { name: 'doc.mp4', bytes: await mp4Video(), kind: 'video', mime: 'video/mp4', format: 'mp4', durationSec: 12.5, width: 640, height: 360 });
      const req = { postType: 'video' as const, text: 'Documented #tiktok', media: [clip], options: { privacy_level: 'SELF_ONLY' }, targetId: 'tgt_tt_doc' };
      const journal = memoryJournal();
      return {
        async run() {
          const first = await publisher.publish(tokens, req, journal);
          // status/fetch tells how the job ended (processing is synchronous here).
          return first.state === 'processing' ? publisher.checkStatus!(tokens, first.handle, req, journal) : first;
        },
      };
    },
  });
});
