// Every error Threads documents for what Herald calls, injected into the Threads simulator over real HTTP and read
// by the adapter's publisher: kind, wait and the user's words as src/platforms/threads/documented-errors.ts says.
import { describe, expect } from 'vitest';
import { THREADS_DOCUMENTED_ERRORS } from '../../../src/platforms/threads/documented-errors.ts';
import { threadsError } from '../../../src/platforms/threads/errors.ts';
import { threadsAdapter } from '../../../src/platforms/threads/index.ts';
import { threadsPublisher } from '../../../src/platforms/threads/publish.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';
import { fixtureMedia, jpegImage, memoryJournal } from '../helpers/publish-fixtures.ts';
import { documentedErrorTests } from '../helpers/documented.ts';

describe('threads: documented errors', () => {
  documentedErrorTests({
    platform: 'threads',
    table: THREADS_DOCUMENTED_ERRORS,
    map: (res) => threadsError(res),
    async setup(sb, d) {
      // The quota answer is read together with threads_publishing_limit, which must then report the quota spent.
      if (d.code === '9') await sb.configure({ publishLimits: { threads: 0 } });
      const deps = sandboxDeps(sb, 'threads');
      const tokens = await connectThrough(sb, threadsAdapter(deps));
      const publisher = threadsPublisher(deps, { waitMs: [10, 20] });
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
            { postType: 'image', text: 'Documented', media: [media], options: {}, targetId: 'tgt_th_doc' },
            journal,
          ),
        async renewed() {
          // The retry published a new container, not the one the error condemned.
          const s = await sb.state('threads');
          expect(s.containers).toHaveLength(2);
          expect(s.posts).toHaveLength(1);
        },
      };
    },
  });
});
