// Every error Instagram documents for what Herald calls, injected into the Instagram simulator over real HTTP and read
// by the adapter's publisher: kind, wait and the user's words as src/platforms/instagram/documented-errors.ts says.
import { describe, expect } from 'vitest';
import { INSTAGRAM_DOCUMENTED_ERRORS } from '../../../src/platforms/instagram/documented-errors.ts';
import { instagramError } from '../../../src/platforms/instagram/errors.ts';
import { instagramAdapter } from '../../../src/platforms/instagram/index.ts';
import { instagramPublisher } from '../../../src/platforms/instagram/publish.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';
import { fixtureMedia, jpegImage, memoryJournal } from '../helpers/publish-fixtures.ts';
import { documentedErrorTests } from '../helpers/documented.ts';

describe('instagram: documented errors', () => {
  documentedErrorTests({
    platform: 'instagram',
    table: INSTAGRAM_DOCUMENTED_ERRORS,
    map: (res) => instagramError(res),
    async setup(sb, d) {
      // The quota answer is read together with content_publishing_limit, which must then report the quota spent.
      if (d.code === '9/2207042') await sb.configure({ publishLimits: { instagram: 0 } });
      const deps = sandboxDeps(sb, 'instagram');
      const tokens = await connectThrough(sb, instagramAdapter(deps));
      const publisher = instagramPublisher(deps, { waitMs: [10, 20] });
      const media = fixtureMedia(sb, {
        name: 'doc.jpg',
        bytes: await jpegImage(1080, 1080),
        kind: 'image',
        mime: 'image/jpeg',
        format: 'jpeg',
        width: 1080,
        height: 1080,
      });
      const journal = memoryJournal();
      return {
        run: () =>
          publisher.publish(
            tokens,
            { postType: 'image', text: 'Documented', media: [media], options: {}, targetId: 'tgt_ig_doc' },
            journal,
          ),
        async renewed() {
          // The retry published a new container, not the one the error condemned.
          const s = await sb.state('instagram');
          expect(s.containers).toHaveLength(2);
          expect(s.posts).toHaveLength(1);
        },
      };
    },
  });
});
