// Every error YouTube documents for what Herald calls, injected into the YouTube simulator over real HTTP and read by
// the adapter's publisher (refusals of the upload session, states the video reaches after its upload): kind, wait
// and the user's words as src/platforms/youtube/documented-errors.ts says.
import { afterAll, beforeAll, describe } from 'vitest';
import { YOUTUBE_DOCUMENTED_ERRORS } from '../../../src/platforms/youtube/documented-errors.ts';
import { readApi } from '../../../src/platforms/youtube/errors.ts';
import { youtubeAdapter } from '../../../src/platforms/youtube/index.ts';
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

describe('youtube: documented errors', () => {
  documentedErrorTests({
    platform: 'youtube',
    table: YOUTUBE_DOCUMENTED_ERRORS,
    sandbox: () => sb,
    map: (res) => {
      try {
        readApi(res, 'upload', sb.clock());
      } catch (err) {
        return err as PlatformError;
      }
      throw new Error('no error');
    },
    async setup() {
      await sb.reset();
      await sb.configure({ processingMs: { youtube: 0 } });
      const adapter = youtubeAdapter(sandboxDeps(sb, 'youtube'));
      const tokens = await connectThrough(sb, adapter);
      const publisher = publisherOf(adapter);
      const clip = fixtureMedia(sb, { name: 'doc.mp4', bytes: await mp4Video(), kind: 'video', mime: 'video/mp4', format: 'mp4', durationSec: 12.5 });
      const req = { postType: 'video' as const, text: 'About', title: 'Documented', description: 'About', media: [clip], options: {}, targetId: 'tgt_yt_doc' };
      const journal = memoryJournal();
      return {
        async run() {
          const first = await publisher.publish(tokens, req, journal);
          // videos.list tells how the video ended (processing is synchronous here).
          return first.state === 'processing' ? publisher.checkStatus!(tokens, first.handle, req, journal) : first;
        },
      };
    },
  });
});
