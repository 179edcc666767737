// Every error TikTok documents for what Herald calls, injected into the TikTok simulator over real HTTP and read by
// the adapter's publisher (init refusals at the init, fail_reasons at status/fetch): kind, wait and the user's words
// as src/platforms/tiktok/documented-errors.ts says.
import { describe } from 'vitest';
import { TIKTOK_DOCUMENTED_ERRORS } from '../../../src/platforms/tiktok/documented-errors.ts';
import { readApi } from '../../../src/platforms/tiktok/errors.ts';
import { tiktokAdapter } from '../../../src/platforms/tiktok/index.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';
import { fixtureMedia, memoryJournal, mp4Video, publisherOf } from '../helpers/publish-fixtures.ts';
import { documentedErrorTests, publishSettled, thrown } from '../helpers/documented.ts';

describe('tiktok: documented errors', () => {
  documentedErrorTests({
    platform: 'tiktok',
    table: TIKTOK_DOCUMENTED_ERRORS,
    map: (res) => thrown(() => readApi(res, 'publish')),
    async setup(sb) {
      const adapter = tiktokAdapter(sandboxDeps(sb, 'tiktok'));
      const tokens = await connectThrough(sb, adapter);
      const clip = fixtureMedia(sb, {
        name: 'doc.mp4',
        bytes: await mp4Video(),
        kind: 'video',
        mime: 'video/mp4',
        format: 'mp4',
        durationSec: 12.5,
        width: 640,
        height: 360,
      });
      const req = {
        postType: 'video' as const,
        text: 'Documented #tiktok',
        media: [clip],
        options: { privacy_level: 'SELF_ONLY' },
        targetId: 'tgt_tt_doc',
      };
      const journal = memoryJournal();
      return { run: () => publishSettled(publisherOf(adapter), tokens, req, journal) };
    },
  });
});
