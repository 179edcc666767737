// Every error Bluesky documents for what Herald calls, injected into the Bluesky simulator (PDS and video service)
// over real HTTP and read by the adapter's publisher: kind, wait and the user's words as
// src/platforms/bluesky/documented-errors.ts says. `via: video` entries publish a video post, the others a text post.
import { pino } from 'pino';
import { describe } from 'vitest';
import { blueskyAdapter } from '../../../src/platforms/bluesky/index.ts';
import { BLUESKY_DOCUMENTED_ERRORS } from '../../../src/platforms/bluesky/documented-errors.ts';
import { blueskyError } from '../../../src/platforms/bluesky/errors.ts';
import type { PublishRequest } from '../../../src/platforms/publishing.ts';
import { sandboxBaseUrls } from '../../../src/sandbox/index.ts';
import { configuredHttp } from '../../helpers/platform-http.ts';
import { fixtureMedia, memoryJournal, mp4Video } from '../helpers/publish-fixtures.ts';
import { documentedErrorTests, publishSettled } from '../helpers/documented.ts';

describe('bluesky: documented errors', () => {
  documentedErrorTests({
    platform: 'bluesky',
    table: BLUESKY_DOCUMENTED_ERRORS,
    map: (res, sb) => blueskyError(res, 'access', sb.clock()),
    async setup(sb) {
      const urls = sandboxBaseUrls(sb.publicUrl).bluesky;
      const logger = pino({ level: 'silent' });
      const adapter = blueskyAdapter({ http: configuredHttp(logger, urls), config: { urls }, clock: sb.clock, logger });
      if (adapter.auth.kind !== 'app_password' || !adapter.publisher) throw new Error('no app-password auth or publisher');
      const tokens = await adapter.auth.login({ handle: 'alice.sandbox', appPassword: 'abcd-ef12-gh34-ij56' });
      const publisher = adapter.publisher;
      const clip = fixtureMedia(sb, { name: 'doc.mp4', bytes: await mp4Video({ mdatBytes: 20_000 }), kind: 'video', mime: 'video/mp4', format: 'mp4', width: 640, height: 360 });
      const journal = memoryJournal();
      return {
        run(via) {
          const req: PublishRequest = via === 'video'
            ? { postType: 'video', text: 'Documented video', media: [clip], options: {}, targetId: 'tgt_bsky_doc' }
            : { postType: 'text', text: 'Documented', media: [], options: {}, targetId: 'tgt_bsky_doc' };
          return publishSettled(publisher, tokens, req, journal);
        },
      };
    },
  });
});
