// Every error YouTube documents for what Herald calls, injected into the YouTube simulator over real HTTP and read by
// the adapter's publisher (refusals of the upload session, states the video reaches after its upload): kind, wait
// and the user's words as src/platforms/youtube/documented-errors.ts says.
import { describe } from 'vitest';
import { YOUTUBE_DOCUMENTED_ERRORS } from '../../../src/platforms/youtube/documented-errors.ts';
import { readApi } from '../../../src/platforms/youtube/errors.ts';
import { youtubeAdapter } from '../../../src/platforms/youtube/index.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';
import { fixtureMedia, memoryJournal, mp4Video, publisherOf } from '../helpers/publish-fixtures.ts';
import { documentedErrorTests, publishSettled, thrown } from '../helpers/documented.ts';

describe('youtube: documented errors', () => {
  documentedErrorTests({
    platform: 'youtube',
    table: YOUTUBE_DOCUMENTED_ERRORS,
    map: (res, sb) => thrown(() => readApi(res, 'upload', sb.clock())),
    async setup(sb) {
      const adapter = youtubeAdapter(sandboxDeps(sb, 'youtube'));
      const tokens = await connectThrough(sb, adapter);
      const clip = fixtureMedia(sb, {
        name: 'doc.mp4',
        bytes: await mp4Video(),
        kind: 'video',
        mime: 'video/mp4',
        format: 'mp4',
        durationSec: 12.5,
      });
      const req = {
        postType: 'video' as const,
        text: 'About',
        title: 'Documented',
        description: 'About',
        media: [clip],
        options: {},
        targetId: 'tgt_yt_doc',
      };
      const journal = memoryJournal();
      return { run: () => publishSettled(publisherOf(adapter), tokens, req, journal) };
    },
  });
});
